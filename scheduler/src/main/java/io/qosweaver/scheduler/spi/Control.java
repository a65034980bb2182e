package io.qosweaver.scheduler.spi;

/**
 * What a policy may ask of the mechanism (the paper's ThreadController, 4.2, generalized): a run
 * queue of controlled threads bounded by a limit and by per-class caps, and a wait queue whose
 * threads have their yield flag set and park at their next control point (or at their scope's
 * entry). Both queues are ordered by each thread's order key: by default the order of admission,
 * so that promotion is FIFO and demotion takes the most recently admitted runner; a policy may
 * give its own keys ({@link #setOrder}: MTR-LS's time stamps), and then the runners are always the
 * threads with the smallest keys that the limit and caps allow.
 *
 * <p>Called only from {@link Policy} callbacks; never blocks. Units: permits are threads.
 */
public interface Control {
    /** A limit meaning "no limit". */
    int UNLIMITED = Integer.MAX_VALUE;

    /**
     * Puts the thread under control with the next admission order: into the run queue if the limit
     * and its class's cap allow, otherwise into the wait queue with its yield flag set (it parks at
     * its next control point). No-op if already controlled.
     */
    void admit(ThreadView t);

    /**
     * As {@link #admit}, but a thread that has to wait parks at the entry of its scope (inside
     * {@code QoS.enter}, before the scope's body runs: the paper's {@code add()}) instead of at its
     * next control point. Such a wait does not make anyone's control points leave their fast path.
     */
    void admitAtEntry(ThreadView t);

    /**
     * Takes the thread out of control (either queue, flag cleared, unparked). If it held a running
     * slot, the eligible waiter with the smallest order key gets it.
     */
    void release(ThreadView t);

    /**
     * Sets the number of controlled threads that may run (>= 0 permits). Shrinking moves the
     * runners with the largest order keys to the wait queue and sets their yield flags; growing
     * promotes waiters in key order, clears their flags and unparks them.
     */
    void setLimit(int permits);

    /**
     * Sets the limit without preempting anyone: threads holding a running slot keep it even when
     * they are over the new limit, and only threads admitted from now on wait (admission control).
     * Runners over the limit drain as they leave. Growing behaves as {@link #setLimit}.
     */
    void setLimitWithoutPreemption(int permits);

    /** The current limit in permits ({@link #UNLIMITED} when none). */
    int limit();

    /**
     * At most {@code permits} threads admitted under {@code taskClass} run at once (besides the
     * limit); shrinking preempts that class's runners with the largest keys. {@link #UNLIMITED}
     * removes the cap.
     */
    void setCap(TaskClass taskClass, int permits);

    /** The class's cap in permits ({@link #UNLIMITED} when none). */
    int cap(TaskClass taskClass);

    /**
     * A thread of {@code taskClass} given a running slot while it was parked (at a control point or
     * at its scope's entry) sleeps this long before it goes on, holding its slot (the adaptive
     * policy's pacing, paper 4.4: 100 ms). A thread taken out of control ({@link #release}) is not
     * paced. 0: none.
     */
    void setPacing(TaskClass taskClass, long nanos);

    /**
     * Gives a controlled thread a new order key and restores the queues' invariant: if a waiter the
     * limit and caps allow now has a smaller key than the runner with the largest key, they swap
     * (the runner is preempted at its next control point, the waiter released). MTR-LS moves an
     * entity to the rear by giving it a later time stamp. No-op for a thread not controlled.
     */
    void setOrder(ThreadView t, long order);

    /** Controlled threads holding a running slot. */
    int runQueueSize();

    /** Controlled threads told to yield (parked or about to park). */
    int waitQueueSize();

    /** Controlled threads of the class holding a running slot. */
    int running(TaskClass taskClass);

    /** The scheduler's clock, in nanoseconds. */
    long nanos();
}
