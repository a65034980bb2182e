package io.qosweaver.scheduler;

/**
 * Per-thread scheduling state (the paper's run/wait queue entry plus its yield flag, 3.1). One
 * object per thread for the thread's whole life, reused across requests and across scheduler
 * installs, so that entering a scope allocates nothing on the steady path.
 *
 * <p>Assumptions and guarantees:
 * <ul>
 *   <li>The scope stack ({@code stack}, {@code depth}, {@code overflow}) is confined to the owner
 *       thread.
 *   <li>{@code role} of an observed class, the queue links, {@code queue} and {@code parked} are
 *       written only under the lock of the controller that owns the role; {@code role} is volatile
 *       so the owner can read it without the lock and then re-check it under the lock.
 *   <li>{@code yield} is written only under the controller lock and read by the owner without it;
 *       volatile, so clearing it and then unparking cannot be missed for longer than one bounded
 *       park ({@link ThreadController#PARK_NANOS}).
 * </ul>
 */
public final class ManagedThread {
    static final byte NONE = 0, RUN = 1, WAIT = 2;

    final Thread thread;

    // scope stack (owner only)
    TaskClass[] stack = new TaskClass[8];
    int depth;
    /** Scopes entered beyond {@link #MAX_DEPTH}: counted, not stored, so exits stay balanced. */
    int overflow;
    static final int MAX_DEPTH = 1024;

    volatile TaskClass role;
    volatile boolean yield;

    // under the controller lock
    boolean parked;
    /**
     * Waits in the wait queue to be admitted, parked at its scope's entry rather than at a control
     * point ({@link Control#admitAtEntry}); such a flag does not count in
     * {@link ThreadController#pending}, so other threads' control points stay on the fast path.
     */
    boolean atEntry;
    /** The native (OS) thread id, resolved on the owner thread by a policy that needs it; 0: not yet. */
    int nativeTid;
    /** The nice value a policy applied to this thread, {@link #NO_NICE} when none. */
    int niceApplied = NO_NICE;
    static final int NO_NICE = Integer.MIN_VALUE;
    byte queue = NONE;

    // control-point intervals (owner only; see ControlPointIntervals)
    /** The ticker at the previous control point of the current role span; 0: none yet. */
    long ivLast;
    long ivFlushedAt;
    /** The class {@link #ivLocal} accumulates for. */
    TaskClass ivClass;
    IntervalHistogram ivLocal;
    ManagedThread qPrev, qNext;
    boolean member;
    ManagedThread mPrev, mNext;

    ManagedThread(Thread thread) {
        this.thread = thread;
    }

    /** The thread this state belongs to. */
    public Thread thread() {
        return thread;
    }

    /** The task class that decides the thread's treatment now, or {@code null}. */
    public TaskClass role() {
        return role;
    }

    /** Whether the scheduler has told this thread to yield at its next control point. */
    public boolean yieldFlag() {
        return yield;
    }

    @Override
    public String toString() {
        return thread.getName() + "[" + role + (yield ? ", yield" : "") + "]";
    }
}
