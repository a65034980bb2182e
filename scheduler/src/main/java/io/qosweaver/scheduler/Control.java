package io.qosweaver.scheduler;

/**
 * What a policy may ask of the mechanism (the paper's ThreadController, 4.2): a run queue of
 * controlled threads bounded by a limit, and a wait queue whose threads have their yield flag set
 * and park at their next control point. All methods are called with the controller lock held
 * (from {@link Policy} callbacks) and never block.
 */
public interface Control {
    /** A limit meaning "no limit". */
    int UNLIMITED = Integer.MAX_VALUE;

    /**
     * Puts the thread under control: into the run queue if fewer than {@link #limit()} threads run,
     * otherwise into the wait queue with its yield flag set (it parks at its next control point).
     */
    void admit(ManagedThread t);

    /**
     * Takes the thread out of control (either queue, flag cleared, unparked). If it held a
     * running slot, the first waiter gets it.
     */
    void release(ManagedThread t);

    /**
     * Sets the number of controlled threads that may run, in permits (>= 0). Shrinking moves the
     * most recently admitted runners to the wait queue and sets their yield flags; growing moves
     * waiters to the run queue in FIFO order, clears their flags and unparks them.
     */
    void setLimit(int permits);

    /** The current limit, in permits ({@link #UNLIMITED} when none). */
    int limit();

    /** Controlled threads holding a running slot. */
    int runQueueSize();

    /** Controlled threads told to yield (parked or about to park). */
    int waitQueueSize();

    /** The scheduler's clock. */
    long nanos();

    /**
     * As {@link #admit}, but a thread that has to wait parks at the entry of its scope (inside
     * {@code QoS.enter}, before the scope's body runs) instead of at its next control point. Such a
     * wait does not make anyone's control points leave their fast path. The mechanism's default
     * (for Controls that cannot park at entry) is {@link #admit}.
     */
    default void admitAtEntry(ManagedThread t) {
        admit(t);
    }

    /**
     * Sets the limit in permits (>= 0) without preempting anyone: threads holding a running slot
     * keep it even when they are over the new limit, and only threads admitted from now on wait
     * (admission control). Running threads over the limit drain as they leave; a waiter is
     * promoted only when fewer than {@code permits} run. Growing behaves as {@link #setLimit}.
     */
    default void setLimitWithoutPreemption(int permits) {
        setLimit(Math.max(permits, runQueueSize()));
    }
}
