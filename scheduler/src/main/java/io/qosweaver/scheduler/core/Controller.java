package io.qosweaver.scheduler.core;

import io.qosweaver.scheduler.event.SchedulerEvents;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.Ticker;
import io.qosweaver.scheduler.stats.HandOffStats;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.scheduler.stats.Timeline;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The lock-and-park layer around one installed scheduler's {@link StateMachine}: it serializes
 * every decision under one lock, parks flagged threads and wakes them, reaps threads that died
 * inside a scope, drives the policy's tick and shuts the machine down.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>One lock per controller, held only for the state machine's queue moves and policy
 *       callbacks (plus an O(members) scan for dead threads at most every
 *       {@link #REAP_INTERVAL_NANOS}); never held while parking. A {@link ReentrantLock} rather
 *       than a monitor, so that virtual threads on JDK 21-23 never pin on it.
 *   <li>Wake-ups are correct by construction, not by polling: a parked thread waits while its
 *       {@code parked} field is set; only the thread that clears it under the lock wakes it, and
 *       {@link LockSupport#unpark} before {@code park} is not lost (the permit). The park is
 *       bounded by {@link #SAFETY_PARK_NANOS} (default 1 s) only as a safety net and to drive
 *       reaping; the tests run with it set to an hour so that a missing unpark fails them.
 *   <li>Release followed at once by a new demotion (the yield-flag ABA): the woken thread finds
 *       its flag set again under the lock and begins a new, counted wait; it never parks
 *       uncounted.
 *   <li>Interrupts: a waiting thread that is interrupted stops waiting at once and returns with
 *       its interrupt status set, so the application sees the interrupt promptly. It stays under
 *       control: it keeps its place in the wait queue with its flag set (it holds no running slot),
 *       passes control points without parking while its interrupt status is set (counted as
 *       {@code interruptedPasses}), and parks again at the first control point after the
 *       application has cleared the status, until the policy releases it. A thread interrupted
 *       while waiting at its scope's entry runs its body and becomes such a waiter.
 *   <li>Thread death: a thread that dies inside a scope keeps its role until the next decision
 *       (at most every {@link #REAP_INTERVAL_NANOS}, also driven by the tick, by stats reads and
 *       by parked threads' safety-net wake-ups) finds it not alive and reports it to the policy as
 *       gone, freeing its slot. A policy exception there is reported and never reaches the thread
 *       whose decision triggered the reaping.
 *   <li>Shutdown (uninstall or replacement) clears every flag, wakes every parked thread and
 *       detaches every role. Replaced ({@link #shutdownInto}), its running tasks are adopted by
 *       the replacement: their scopes count as scopes of its classes of the same name. Scopes of
 *       names it lacks, and every scope after an uninstall, stay on their threads' stacks, inert,
 *       until their exits pop them.
 * </ul>
 */
public final class Controller {
    /** Upper bound of one park: a safety net against a lost wake-up, never the mechanism. */
    /**
     * Control points a running-on thread passes without the lock between two questions to the
     * policy while nothing changes: progress of the classes it waits for is seen within this many
     * of its control points (a few milliseconds at generated densities), and running-on threads
     * take the lock at 1/64 of the rate they would.
     */
    static final int RUN_ON_PASSES = 63;
    static final long SAFETY_PARK_NANOS = Long.getLong("qosweaver.parkSafetyNanos", 1_000_000_000L);
    static final long REAP_INTERVAL_NANOS = 100_000_000L;

    /** The runtime's effects: the process-wide pending word and unparking. */
    static final Effects RUNTIME = runtimeEffects(CpuPlacement.OFF);

    /** The runtime's effects, placing handed-off threads with {@code placement} ({@link CpuPlacement}). */
    static Effects runtimeEffects(CpuPlacement placement) {
        return new Effects() {
            @Override
            public void pendingChanged(int delta) {
                Pending.add(delta);
            }

            @Override
            public void wake(ThreadState t) {
                LockSupport.unpark(t.thread);
            }

            @Override
            public void wakeInPlaceOf(ThreadState t, ThreadState demoted) {
                placement.pin(t);
                LockSupport.unpark(t.thread);
            }
        };
    }

    final StateMachine machine;
    final Ticker ticker;
    final CpuPlacement placement;
    private final ReentrantLock lock = new ReentrantLock();
    private final long waitTimeoutNanos;
    private final long tickNanos;
    private long nextReap;
    private volatile Thread ticking;

    private Controller(StateMachine machine, CpuPlacement placement) {
        this.machine = machine;
        this.placement = placement;
        this.ticker = machine.ticker;
        this.waitTimeoutNanos = Math.max(0, machine.policy.waitTimeoutNanos());
        this.tickNanos = Math.max(0, machine.policy.tickNanos());
        for (TaskClassState c : machine.classes) {
            c.controller = this;
        }
        machine.unknown.controller = this;
    }

    /**
     * Validates the task classes and builds a controller around a new state machine; changes
     * nothing global and starts no thread.
     */
    public static Controller create(Policy policy, Ticker ticker, List<TaskClassSpec> taskClasses) {
        CpuPlacement placement = StateMachine.HAND_OFF && policy.tickNanos() > 0 ? CpuPlacement.create()
                : CpuPlacement.OFF;
        return new Controller(StateMachine.create(policy, ticker, taskClasses, runtimeEffects(placement)), placement);
    }

    public StateMachine machine() {
        return machine;
    }

    public boolean closed() {
        return machine.closed;
    }

    // ------------------------------------------------------------------ role changes (owner)

    /**
     * The owner thread's role becomes {@code to} (a class of this machine, or null).
     *
     * @return false when this machine was closed meanwhile and the change was not made to a live
     *     role: the caller re-reads its role and recomputes it from its scopes
     *     ({@link Scopes#moveRole}), since the replacement may have adopted it
     */
    boolean change(ThreadState t, TaskClassState to) {
        // t.role is null or a class of this machine, and so is to (Scopes.moveRole splits the rest)
        if (StateMachine.changeUnobserved(t, t.role, to)) {
            // no lock: counted on this machine's classes; closed meanwhile, the owner moves on to
            // the successor (one more read of closed, on the unobserved path only)
            return !machine.closed;
        }
        machine.beforeScopeChange(t, to); // what must hold while it wakes others under the lock: a raised priority
        Object slot;
        lock.lock();
        try {
            if (machine.closed) {
                // shutdown detached this thread (role null) or its successor adopted it (role of
                // the new machine), under this lock: never write t.role here, let the owner retry
                return false;
            }
            maybeReapLocked();
            machine.changeRole(t, to, Policy.Cause.SCOPE);
            slot = t.slot();
        } finally {
            lock.unlock();
        }
        machine.afterScopeChange(t, slot); // what may deschedule the thread, never under the lock
        return true;
    }

    /** Whether the calling thread holds this scheduler's lock; for tests. */
    boolean lockHeldByCurrentThread() {
        return lock.isHeldByCurrentThread();
    }

    // ------------------------------------------------------------------ waiting (owner)

    /**
     * The flagged owner thread waits until a policy releases it, it is interrupted, its timed wait
     * is given up by the policy, or the scheduler closes. See the class comment for the handshake.
     * Called by the owner thread only (the bridge, and the concurrency tests).
     */
    public void await(ThreadState t) {
        machine.beforeWait(t); // e.g. out of SCHED_IDLE: never descheduled holding the lock every scope change needs
        try {
            awaitTurn(t);
        } finally {
            machine.afterWait(t); // no lock held: lowering the thread again may deschedule it
        }
    }

    private void awaitTurn(ThreadState t) {
        long startWall = System.nanoTime();
        boolean atEntry;
        TaskClassState cls;
        lock.lock();
        try {
            atEntry = t.atEntry;
            if (machine.closed || !t.yield || t.queue != ThreadState.WAIT) {
                return; // released meanwhile
            }
            if (Thread.currentThread().isInterrupted()) {
                if (atEntry) {
                    machine.entryWaitInterrupted(t);
                } else {
                    machine.interruptedPasses.increment();
                }
                return;
            }
            if (!atEntry && !machine.mayPark(t)) {
                // runs on: the next control points pass without this lock until something changes
                // (a lock convoy otherwise: ten running-on threads at dense control points kept the
                // holder of an application lock from getting this one for seconds, bench deadlock)
                t.skipLeft = RUN_ON_PASSES;
                t.skipStamp = machine.regime;
                return;
            }
            placement.learn(t);
            if (!machine.beginWait(t)) { // parking: hands t's CPU to its successor, if any
                return;
            }
            cls = t.role;
        } finally {
            if (!machine.closed) { // closed: drained at shutdown, and t's drain links may be its successor's now
                machine.handOff(t); // running on from its control point: its successor may start (no-op if done)
            }
            lock.unlock();
        }
        long timeout = atEntry ? 0 : waitTimeoutNanos;
        long deadline = timeout > 0 ? ticker.nanos() + timeout : 0;
        boolean interrupted = false;
        long pacingUntil = 0;
        long admittedWall = 0;
        try {
            for (;;) {
                while (t.parked) {
                    if (Thread.currentThread().isInterrupted()) {
                        interrupted = true;
                        break;
                    }
                    long wait = SAFETY_PARK_NANOS;
                    if (deadline != 0) {
                        long left = deadline - ticker.nanos();
                        if (left <= 0) {
                            break;
                        }
                        wait = Math.min(wait, left);
                    }
                    LockSupport.parkNanos(this, wait);
                    if (t.parked && deadline == 0) {
                        maybeReap(); // a safety-net wake-up: let a dead thread's slot go
                    }
                }
                lock.lock();
                try {
                    placement.unpin(t);
                    if (t.parked) { // we stopped waiting on our own
                        if (interrupted || machine.closed) {
                            boolean entry = t.atEntry;
                            machine.endWaitByOwner(t);
                            if (interrupted && entry) {
                                machine.entryWaitInterrupted(t);
                            }
                            return;
                        }
                        if (deadline != 0 && ticker.nanos() - deadline >= 0) {
                            if (!machine.waitExpired(t)) {
                                return; // runs on, flagged
                            }
                            deadline = ticker.nanos() + timeout;
                        }
                        continue; // a spurious or safety-net wake-up: wait on
                    }
                    if (!machine.closed) { // closed: shutdown woke every successor; t may be adopted
                        machine.awake(t);
                    }
                    // Released. Demoted again at once (the ABA)? Then this is a new, counted wait.
                    if (!interrupted && machine.beginWait(t)) {
                        deadline = timeout > 0 ? ticker.nanos() + timeout : 0;
                        continue;
                    }
                    pacingUntil = t.takeResumeAt();
                } finally {
                    lock.unlock();
                }
                break;
            }
            if (pacingUntil != 0) {
                admittedWall = System.nanoTime(); // pacing comes after admission: not an admission wait
                pace(pacingUntil);
            }
        } finally {
            if (atEntry) {
                machine.entryWaitNanos.add((admittedWall != 0 ? admittedWall : System.nanoTime()) - startWall);
            }
            if (SchedulerEvents.suspendEnabled()) {
                SchedulerEvents.suspend(cls == null ? null : cls.name(), startWall, interrupted);
            }
        }
    }

    /** Pacing after a wait: the thread holds its slot but goes on no earlier than {@code until}. */
    private void pace(long until) {
        for (long left; (left = until - ticker.nanos()) > 0 && !Thread.currentThread().isInterrupted(); ) {
            LockSupport.parkNanos(this, left);
        }
    }

    /** The hand-offs so far (under the lock: the counters are written under it). */
    public HandOffStats handOffStats() {
        lock.lock();
        try {
            return new HandOffStats(machine.handedOff, placement.enabled(), placement.pins, placement.unpins);
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ tick and dead threads

    /** Starts the policy's tick on a daemon thread, if it has one. */
    public void startTicking() {
        if (tickNanos <= 0 || ticking != null) {
            return;
        }
        Thread t = new Thread(() -> {
            long delay = tickNanos;
            while (!machine.closed) {
                LockSupport.parkNanos(this, delay);
                if (!machine.closed) {
                    delay = tick();
                }
            }
        }, "qosweaver-tick-" + machine.policy.name());
        t.setDaemon(true);
        ticking = t;
        t.start();
    }

    /**
     * One tick of the policy, and reaping; the tick thread's body, or a test's step.
     *
     * @return how long until the next tick ({@link Policy#nextTickNanos}, or the tick's period)
     */
    public long tick() {
        lock.lock();
        try {
            if (!machine.closed) {
                maybeReapLocked();
                return machine.tick(ticker.nanos());
            }
            return tickNanos;
        } finally {
            lock.unlock();
        }
    }

    private void maybeReap() {
        if (ticker.nanos() - nextReap < 0 || machine.closed) {
            return;
        }
        if (lock.tryLock()) {
            try {
                maybeReapLocked();
            } finally {
                lock.unlock();
            }
        }
    }

    private void maybeReapLocked() {
        long now = ticker.nanos();
        if (now - nextReap < 0) {
            return;
        }
        nextReap = now + REAP_INTERVAL_NANOS;
        for (ThreadState dead : machine.reap()) {
            ThreadStates.forgetDead(dead);
        }
    }

    // ------------------------------------------------------------------ shutdown, observation

    /** Releases everyone and detaches every role; idempotent. */
    public void shutdown() {
        shutdownInto(null);
    }

    /**
     * Releases everyone, detaches every role and lets {@code next} (the controller replacing this
     * one, or null) adopt the running tasks: {@link StateMachine#shutdown(StateMachine)}, with this
     * lock and then {@code next}'s held for the whole step. Idempotent.
     *
     * <h3>Why adoption is safe against the owners (which enter and exit concurrently)</h3>
     * <ul>
     *   <li>The installer never touches a scope stack: it writes only the successor pointers of
     *       this machine's classes (before the volatile {@code closed}) and, under both locks, the
     *       roles, queues and flags of this machine's members, which are written under this lock
     *       anyway. The owner resolves its stack entries through the successors at its next
     *       enter or exit ({@link TaskClassState#current()}).
     *   <li>A member's role goes from its old class straight to its new one (one volatile write,
     *       never null in between), so an owner that read its role without a lock either sees the
     *       old class, whose change takes this lock and then finds the machine closed and retries
     *       ({@link #change} returns false; {@link Scopes#moveRole} re-reads the role and
     *       recomputes it), or sees the new one, whose changes take {@code next}'s lock.
     *       {@link StateMachine#changeRole} reads the role under the lock, so whatever the owner
     *       read first, every role is left exactly once: no exit is lost or counted twice.
     *   <li>The new policy hears of every adopted thread ({@code onRoleChange} with cause
     *       {@code ADOPTED}) under {@code next}'s lock before any other thread can take it: an
     *       owner that entered through this closed machine resolves to {@code next} and waits for
     *       the lock; {@code next} is published to woven code and its tick started only after this
     *       returns ({@code Scheduler.install}).
     *   <li>Lock order: this lock, then {@code next}'s. No other path holds two controllers' locks
     *       (an owner's role change takes one, releases it, then takes the other).
     *   <li>Threads parked here are released as before; if the new policy flags them, they park
     *       again at their next control point under {@code next}.
     * </ul>
     *
     * @return per class name of {@code next}, how many running tasks it adopted
     */
    public java.util.Map<String, Integer> shutdownInto(Controller next) {
        java.util.Map<String, Integer> adopted;
        lock.lock();
        try {
            if (next == null) {
                adopted = machine.shutdown(null);
            } else {
                next.lock.lock();
                try {
                    adopted = machine.shutdown(next.machine);
                } finally {
                    next.lock.unlock();
                }
            }
        } finally {
            lock.unlock();
        }
        Thread t = ticking;
        if (t != null) {
            LockSupport.unpark(t);
        }
        return adopted;
    }

    public SchedulerStats stats(long controlPoints, long internalErrors) {
        lock.lock();
        try {
            if (!machine.closed) {
                maybeReapLocked();
            }
            return machine.stats(controlPoints, internalErrors, ControlPointIntervals.on,
                    ControlPointIntervals.snapshot(machine.classes));
        } finally {
            lock.unlock();
        }
    }

    /** {@link StateMachine#takeAtEntryPeak}, under the lock. */
    public int takeAtEntryPeak() {
        lock.lock();
        try {
            return machine.takeAtEntryPeak();
        } finally {
            lock.unlock();
        }
    }

    public Timeline timeline(long since) {
        lock.lock();
        try {
            return machine.timeline(since);
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code action} under the lock (tests and the stress test's sampler). */
    public <T> T locked(Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }
}
