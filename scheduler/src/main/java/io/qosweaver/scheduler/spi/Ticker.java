package io.qosweaver.scheduler.spi;

/**
 * A source of monotonic time in nanoseconds. Injected so that policies and the mechanism's
 * measurements are tested against a fake clock (Caffeine's {@code Ticker}), never by sleeping.
 */
@FunctionalInterface
public interface Ticker {

    /** Monotonic time in nanoseconds; only differences are meaningful. */
    long nanos();

    /** The JVM's {@link System#nanoTime()}. */
    static Ticker system() {
        return System::nanoTime;
    }
}
