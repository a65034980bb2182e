package io.qosweaver.scheduler.spi;

/**
 * What a policy sees of a managed thread. The mechanism keeps one record per thread (per pooled
 * virtual-thread state, see below) and hands the same view to every callback.
 *
 * <p>The slot: per-thread state that belongs to the installed policy (a nice value it applied, a
 * CPU-time stamp, a service-list entry), so that the mechanism's record has no policy fields. A
 * slot set by one installed scheduler is invisible ({@code null}) to the next one. A policy
 * allocates its slot object once per thread and reuses it; it must (re)initialize it when the
 * thread's role goes from {@code null} to one of its classes, because the record of a virtual
 * thread is pooled and may come back for another thread. A policy keeps no reference to a view
 * after the thread's role has changed to {@code null}.
 *
 * <p>All methods may be called only from policy callbacks (the mechanism's lock is held).
 */
public interface ThreadView {

    /** The thread this record belongs to now. */
    Thread thread();

    /** The observed task class that decides the thread's treatment now, or {@code null}. */
    TaskClass role();

    /** Whether the thread is told to yield (it is in the wait queue). */
    boolean yieldFlag();

    /** Whether the thread is parked inside the scheduler now (at a control point or at entry). */
    boolean parked();

    /** The policy's slot for this thread, or {@code null} when the installed policy set none. */
    Object slot();

    /** Sets the policy's slot for this thread. */
    void setSlot(Object slot);

    /** The order key the thread holds in the queues (see {@link Control#setOrder}). */
    long order();
}
