package io.qosweaver.agent.bootstrap;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The armed-but-idle hook of the hooks mode (the dynamic-weaving paper's hook, Fig. 1: a check at
 * each hooked join point of whether an aspect is attached there). Woven code passes the join
 * point's number; with nothing attached the whole hook is one read of a volatile field and a
 * branch, after the JIT inlines these small static methods. Nothing in the experiment attaches an
 * aspect; {@link #attach} (reached by {@code qosweaver ctl PID hooks count start|stop}) makes every
 * hook count, so that a bench can count the hooks a request passes. Counting is off the idle path:
 * the idle hook stays a volatile read and a branch, nothing allocated, no lock.
 */
public final class Hooks {
    private Hooks() {}

    /** Whether an aspect is attached at any hooked join point: always false in the experiment. */
    private static volatile boolean attached;

    private static final AtomicLong ENTERED = new AtomicLong();
    private static final AtomicLong EXITED = new AtomicLong();
    private static final AtomicLong CALLED = new AtomicLong();

    /** At the start of a hooked method. */
    public static void enter(int joinPoint) {
        if (attached) {
            ENTERED.incrementAndGet();
        }
    }

    /** Before every return instruction of a hooked method. */
    public static void exit(int joinPoint) {
        if (attached) {
            EXITED.incrementAndGet();
        }
    }

    /** Before every hooked call instruction. */
    public static void call(int joinPoint) {
        if (attached) {
            CALLED.incrementAndGet();
        }
    }

    /** Attaches (or detaches) the counting aspect at every hook; the counts restart at zero. */
    public static void attach(boolean on) {
        ENTERED.set(0);
        EXITED.set(0);
        CALLED.set(0);
        attached = on;
    }

    /** Whether the counting aspect is attached. */
    public static boolean attached() {
        return attached;
    }

    /** Hooks passed while attached: entries, exits, calls. */
    public static long[] fired() {
        return new long[] {ENTERED.get(), EXITED.get(), CALLED.get()};
    }
}
