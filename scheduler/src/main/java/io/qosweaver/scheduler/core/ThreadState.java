package io.qosweaver.scheduler.core;

import io.qosweaver.scheduler.event.IntervalHistogram;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.ThreadView;

/**
 * Per-thread scheduling state: the paper's run/wait queue entry plus its yield flag (3.1), the
 * thread's scope stack, and the policy's slot. One record per platform thread for the thread's
 * whole life, reused across requests and across scheduler installs; pooled for virtual threads
 * ({@link ThreadStates}). Either way entering a scope allocates nothing on the steady path.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>The scope stack ({@code stack}, {@code depth}, {@code overflow}) and the interval fields
 *       are confined to the owner thread.
 *   <li>{@code role} of an observed class, the queue and member links, {@code queue},
 *       {@code order}, {@code atEntry}, {@code resumeAt} and the slot are written only under the
 *       lock of the controller that owns the role (or by the simulator's one thread);
 *       {@code role} is volatile so the owner can read it without the lock. When a scheduler
 *       replaces another, the installer moves a member's role from the old class straight to its
 *       successor under both controllers' locks (adoption, {@link Controller#shutdownInto}); the
 *       scope stack stays the owner's alone.
 *   <li>{@code yield} is written only under that lock and read by the owner without it.
 *   <li>{@code parked} is the wait handshake: set under the lock by the owner before it parks,
 *       cleared under the lock by whoever ends the wait, and then (if that is another thread) the
 *       owner is unparked. The owner waits while it reads {@code parked == true}; since only the
 *       waker clears it and a cleared wait is never set again except by the owner itself, a
 *       release followed at once by a new demotion (flag set again) cannot be lost: the owner
 *       leaves its wait, sees the new flag under the lock and begins a new, counted wait.
 * </ul>
 */
public final class ThreadState implements ThreadView {
    public static final byte NONE = 0, RUN = 1, WAIT = 2;
    static final int MAX_DEPTH = 1024;

    /** The thread this record belongs to; changes only when a pooled record is reused. */
    Thread thread;

    // scope stack (owner only)
    TaskClassState[] stack = new TaskClassState[8];
    int depth;
    /** Scopes entered beyond {@link #MAX_DEPTH}: counted, not stored, so exits stay balanced. */
    int overflow;

    volatile TaskClassState role;
    volatile boolean yield;
    volatile boolean parked;

    // owner only (written by the owner under the lock, read by it without)
    /**
     * A thread the policy let run on at a control point (mayPark said no: the deadlock-aware
     * policy's run-on) passes this many more flagged control points without the lock, as long as
     * its machine's {@link StateMachine#regime} is still {@link #skipStamp}.
     */
    int skipLeft;
    long skipStamp;

    // under the lock of the machine owning the role
    /** Waits at its scope's entry ({@link StateMachine#admitAtEntry}); not counted in pending. */
    boolean atEntry;
    byte queue = NONE;
    long order;
    /** The class the thread was admitted under (caps count it there until it leaves the queues). */
    TaskClassState queuedClass;
    ThreadState qPrev, qNext;
    boolean member;
    ThreadState mPrev, mNext;
    /**
     * Hand-off ({@link StateMachine#handOff}): demoted while on a CPU and not yet at its control
     * point ({@code draining}, linked through {@code dPrev}/{@code dNext}); the promoted thread whose
     * wake waits for it ({@code successor}); and, on that successor, that its wake is deferred.
     */
    boolean draining;
    ThreadState dPrev, dNext, successor;
    /** On a successor: the demoted runner that will wake it (null once woken or awake). */
    ThreadState predecessor;
    boolean wakeDeferred;
    /**
     * Placement ({@link CpuPlacement}): the kernel thread id (0 not yet known, -1 none: a virtual
     * thread or no native access), whether the thread is pinned to the CPU of the runner it replaced,
     * and its CPU mask from before (kept for the thread's life, one array).
     */
    int tid;
    boolean pinned;
    long[] savedMask;
    /** Pacing: after a wait the thread goes on no earlier than this ticker value (0: at once). */
    long resumeAt;
    /** The machine the thread last had a role in; the slot belongs to it. */
    StateMachine attached;
    private Object slot;
    private StateMachine slotOwner;

    // control-point intervals (owner only; see ControlPointIntervals)
    long ivLast;
    long ivFlushedAt;
    TaskClassState ivClass;
    IntervalHistogram ivLocal;

    /** Next record in a virtual-thread pool stripe (its table chain or its free list). */
    ThreadState poolNext;

    public ThreadState(Thread thread) {
        this.thread = thread;
    }

    @Override
    public Thread thread() {
        return thread;
    }

    @Override
    public TaskClass role() {
        return role;
    }

    @Override
    public boolean yieldFlag() {
        return yield;
    }

    @Override
    public boolean parked() {
        return parked;
    }

    /** Whether the thread's wake waits for the runner demoted for it (the hand-off); for tests. */
    public boolean wakeDeferred() {
        return wakeDeferred;
    }

    @Override
    public Object slot() {
        return slotOwner != null && slotOwner == attached ? slot : null;
    }

    @Override
    public void setSlot(Object slot) {
        this.slot = slot;
        this.slotOwner = attached;
    }

    @Override
    public long order() {
        return order;
    }

    /** Whether the thread waits at its scope's entry (admission), not at a control point. */
    public boolean waitsAtEntry() {
        return atEntry;
    }

    /**
     * After a wait: the ticker value before which the thread must not go on (pacing), or 0; cleared
     * by the reading. Read by the owner (or the simulator) when its wait has ended.
     */
    public long takeResumeAt() {
        long r = resumeAt;
        resumeAt = 0;
        return r;
    }

    /** The scope depth (tests). */
    public int depth() {
        return depth;
    }

    /** Whether the record holds nothing of any scheduler: its thread may give it back to a pool. */
    boolean idle() {
        return depth == 0 && overflow == 0 && role == null && queue == NONE && !member && !parked;
    }

    @Override
    public String toString() {
        return thread.getName() + "[" + role + (yield ? ", yield" : "") + (parked ? ", parked" : "") + "]";
    }
}
