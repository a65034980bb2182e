package io.qosweaver.scheduler;

/**
 * The bridge that woven code calls. CONTRACT (shared with the agent; do not change signatures):
 * every method is static, never throws, and is a no-op when no scheduler is installed or the
 * calling thread is not managed. The agent puts this module on the bootstrap class path so that
 * advice in any class loader can reach it.
 *
 * <p>Cost model (STYLE.md, hot path): {@link #controlPoint()} with nothing pending anywhere is a
 * plain-striped counter increment plus one volatile read of {@link ThreadController#pending} and a
 * branch: no allocation, no lock, no map or ThreadLocal lookup. Only when some thread somewhere
 * has its yield flag set (or intervals are being measured, {@link ControlPointIntervals}) does a
 * control point look up its own per-thread state.
 */
public final class QoS {
    private QoS() {}

    /** Per-thread state, created at the thread's first {@link #enter} and reused forever. */
    static final ThreadLocal<ManagedThread> STATE = new ThreadLocal<>();

    /** The thread enters a scope of the named task class (nested scopes allowed). */
    public static void enter(String taskClass) {
        try {
            Scheduler s = Scheduler.current;
            if (s == null) {
                return;
            }
            ManagedThread t = STATE.get();
            if (t == null) {
                t = new ManagedThread(Thread.currentThread());
                STATE.set(t);
            }
            s.controller.enter(t, taskClass);
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    /** The thread leaves its innermost scope (a no-op if it has none). */
    public static void exit() {
        try {
            if (Scheduler.current == null) {
                return;
            }
            ManagedThread t = STATE.get();
            if (t != null) {
                ThreadController.exit(t);
            }
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    /**
     * A control point: returns at once when nothing is pending for this thread (no allocation,
     * no lock); otherwise parks until a policy lets the thread go on.
     */
    public static void controlPoint() {
        FastCount.increment();
        if (ThreadController.pending != 0) {
            slowControlPoint();
        }
    }

    private static void slowControlPoint() {
        try {
            ManagedThread t = STATE.get();
            if (t == null) {
                return;
            }
            if (ControlPointIntervals.on) {
                ControlPointIntervals.record(t);
            }
            if (!t.yield) {
                return;
            }
            TaskClass r = t.role;
            if (r != null) {
                r.controller.await(t);
                if (ControlPointIntervals.on) {
                    ControlPointIntervals.resumed(t);
                }
            }
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    /**
     * Control points passed, counted without atomics in cache-line-padded cells striped by thread
     * id. Racy by design: two threads on one stripe may lose an increment; the count is for
     * observability, and an exact count would cost a contended atomic on the hot path.
     */
    static final class FastCount {
        private static final int STRIPES = 64; // power of two
        private static final int PAD = 16; // 128 bytes per cell: no false sharing between stripes
        private static final long[] CELLS = new long[STRIPES * PAD];

        private FastCount() {}

        @SuppressWarnings("deprecation") // getId: threadId() is JDK 19+, this is Java 17 bytecode
        static void increment() {
            CELLS[((int) Thread.currentThread().getId() & (STRIPES - 1)) * PAD]++;
        }

        static long sum() {
            long s = 0;
            for (int i = 0; i < STRIPES; i++) {
                s += CELLS[i * PAD];
            }
            return s;
        }
    }
}
