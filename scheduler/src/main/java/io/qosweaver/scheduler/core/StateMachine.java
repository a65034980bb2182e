package io.qosweaver.scheduler.core;

import io.qosweaver.scheduler.event.RunningTimeline;
import io.qosweaver.scheduler.event.SchedulerEvents;
import io.qosweaver.scheduler.event.SuspensionTimes;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.RuntimeShare;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.spi.Ticker;
import io.qosweaver.scheduler.stats.EntityShare;
import io.qosweaver.scheduler.stats.IntervalSnapshot;
import io.qosweaver.scheduler.stats.PriorityReport;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.scheduler.stats.Timeline;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * The run/wait-queue state machine: the whole of the mechanism's logic and nothing of its
 * concurrency. It keeps each thread's role, a run queue bounded by a limit and by per-class caps,
 * and a wait queue whose threads have their yield flag set; it implements the policies'
 * {@link Control} and calls the {@link Policy}. It never locks, parks or sleeps: the runtime's
 * {@link Controller} calls it with its lock held, and the simulator calls it from its one thread,
 * so both run exactly this code.
 *
 * <h2>Invariants (after every public operation)</h2>
 * <ul>
 *   <li>{@code t.yield <=> t.queue == WAIT}; {@code t.parked => t.queue == WAIT} (or the machine
 *       is closed); {@code t.atEntry => t.yield}.
 *   <li>Both queues are sorted by {@code order} (ascending; ties keep insertion order).
 *   <li>{@code runQueue.size <= limit}, except after {@link #setLimitWithoutPreemption}, where runners
 *       over the limit keep their slots and {@code runQueue.size} only decreases until it is within it;
 *       for every class {@code running <= cap} likewise.
 *   <li>No waiter is eligible while a slot is free: when {@code runQueue.size < limit}, every waiter's
 *       class is at its cap.
 *   <li>The pending count handed to {@link Effects#pendingChanged} equals the number of flagged
 *       threads not waiting at entry.
 * </ul>
 */
public final class StateMachine implements Control {
    private static final int UNLIMITED_REPORTED = -1;

    final Policy policy;
    /** The policy's {@link Policy#tickNanos}, read once at install. */
    private final long tickPeriod;
    final Ticker ticker;
    private final Effects effects;
    final List<TaskClassState> classes;
    private final Map<String, TaskClassState> byName;
    /** Pushed for names this machine does not know, to keep enter/exit balanced. */
    final TaskClassState unknown;
    /** The rank of run-time shares' classes (0: the policy takes none). */
    private final int shareRank;
    /**
     * Whether a promoted thread's wake is handed to the runner demoted for it (see
     * {@link #handOff}); on for policies with a tick, which bounds the deferral. The system property
     * {@code qosweaver.handOff=false} turns it off (to measure what it does).
     */
    static final boolean HAND_OFF = !"false".equals(System.getProperty("qosweaver.handOff"));
    private final boolean handOffs;
    /** Demoted threads still on a CPU, oldest first (each takes at most one successor). */
    private ThreadState drainHead, drainTail;
    /** Wakes handed off so far (stats and tests). */
    long handedOff;

    /** Read without the lock by scope code ({@link TaskClassState#current()}). */
    volatile boolean closed;
    /** While {@link #adopt} tells the policy of a running task: entry admission acts as admit. */
    private boolean adopting;

    private final OrderedQueue runQueue = new OrderedQueue(ThreadState.RUN);
    private final OrderedQueue waitQueue = new OrderedQueue(ThreadState.WAIT);
    private ThreadState memHead;
    private int parkedCount;
    /** Waiters flagged at entry, and those of them parked (both within waitQueue.size / parkedCount). */
    private int atEntryCount, parkedAtEntry;
    /** The most threads told to wait at entry at once since {@link #takeAtEntryPeak}. */
    private int atEntryPeak;
    private int limit = UNLIMITED;
    private long nextOrder;

    // limit-convergence episode (see SchedulerStats#suspensionTimeCount)
    private boolean episodeOpen;
    private long episodeStart;
    final SuspensionTimes suspensionTimes = new SuspensionTimes(1024);
    private final RunningTimeline timeline = new RunningTimeline(RunningTimeline.DEFAULT_CAPACITY);
    private final long anchorTicker;
    private final long anchorEpochNanos;

    private long yields, suspensions, resumes, entryWaits, waitTimeouts;
    final LongAdder entryWaitNanos = new LongAdder();
    final LongAdder monitorSkips = new LongAdder();
    /**
     * Changes whenever a flag or a limit changes: a thread running on re-asks the policy (under
     * the lock) at its next control point after any change, and every {@link
     * Controller#RUN_ON_PASSES}th one otherwise (progress counters move without a change).
     */
    volatile long regime;
    /** Flagged control points a running-on thread passed without the lock. */
    final LongAdder lockFreeRunOnPasses = new LongAdder();
    final LongAdder interruptedPasses = new LongAdder();

    private StateMachine(Policy policy, Ticker ticker, Effects effects, List<TaskClassSpec> specs, int[] ranks) {
        this.policy = policy;
        this.ticker = ticker;
        this.effects = effects;
        List<TaskClassState> list = new ArrayList<>();
        Map<String, TaskClassState> m = new HashMap<>();
        for (int i = 0; i < specs.size(); i++) {
            TaskClassSpec s = specs.get(i);
            TaskClassState c = new TaskClassState(s.name(), s.attributes(), ranks[i], i, this);
            list.add(c);
            m.put(s.name(), c);
        }
        this.classes = List.copyOf(list);
        this.byName = Map.copyOf(m);
        this.unknown = new TaskClassState("<unknown>", Map.of(), 0, -1, this);
        this.shareRank = Math.max(0, policy.shareRank());
        this.tickPeriod = Math.max(0, policy.tickNanos());
        this.handOffs = HAND_OFF && tickPeriod > 0;
        this.anchorTicker = ticker.nanos();
        this.anchorEpochNanos = System.currentTimeMillis() * 1_000_000L;
    }

    /**
     * Validates the task classes (unique, non-blank names) and lets the policy rank each; changes
     * nothing global.
     *
     * @throws PolicyConfigException naming the offending key
     */
    public static StateMachine create(Policy policy, Ticker ticker, List<TaskClassSpec> specs, Effects effects) {
        List<TaskClassSpec> list = specs == null ? List.of() : new ArrayList<>(specs);
        Map<String, Integer> seen = new HashMap<>();
        int[] ranks = new int[list.size()];
        for (int i = 0; i < list.size(); i++) {
            TaskClassSpec s = list.get(i);
            if (s == null || s.name() == null || s.name().isBlank()) {
                throw new PolicyConfigException("taskClasses[" + i + "].name",
                        "task class #" + (i + 1) + " has no name; give it a unique non-empty name");
            }
            if (seen.putIfAbsent(s.name(), i) != null) {
                throw new PolicyConfigException("taskClasses." + s.name(),
                        "task class '" + s.name() + "' is defined twice; rename or merge one of them");
            }
            ranks[i] = policy.rank(s);
            if (ranks[i] < 0) {
                throw new IllegalStateException("policy " + policy.name() + " gave a negative rank");
            }
        }
        StateMachine machine = new StateMachine(policy, ticker, effects, list, ranks);
        policy.onStart(machine); // not yet published: no thread, no lock needed
        return machine;
    }

    public Policy policy() {
        return policy;
    }

    /** The class of that name, or the {@code unknown} marker. */
    public TaskClassState classOrUnknown(String name) {
        TaskClassState c = name == null ? null : byName.get(name);
        return c == null ? unknown : c;
    }

    /**
     * The class standing for a run-time share in this machine: cached on the share, so that
     * entering it again allocates nothing; created on a share's first scope under this machine
     * (two threads racing there may each create one: equal for the policy, which keys its entity
     * on the share). The {@code unknown} marker when the policy takes no shares.
     */
    public TaskClassState shareClass(RuntimeShare s) {
        TaskClass cached = s.mechanismClass();
        if (cached instanceof TaskClassState && ((TaskClassState) cached).machine == this) {
            return (TaskClassState) cached;
        }
        if (shareRank <= 0) {
            return unknown;
        }
        TaskClassState c = new TaskClassState(s.name(), Map.of(), shareRank, TaskClassState.SHARE_INDEX, this, s);
        c.controller = unknown.controller;
        s.cacheMechanismClass(c);
        return c;
    }

    /** The classes in policy-file order. */
    public List<TaskClassState> classes() {
        return classes;
    }

    // ------------------------------------------------------------------ roles

    /**
     * Moves the counters of a role change between classes the policy does not observe (or none);
     * needs no lock. Returns false, doing nothing, when either class is observed.
     */
    static boolean changeUnobserved(ThreadState t, TaskClassState from, TaskClassState to) {
        if ((from != null && from.observed()) || (to != null && to.observed())) {
            return false;
        }
        if (from != null) {
            from.members.decrementAndGet();
        }
        if (to != null) {
            to.members.incrementAndGet();
        }
        t.role = to;
        return true;
    }

    /**
     * The thread's role becomes {@code to} (a class of this machine, or null). The policy hears of
     * it when either side is observed; if the policy throws, the thread is released (fail open)
     * and the exception is rethrown.
     */
    public void changeRole(ThreadState t, TaskClassState to, Policy.Cause cause) {
        TaskClassState from = t.role;
        if (from == to) {
            return;
        }
        handOff(t);
        if (from != null && from.machine != this) {
            from = null; // a role of a closed machine, already detached by its shutdown
        }
        if (changeUnobserved(t, from, to)) {
            return;
        }
        if (from != null) {
            from.members.decrementAndGet();
            if (from.observed()) {
                unlinkMember(t);
                if (cause == Policy.Cause.SCOPE) {
                    from.completed++;
                }
            }
            note(from);
        }
        t.role = to;
        if (to != null) {
            to.members.incrementAndGet();
            t.attached = this;
            if (to.observed()) {
                linkMember(t);
            }
            note(to);
        }
        TaskClassState of = observedOrNull(from);
        TaskClassState ot = observedOrNull(to);
        if (of != ot) {
            try {
                policy.onRoleChange(this, t, of, ot, cause);
            } catch (Throwable e) {
                release(t); // never leave a thread flagged because a policy broke
                throw e;
            }
        }
    }

    // ------------------------------------------------------------------ Control

    @Override
    public void admit(ThreadView v) {
        admit((ThreadState) v, false);
    }

    @Override
    public void admitAtEntry(ThreadView v) {
        admit((ThreadState) v, true);
    }

    /**
     * The most threads waiting at entry at once since the last call (each holds the thread that
     * would serve its request: a server's pool thread); starts the next period at the count now.
     * Under the lock.
     */
    public int takeAtEntryPeak() {
        int peak = atEntryPeak;
        atEntryPeak = atEntryCount;
        return peak;
    }

    private void admit(ThreadState t, boolean atEntry) {
        if (t.queue != ThreadState.NONE) {
            return;
        }
        TaskClassState c = t.role;
        t.queuedClass = c;
        t.order = ++nextOrder;
        if (runQueue.size < limit && underCap(c)) {
            linkRun(t);
        } else {
            link(t, ThreadState.WAIT);
            if (atEntry && !adopting) { // an adopted thread is past its entry: it waits at a control point
                t.atEntry = true; // before setYield: not counted in pending
                atEntryCount++;
                atEntryPeak = Math.max(atEntryPeak, atEntryCount);
            }
            setYield(t);
        }
        checkConvergence();
    }

    @Override
    public void release(ThreadView v) {
        ThreadState t = (ThreadState) v;
        byte q = t.queue;
        if (q == ThreadState.NONE) {
            return;
        }
        unlink(t);
        if (q == ThreadState.WAIT) {
            clearYield(t, false);
        } else {
            promote();
        }
        checkConvergence();
    }

    /** Flagged control points a running-on thread passed without the scheduler's lock (for tests and stats). */
    public long lockFreeRunOnPasses() {
        return lockFreeRunOnPasses.sum();
    }

    @Override
    public void setLimit(int permits) {
        regime++;
        setLimit(permits, true);
    }

    @Override
    public void setLimitWithoutPreemption(int permits) {
        regime++;
        setLimit(permits, false);
    }

    private void setLimit(int permits, boolean preempt) {
        if (permits < 0) {
            throw new IllegalArgumentException("limit must be >= 0 permits: " + permits);
        }
        int old = limit;
        limit = permits;
        if (preempt) {
            // Demote the runners with the largest keys: by default the most recently admitted,
            // the oldest being likely closest to done.
            while (runQueue.size > limit) {
                demote(runQueue.tail);
            }
        }
        promote();
        long now = ticker.nanos();
        if (permits < old && !episodeOpen) {
            episodeOpen = true;
            episodeStart = now;
        }
        checkConvergence();
        if (permits > old && episodeOpen) {
            // Lifted before the running count came down: record the whole (partial) episode.
            suspensionTimes.record(now - episodeStart);
            episodeOpen = false;
        }
        if (SchedulerEvents.limitEnabled()) {
            SchedulerEvents.limit(policy.name(), reported(old), reported(permits), runQueue.size, waitQueue.size);
        }
    }

    private static int reported(int permits) {
        return permits == UNLIMITED ? UNLIMITED_REPORTED : permits;
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public void setCap(TaskClass taskClass, int permits) {
        regime++;
        TaskClassState c = own(taskClass);
        if (permits < 0) {
            throw new IllegalArgumentException("cap must be >= 0 permits: " + permits);
        }
        c.cap = permits;
        while (c.running > c.cap) {
            demote(largestRunnerOf(c));
        }
        promote();
        checkConvergence();
    }

    @Override
    public int cap(TaskClass taskClass) {
        return own(taskClass).cap;
    }

    @Override
    public void setPacing(TaskClass taskClass, long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("pacing must be >= 0 ns: " + nanos);
        }
        own(taskClass).pacingNanos = nanos;
    }

    @Override
    public void setOrder(ThreadView v, long order) {
        ThreadState t = (ThreadState) v;
        if (t.queue == ThreadState.NONE) {
            return;
        }
        OrderedQueue q = t.queue == ThreadState.RUN ? runQueue : waitQueue;
        q.remove(t);
        t.order = order;
        q.insert(t);
        rebalance();
        checkConvergence();
    }

    @Override
    public int runQueueSize() {
        return runQueue.size;
    }

    @Override
    public int waitQueueSize() {
        return waitQueue.size;
    }

    @Override
    public int running(TaskClass taskClass) {
        return own(taskClass).running;
    }

    @Override
    public long nanos() {
        return ticker.nanos();
    }

    private TaskClassState own(TaskClass taskClass) {
        if (!(taskClass instanceof TaskClassState) || ((TaskClassState) taskClass).machine != this) {
            throw new IllegalArgumentException("not a task class of this scheduler: " + taskClass);
        }
        return (TaskClassState) taskClass;
    }

    // ------------------------------------------------------------------ queue moves

    private static boolean underCap(TaskClassState c) {
        return c == null || c.running < c.cap;
    }

    /** Fills free slots with the eligible waiters of smallest key. */
    private void promote() {
        while (runQueue.size < limit) {
            ThreadState w = firstEligibleWaiter();
            if (w == null) {
                return;
            }
            unlink(w);
            linkRun(w);
            clearYield(w, true);
        }
    }

    private ThreadState firstEligibleWaiter() {
        for (ThreadState w = waitQueue.head; w != null; w = w.qNext) {
            if (underCap(w.queuedClass)) {
                return w;
            }
        }
        return null;
    }

    private void demote(ThreadState r) {
        unlink(r);
        link(r, ThreadState.WAIT);
        setYield(r);
        if (handOffs && !r.wakeDeferred && !r.draining) { // on a CPU until its next control point
            r.draining = true;
            r.dPrev = drainTail;
            r.dNext = null;
            if (drainTail == null) {
                drainHead = r;
            } else {
                drainTail.dNext = r;
            }
            drainTail = r;
        }
    }

    /**
     * The hand-off: a promoted thread that is parked is woken not by the decision that promotes it
     * but by the runner that decision demoted, when that runner reaches its control point (or
     * leaves, or is promoted again), so that the successor is woken by the thread whose CPU it takes
     * and as that CPU is freed. Woken at once from the tick thread instead, the successor was queued
     * behind a runner on a busy CPU (Linux placed it on its previous one) while the demoted runner's
     * CPU idled for a few milliseconds after it parked: a tracefs record of 10 MTR-LS runners on 2
     * cores showed 0.13 cores idle that way. Bounded: every tick wakes the successors still waiting
     * ({@link #tick}), so a demoted runner blocked outside control points delays its successor by at
     * most one tick; shutdown wakes them all. Logically the successor runs from its promotion on:
     * only its unpark is deferred.
     */
    public void handOff(ThreadState t) {
        handOff(t, false);
    }

    /**
     * {@link #handOff(ThreadState)}; {@code parking}: {@code t} is at its control point and about to
     * park, so its successor is woken to take {@code t}'s CPU ({@link Effects#wakeInPlaceOf}).
     */
    private void handOff(ThreadState t, boolean parking) {
        if (!t.draining) {
            return;
        }
        t.draining = false;
        if (t.dPrev == null) {
            drainHead = t.dNext;
        } else {
            t.dPrev.dNext = t.dNext;
        }
        if (t.dNext == null) {
            drainTail = t.dPrev;
        } else {
            t.dNext.dPrev = t.dPrev;
        }
        t.dPrev = t.dNext = null;
        ThreadState s = t.successor;
        if (s != null) {
            t.successor = null;
            wakeDeferred(s, parking ? t : null);
        }
    }

    /** Ends {@code s}'s deferral and wakes it: in place of {@code demoted} when that one is about to park. */
    private void wakeDeferred(ThreadState s, ThreadState demoted) {
        s.predecessor = null;
        s.wakeDeferred = false;
        handedOff++;
        if (demoted != null) {
            effects.wakeInPlaceOf(s, demoted);
        } else {
            effects.wake(s);
        }
    }

    /**
     * The owner, back from its park, is awake: a successor that woke before its predecessor handed
     * off (a safety-net or spurious wake-up) is no longer anyone's to wake.
     */
    public void awake(ThreadState t) {
        if (t.wakeDeferred) {
            ThreadState p = t.predecessor;
            if (p != null && p.successor == t) {
                p.successor = null;
            }
            t.predecessor = null;
            t.wakeDeferred = false;
        }
    }

    /** Wakes every successor still waiting for its demoted runner (the deferral's bound). */
    private void wakeSuccessors() {
        for (ThreadState d = drainHead; d != null; d = d.dNext) {
            ThreadState s = d.successor;
            if (s != null) {
                d.successor = null;
                wakeDeferred(s, null);
            }
        }
    }

    /** The oldest demoted runner still on a CPU without a successor, or null. */
    private ThreadState drainingWithoutSuccessor() {
        for (ThreadState d = drainHead; d != null; d = d.dNext) {
            if (d.successor == null) {
                return d;
            }
        }
        return null;
    }

    private ThreadState largestRunnerOf(TaskClassState c) {
        ThreadState r = largestRunnerOrNull(c);
        if (r == null) {
            throw new IllegalStateException("class " + c + " counts " + c.running + " runners but has none");
        }
        return r;
    }


    /**
     * Restores "the runners are the smallest keys the limit and caps allow" after a key changed:
     * while a waiter has a smaller key than the runner it could replace, they swap.
     */
    private void rebalance() {
        promote();
        for (int guard = 0; guard < 100_000; guard++) {
            ThreadState victim = null;
            for (ThreadState w = waitQueue.head; w != null && victim == null; w = w.qNext) {
                ThreadState r = underCap(w.queuedClass) ? runQueue.tail : largestRunnerOrNull(w.queuedClass);
                if (r != null && w.order < r.order && runQueue.size >= limit) {
                    victim = r;
                }
            }
            if (victim == null) {
                return;
            }
            demote(victim);
            promote();
        }
        throw new IllegalStateException("rebalance did not converge");
    }

    private ThreadState largestRunnerOrNull(TaskClassState c) {
        for (ThreadState r = runQueue.tail; r != null; r = r.qPrev) {
            if (r.queuedClass == c) {
                return r;
            }
        }
        return null;
    }

    private void setYield(ThreadState t) {
        if (!t.yield) {
            regime++;
            t.yield = true;
            if (!t.atEntry) {
                effects.pendingChanged(1);
            }
            yields++;
            if (SchedulerEvents.yieldEnabled()) {
                SchedulerEvents.yield(t.thread.getName(), t.role == null ? null : t.role.name());
            }
        }
    }

    /** Clears the flag (and the entry wait), ending the thread's wait if it is parked. */
    private void clearYield(ThreadState t, boolean promoted) {
        handOff(t); // promoted again before its control point: it holds a slot, and so does its successor
        boolean entry = t.atEntry;
        if (t.yield) {
            regime++;
            t.yield = false;
            if (!entry) {
                effects.pendingChanged(-1);
            }
        }
        if (entry) {
            t.atEntry = false;
            atEntryCount--;
        }
        if (t.parked) {
            unmarkParked(t, entry);
            TaskClassState c = t.queuedClass;
            // Pacing after a wait at a control point or at entry (the adaptive policy's middle
            // threads wait at entry, as the paper's startMidImportance did).
            if (promoted && c != null && c.pacingNanos > 0) {
                t.resumeAt = ticker.nanos() + c.pacingNanos;
            }
            ThreadState victim = promoted && handOffs ? drainingWithoutSuccessor() : null;
            if (victim != null) {
                victim.successor = t;
                t.predecessor = victim;
                t.wakeDeferred = true;
            } else {
                effects.wake(t);
            }
        }
    }

    // ------------------------------------------------------------------ the wait handshake

    /**
     * The owner thread, flagged, is about to park: marks it parked and returns true, or returns
     * false when it must not wait (its flag was cleared meanwhile, or the machine closed).
     */
    public boolean beginWait(ThreadState t) {
        if (closed || !t.yield || t.queue != ThreadState.WAIT || t.parked) {
            handOff(t, false);
            return false;
        }
        handOff(t, true);
        boolean entry = t.atEntry;
        t.parked = true;
        parkedCount++;
        if (entry) {
            parkedAtEntry++;
            entryWaits++;
        }
        TaskClassState r = t.role;
        if (r != null) {
            r.parked.incrementAndGet();
            note(r);
        }
        suspensions++;
        checkConvergence();
        return true;
    }

    /** The owner left its wait on its own (interrupt, shutdown seen): undoes {@link #beginWait}. */
    public void endWaitByOwner(ThreadState t) {
        if (t.parked) {
            unmarkParked(t, t.atEntry);
            checkConvergence();
        }
    }

    /**
     * The owner was interrupted while waiting at its scope's entry: it will run its body now (the
     * interrupt must reach the application), so it becomes an ordinary waiter, flagged and counted,
     * which parks at its first control point once its interrupt status is cleared.
     */
    public void entryWaitInterrupted(ThreadState t) {
        if (t.atEntry && t.yield) {
            t.atEntry = false;
            atEntryCount--;
            effects.pendingChanged(1);
            checkConvergence();
        }
    }

    /**
     * A timed wait of a still parked thread expired: asks the policy. Returns true to wait on;
     * false when the thread runs on, flagged, holding no slot.
     */
    public boolean waitExpired(ThreadState t) {
        boolean keep;
        try {
            keep = policy.onWaitTimeout(this, t);
        } catch (Throwable e) {
            InternalErrors.report(e);
            keep = false; // fail open: a broken policy never keeps a thread waiting
        }
        if (!keep) {
            waitTimeouts++;
            endWaitByOwner(t);
        }
        return keep;
    }

    /**
     * A progress point of the thread, counted for its role if that is a class of this machine: what
     * {@code QoS.progressPoint()} does for the calling thread, for a caller that plays the threads
     * (the simulator).
     */
    public void progressPoint(ThreadState t) {
        TaskClassState r = t.role;
        if (r != null && r.machine == this) {
            r.progress.increment();
        }
    }

    /**
     * The policy's {@link Policy#afterScopeChange} for the owner thread {@code t}, outside the lock, with
     * its slot as read under it; a broken policy is reported, never thrown into the application. Public
     * for a caller that plays the threads (the simulator), after its {@link #changeRole}.
     */
    public void afterScopeChange(ThreadState t, Object slot) {
        try {
            policy.afterScopeChange(t, slot);
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    /**
     * The policy's {@link Policy#beforeScopeChange} for the owner thread {@code t} about to move to {@code to}
     * (a class of this machine, or null), before the lock; the classes as {@link #changeRole} will hand them to
     * {@link Policy#onRoleChange} (observed ones, else null), read without the lock: {@code t.role} is written by
     * its owner, or under the lock by an adopting successor, after which the change is retried there. A broken
     * policy is reported, never thrown into the application.
     */
    public void beforeScopeChange(ThreadState t, TaskClassState to) {
        TaskClassState from = t.role;
        TaskClassState of = from != null && from.machine == this ? observedOrNull(from) : null;
        TaskClassState ot = observedOrNull(to);
        if (of == ot) {
            return;
        }
        try {
            policy.beforeScopeChange(t, of, ot);
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    /** Before a flagged thread's wait, on it and before the lock; a broken policy is reported, never thrown. */
    public void beforeWait(ThreadState t) {
        try {
            policy.beforeWait(t);
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    /** After that wait, on the thread, no lock held; a broken policy is reported, never thrown. */
    public void afterWait(ThreadState t) {
        try {
            policy.afterWait(t);
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    /** A role as the policy hears of it: an observed class, else null. */
    private static TaskClassState observedOrNull(TaskClassState c) {
        return c != null && c.observed() ? c : null;
    }

    /** Whether a flagged thread at a control point parks; a broken policy lets it pass. */
    public boolean mayPark(ThreadState t) {
        try {
            return policy.mayPark(this, t);
        } catch (Throwable e) {
            InternalErrors.report(e);
            return false;
        }
    }

    private void unmarkParked(ThreadState t, boolean atEntry) {
        t.parked = false;
        parkedCount--;
        if (atEntry) {
            parkedAtEntry--;
        }
        TaskClassState r = t.role;
        if (r != null) {
            r.parked.decrementAndGet();
            note(r);
        }
        resumes++;
        if (SchedulerEvents.resumeEnabled()) {
            SchedulerEvents.resume(t.thread.getName(), r == null ? null : r.name());
        }
    }

    /**
     * Controlled threads executing their scope's body: runners plus flagged threads not parked
     * (threads waiting at entry never started); what the suspension-time episode waits to bring
     * within the limit.
     */
    public int executingControlled() {
        return runQueue.size + (waitQueue.size - atEntryCount) - (parkedCount - parkedAtEntry);
    }

    private void checkConvergence() {
        if (episodeOpen && executingControlled() <= limit) {
            suspensionTimes.record(ticker.nanos() - episodeStart);
            episodeOpen = false;
        }
    }

    // ------------------------------------------------------------------ tick, death, shutdown

    /**
     * The policy's periodic tick; an exception is reported, never thrown.
     *
     * @return how long until the next tick: the policy's {@link Policy#nextTickNanos}, or its
     *     period when it gives none (or failed)
     */
    public long tick(long nowNanos) {
        long period = tickPeriod;
        if (closed) {
            return period;
        }
        wakeSuccessors();
        try {
            policy.onTick(this, nowNanos);
            long next = policy.nextTickNanos();
            return next > 0 ? next : period;
        } catch (Throwable e) {
            InternalErrors.report(e);
            return period;
        }
    }

    /**
     * Reports every dead member to the policy as having left its scope, and releases it. An
     * exception of the policy is reported and the others are reaped all the same, so that it never
     * reaches the caller (whose own role change comes next).
     *
     * @return the records of the dead threads (their pooled records can be forgotten)
     */
    public List<ThreadState> reap() {
        List<ThreadState> dead = null;
        for (ThreadState m = memHead, next; m != null; m = next) {
            next = m.mNext;
            if (!m.thread.isAlive()) {
                try {
                    changeRole(m, null, Policy.Cause.DEATH);
                } catch (Throwable e) {
                    InternalErrors.report(e);
                } finally {
                    release(m);
                }
                if (dead == null) {
                    dead = new ArrayList<>(2);
                }
                dead.add(m);
            }
        }
        return dead == null ? List.of() : dead;
    }

    /** Releases everyone and detaches every role; idempotent. */
    public void shutdown() {
        shutdown(null);
    }

    /**
     * Releases everyone and detaches every role, and hands the running tasks to {@code next}, the
     * machine replacing this one (null: none, an uninstall): every class gets its successor, the
     * class of the same name in {@code next} (null if {@code next} lacks the name), before
     * {@link #closed} is set, so that scope code that reads {@code closed == true} finds the
     * successors ({@link TaskClassState#current()}); then every member whose role has a successor
     * is adopted by {@code next} ({@link #adopt}). Members of run-time shares are not adopted.
     * Idempotent. The runtime calls it with this machine's lock and then {@code next}'s held
     * ({@link Controller#shutdownInto}).
     *
     * @return per class name of {@code next}, how many running tasks it adopted (in class order;
     *     empty when none)
     */
    public Map<String, Integer> shutdown(StateMachine next) {
        if (closed) {
            return Map.of();
        }
        if (next != null) {
            for (TaskClassState c : classes) {
                c.successor = next.byName.get(c.name()); // before closed: published by its write
            }
        }
        closed = true;
        wakeSuccessors();
        while (drainHead != null) {
            handOff(drainHead);
        }
        List<ThreadState> adopted = null;
        while (memHead != null) {
            ThreadState m = memHead;
            TaskClassState r = m.role;
            if (r != null && r.observed()) {
                try {
                    policy.onDetach(m, r);
                } catch (Throwable e) {
                    InternalErrors.report(e); // detaching the rest matters more
                }
            }
            unlinkMember(m);
            if (m.queue != ThreadState.NONE) {
                unlink(m);
            }
            clearYield(m, false);
            if (r != null) {
                r.members.decrementAndGet();
                note(r);
            }
            if (r != null && r.successor != null && r.share == null) {
                // m.role stays r until next adopts it: never null in between, so that an owner that
                // reads it without a lock cannot take "no role" for "nothing to leave"
                if (adopted == null) {
                    adopted = new ArrayList<>();
                }
                adopted.add(m);
            } else {
                m.role = null;
            }
        }
        limit = UNLIMITED;
        if (episodeOpen) {
            suspensionTimes.record(ticker.nanos() - episodeStart);
            episodeOpen = false;
        }
        if (adopted == null) {
            return Map.of();
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (TaskClassState c : next.classes) {
            int n = 0;
            for (ThreadState m : adopted) {
                if (m.role.successor == c) {
                    n++;
                }
            }
            if (n > 0) {
                counts.put(c.name(), n);
            }
        }
        for (ThreadState m : adopted) {
            next.adopt(m, m.role.successor);
        }
        return Collections.unmodifiableMap(counts);
    }

    /**
     * A thread that was inside a scope of {@code to}'s name when this machine replaced the one it
     * had its role in takes the role {@code to} here; the policy hears it with cause
     * {@link Policy.Cause#ADOPTED}. A policy exception is reported and the thread is released.
     */
    void adopt(ThreadState t, TaskClassState to) {
        adopting = true;
        try {
            changeRole(t, to, Policy.Cause.ADOPTED); // t.role is the closed machine's: counted as none
        } catch (Throwable e) {
            InternalErrors.report(e); // changeRole released it (fail open)
        } finally {
            adopting = false;
        }
    }

    // ------------------------------------------------------------------ observation

    /** Records {@code c}'s counts on the timeline; unobserved classes are not tracked. */
    private void note(TaskClassState c) {
        if (c.observed() && c.share == null) { // run-time shares are in the policy's share metrics
            timeline.record(ticker.nanos(), c.index, c.members.get(), c.parked.get());
        }
    }

    public Timeline timeline(long since) {
        return timeline.since(since, i -> classes.get(i).name(), anchorTicker, anchorEpochNanos);
    }

    /** A snapshot of the counters. */
    public SchedulerStats stats(long controlPoints, long internalErrors, boolean measuringIntervals,
            Map<String, IntervalSnapshot> intervals) {
        Map<String, Integer> running = new LinkedHashMap<>();
        Map<String, Long> progress = new LinkedHashMap<>();
        Map<String, Integer> caps = new LinkedHashMap<>();
        for (TaskClassState c : classes) {
            running.put(c.name(), Math.max(0, c.members.get() - c.parked.get()));
            if (c.observed()) {
                progress.put(c.name(), c.progress.sum());
                if (c.cap != UNLIMITED) {
                    caps.put(c.name(), c.cap);
                }
            }
        }
        long[] t = suspensionTimes.snapshot();
        PriorityReport priority;
        try {
            priority = policy.priorityReport();
        } catch (Throwable e) {
            InternalErrors.report(e);
            priority = null;
        }
        List<EntityShare> shares;
        try {
            shares = policy.shares();
        } catch (Throwable e) {
            InternalErrors.report(e);
            shares = List.of();
        }
        return new SchedulerStats(policy.name(), controlPoints, yields, suspensions, resumes, internalErrors,
                Collections.unmodifiableMap(running), parkedCount, limit == UNLIMITED ? -1 : limit, runQueue.size,
                waitQueue.size, t[0], t[1], t[2], t[3], t[4], entryWaits, entryWaitNanos.sum(), monitorSkips.sum(),
                interruptedPasses.sum(), waitTimeouts, priority, measuringIntervals, intervals, progress, caps,
                shares);
    }

    /** Threads parked now. */
    public int parkedCount() {
        return parkedCount;
    }

    // ------------------------------------------------------------------ queue membership

    /** Inserts into a queue at its key's place and counts it against its class's cap. */
    private void link(ThreadState t, byte q) {
        if (q == ThreadState.RUN) {
            runQueue.insert(t);
            if (t.queuedClass != null) {
                t.queuedClass.running++;
            }
        } else {
            waitQueue.insert(t);
        }
    }

    private void linkRun(ThreadState t) {
        link(t, ThreadState.RUN);
    }

    /** Removes from its queue and uncounts it. */
    private void unlink(ThreadState t) {
        if (t.queue == ThreadState.RUN) {
            runQueue.remove(t);
            if (t.queuedClass != null) {
                t.queuedClass.running--;
            }
        } else if (t.queue == ThreadState.WAIT) {
            waitQueue.remove(t);
        }
    }

    private void linkMember(ThreadState t) {
        if (t.member) {
            return;
        }
        t.member = true;
        t.mPrev = null;
        t.mNext = memHead;
        if (memHead != null) {
            memHead.mPrev = t;
        }
        memHead = t;
    }

    private void unlinkMember(ThreadState t) {
        if (!t.member) {
            return;
        }
        ThreadState p = t.mPrev, n = t.mNext;
        if (p == null) memHead = n; else p.mNext = n;
        if (n != null) n.mPrev = p;
        t.mPrev = t.mNext = null;
        t.member = false;
    }

    /** Checks every invariant; for tests and the simulator's self-check. Returns null when all hold. */
    public String checkInvariants() {
        int rs = 0, ws = 0, pk = 0, ae = 0, pae = 0;
        Map<TaskClassState, Integer> running = new HashMap<>();
        long prev = Long.MIN_VALUE;
        for (ThreadState t = runQueue.head; t != null; t = t.qNext) {
            rs++;
            if (t.queue != ThreadState.RUN) return "runner " + t + " not marked RUN";
            if (t.yield) return "runner " + t + " is flagged";
            if (t.parked) return "runner " + t + " is parked";
            if (t.order < prev) return "run queue not sorted at " + t;
            prev = t.order;
            if (t.queuedClass != null) running.merge(t.queuedClass, 1, Integer::sum);
        }
        prev = Long.MIN_VALUE;
        for (ThreadState t = waitQueue.head; t != null; t = t.qNext) {
            ws++;
            if (t.queue != ThreadState.WAIT) return "waiter " + t + " not marked WAIT";
            if (!t.yield) return "waiter " + t + " not flagged";
            if (t.order < prev) return "wait queue not sorted at " + t;
            prev = t.order;
            if (t.parked) pk++;
            if (t.draining && (t.parked || t.atEntry)) return "waiter " + t + " draining but parked or at entry";
            if (t.atEntry) {
                ae++;
                if (t.parked) pae++;
            }
        }
        for (ThreadState d = drainHead; d != null; d = d.dNext) {
            if (!d.draining || d.queue != ThreadState.WAIT) return "draining " + d + " not a draining waiter";
            if (d.successor != null && (!d.successor.wakeDeferred || d.successor == d || d.successor.predecessor != d)) return "successor of " + d + " not deferred";
        }
        if (rs != runQueue.size) return "runQueue.size " + runQueue.size + " but " + rs + " runners";
        if (ws != waitQueue.size) return "waitQueue.size " + waitQueue.size + " but " + ws + " waiters";
        if (pk != parkedCount) return "parkedCount " + parkedCount + " but " + pk + " parked";
        if (ae != atEntryCount || pae != parkedAtEntry) return "entry counts off";
        for (TaskClassState c : classes) {
            if (c.running != running.getOrDefault(c, 0)) return "class " + c + " running " + c.running;
        }
        if (runQueue.size < limit && firstEligibleWaiter() != null) return "an eligible waiter while a slot is free";
        return null;
    }
}
