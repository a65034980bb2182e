package io.qosweaver.trace.jvm;

/**
 * The offset from JFR's time to the trace's clock, estimated from calibration readings. A reading
 * is {@code nanoTime - jfrTime} with {@code nanoTime} read before the event's commit stamps
 * {@code jfrTime}: it is the true offset less however long the committing thread took in between
 * (a few microseconds, or milliseconds when it was preempted on a loaded machine). So the largest of
 * the recent readings is the best: one delayed reading no longer shifts every JVM event of the next
 * second against the OS level. Only the last {@value #WINDOW} are kept, so that a slow drift
 * between the two clocks is followed.
 *
 * <p>Not thread-safe: the JFR stream's thread is the only writer; {@link #get} may be read from any.
 */
final class ClockOffset {
    static final int WINDOW = 4;

    private final long[] readings = new long[WINDOW];
    private int n;
    private volatile long offset;

    ClockOffset(long initial) {
        this.offset = initial;
    }

    /** Adds a reading ({@code nanoTime - jfrTime}); returns the offset now in use. */
    long add(long reading) {
        readings[n++ % WINDOW] = reading;
        long best = Long.MIN_VALUE;
        for (int i = 0; i < Math.min(n, WINDOW); i++) {
            best = Math.max(best, readings[i]);
        }
        offset = best;
        return best;
    }

    long get() {
        return offset;
    }
}
