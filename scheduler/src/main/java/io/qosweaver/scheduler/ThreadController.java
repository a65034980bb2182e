package io.qosweaver.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.atomic.LongAdder;

/**
 * The mechanism: the paper's ThreadController (3.1, 4.2) done properly. It knows no policy; it
 * keeps each thread's role, a run queue bounded by a limit and a wait queue of threads whose yield
 * flag is set, and parks and unparks threads with {@link LockSupport}.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>One lock per controller, held only for O(1) queue moves and policy callbacks (plus an
 *       O(members) scan for dead threads at most every {@link #REAP_INTERVAL_NANOS}); never held
 *       while parking. A {@link ReentrantLock} rather than a monitor, so that virtual threads on
 *       JDK 21+ never pin on it.
 *   <li>Invariant (under the lock): {@code t.yield <=> t.queue == WAIT}; {@code t.parked =>
 *       t.queue == WAIT}; {@code t.atEntry => t.yield}; {@code runSize <= limit} after every
 *       public operation except after {@link #setLimitWithoutPreemption}, where the runners over
 *       the limit keep their slots and {@code runSize} only decreases until it is within the
 *       limit; {@link #pending} equals the number of flagged threads not waiting at entry, over
 *       all controllers.
 *   <li>Waiting at entry ({@link #admitAtEntry}, admission control): the thread parks inside
 *       {@link #enter} before its scope's body runs, with the same bounded park as at a control
 *       point. It is not counted in {@link #pending}: it never reaches a control point while
 *       flagged, so counting it would only send every other thread's control points down the
 *       slow path for nothing.
 *   <li>The control point's fast path reads only {@link #pending}: when it is 0 no thread anywhere
 *       must yield, so returning at once is correct. A thread flagged concurrently with that read
 *       simply yields at its following control point (the paper's semantics: "at its next control
 *       point").
 *   <li>No lost wake-up can leave a thread parked: a parked thread re-checks its (volatile) flag
 *       at least every {@link #PARK_NANOS}, and every path that clears a flag also unparks.
 *   <li>Interrupts: a parked thread that is interrupted leaves the wait queue, keeps its interrupt
 *       status and goes on uncontrolled until its role changes (parking again would spin, since
 *       park returns at once while the status is set).
 *   <li>Thread death: a thread that dies inside a scope keeps its role; the next decision (at most
 *       every {@link #REAP_INTERVAL_NANOS}, also driven by parked threads' periodic wake-ups and by
 *       {@link Scheduler#stats()}) finds it not alive and reports its role change to the policy
 *       as if it had left, freeing its slot.
 *   <li>Shutdown (uninstall or replacement) clears every flag, unparks every thread and detaches
 *       every role; scopes opened under it become inert and are purged at the thread's next enter.
 * </ul>
 */
final class ThreadController implements Control {
    /** Upper bound of one park; the defence against lost wake-ups and the reaping cadence. */
    static final long PARK_NANOS = Long.getLong("qosweaver.parkNanos", 10_000_000L);
    static final long REAP_INTERVAL_NANOS = 100_000_000L;

    /**
     * Flagged threads over all controllers, plus {@link ControlPointIntervals#MEASURING} while
     * intervals are measured; the only word the fast path reads.
     */
    static volatile int pending;
    private static final VarHandle PENDING;

    static {
        try {
            PENDING = MethodHandles.lookup().findStaticVarHandle(ThreadController.class, "pending", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static void addPending(int delta) {
        PENDING.getAndAdd(delta);
    }

    final Policy policy;
    final Ticker ticker;
    final Map<String, TaskClass> byName;
    final List<TaskClass> classes;
    /** Placeholder pushed for names this scheduler does not know, to keep enter/exit balanced. */
    final TaskClass unknown;
    volatile boolean closed;

    private final ReentrantLock lock = new ReentrantLock();
    private ManagedThread runHead, runTail, waitHead, waitTail, memHead;
    private int runSize, waitSize, parkedCount;
    /** Waiters flagged at entry, and those of them parked (both within waitSize / parkedCount). */
    private int atEntryCount, parkedAtEntry;
    private int limit = UNLIMITED;
    private long nextReap;

    // limit-convergence episode (see SchedulerStats#suspensionTimeCount)
    private boolean episodeOpen;
    private long episodeStart;
    final SuspensionTimes suspensionTimes = new SuspensionTimes(1024);
    private final RunningTimeline timeline = new RunningTimeline(RunningTimeline.DEFAULT_CAPACITY);
    private final long anchorTicker;
    private final long anchorEpochNanos;

    final LongAdder yields = new LongAdder();
    final LongAdder suspensions = new LongAdder();
    final LongAdder resumes = new LongAdder();
    final LongAdder entryWaits = new LongAdder();
    final LongAdder entryWaitNanos = new LongAdder();

    private ThreadController(Policy policy, Ticker ticker, List<SchedulerConfig.TaskClassSpec> specs, int[] ranks) {
        this.policy = policy;
        this.ticker = ticker;
        Map<String, TaskClass> m = new LinkedHashMap<>();
        for (int i = 0; i < specs.size(); i++) {
            SchedulerConfig.TaskClassSpec s = specs.get(i);
            Map<String, String> attrs = s.attributes() == null ? Map.of() : Map.copyOf(s.attributes());
            m.put(s.name(), new TaskClass(s.name(), attrs, ranks[i], i, this));
        }
        this.classes = List.copyOf(m.values());
        this.byName = Map.copyOf(m);
        this.unknown = new TaskClass("<unknown>", Map.of(), 0, -1, this);
        this.anchorTicker = ticker.nanos();
        this.anchorEpochNanos = System.currentTimeMillis() * 1_000_000L;
    }

    /** Validates everything and builds a controller; changes nothing global. */
    static ThreadController create(SchedulerConfig config, Ticker ticker) {
        if (config == null || config.policy() == null) {
            throw new PolicyConfigException("policy",
                    "no policy given; add a policy section naming one of " + Policies.names());
        }
        String name = config.policy().name();
        if (name == null || name.isBlank()) {
            throw new PolicyConfigException("policy.name",
                    "the policy has no name; set policy.name to one of " + Policies.names());
        }
        Policy.Factory factory = Policies.get(name.trim());
        if (factory == null) {
            throw new PolicyConfigException("policy.name",
                    "unknown policy '" + name + "'; use one of " + Policies.names());
        }
        Map<String, String> params = config.policy().parameters() == null
                ? Map.of() : Collections.unmodifiableMap(new HashMap<>(config.policy().parameters()));
        Policy policy = factory.create(params);
        List<SchedulerConfig.TaskClassSpec> specs = config.taskClasses() == null
                ? List.of() : new ArrayList<>(config.taskClasses());
        Map<String, Integer> seen = new HashMap<>();
        int[] ranks = new int[specs.size()];
        for (int i = 0; i < specs.size(); i++) {
            SchedulerConfig.TaskClassSpec s = specs.get(i);
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
        return new ThreadController(policy, ticker, specs, ranks);
    }

    // ------------------------------------------------------------------ scopes (owner thread)

    void enter(ManagedThread t, String name) {
        TaskClass c = name == null ? null : byName.get(name);
        if (c == null) {
            c = unknown;
        }
        purgeStale(t);
        if (t.depth == t.stack.length) {
            if (t.depth >= ManagedThread.MAX_DEPTH) {
                t.overflow++;
                return;
            }
            t.stack = java.util.Arrays.copyOf(t.stack, t.depth * 2);
        }
        t.stack[t.depth++] = c;
        if (Jfr.enterEnabled()) {
            Jfr.enter(c.name(), t.depth);
        }
        moveRole(t, computeRole(t));
        if (t.yield && t.role == c && c.observed() && t.atEntry) {
            await(t); // admission control: wait before the scope's body starts
        }
    }

    /** Leaves the innermost scope; tolerant of unbalanced calls (no scope: no-op). */
    static void exit(ManagedThread t) {
        if (t.overflow > 0) {
            t.overflow--;
            return;
        }
        if (t.depth == 0) {
            return;
        }
        t.stack[--t.depth] = null;
        moveRole(t, computeRole(t));
    }

    /** Drops scopes of closed (replaced or uninstalled) controllers; they were already detached. */
    private static void purgeStale(ManagedThread t) {
        int w = 0;
        for (int r = 0; r < t.depth; r++) {
            TaskClass c = t.stack[r];
            if (!c.controller.closed) {
                t.stack[w++] = c;
            }
        }
        for (int i = w; i < t.depth; i++) {
            t.stack[i] = null;
        }
        if (w < t.depth) {
            t.overflow = 0;
        }
        t.depth = w;
    }

    /** The role: the open scope of highest rank, ties to the innermost; unknown/stale ignored. */
    static TaskClass computeRole(ManagedThread t) {
        TaskClass best = null;
        for (int i = 0; i < t.depth; i++) {
            TaskClass c = t.stack[i];
            if (c == c.controller.unknown || c.controller.closed) {
                continue;
            }
            if (best == null || c.rank() >= best.rank()) {
                best = c;
            }
        }
        return best;
    }

    static void moveRole(ManagedThread t, TaskClass to) {
        TaskClass from = t.role;
        if (from == to) {
            return;
        }
        ControlPointIntervals.endSpan(t);
        ThreadController fc = from == null ? null : from.controller;
        ThreadController tc = to == null ? null : to.controller;
        if (fc != null && fc == tc) {
            fc.change(t, from, to);
        } else {
            if (fc != null) {
                fc.change(t, from, null);
            }
            if (tc != null) {
                tc.change(t, null, to);
            }
        }
    }

    private void change(ManagedThread t, TaskClass from, TaskClass to) {
        boolean observed = (from != null && from.observed()) || (to != null && to.observed());
        if (!observed) {
            // Unobserved classes: counters only, no lock (the policy never hears of them).
            if (from != null) {
                from.members.decrementAndGet();
            }
            if (to != null) {
                to.members.incrementAndGet();
            }
            t.role = to;
            return;
        }
        lock.lock();
        try {
            if (closed) {
                t.role = null; // shutdown already detached this thread
                return;
            }
            maybeReapLocked();
            from = t.role; // authoritative under the lock
            if (from != null) {
                from.members.decrementAndGet();
                if (from.observed()) {
                    unlinkMember(t);
                }
                note(from);
            }
            t.role = to;
            if (to != null) {
                to.members.incrementAndGet();
                if (to.observed()) {
                    linkMember(t);
                }
                note(to);
            }
            TaskClass of = from != null && from.observed() ? from : null;
            TaskClass ot = to != null && to.observed() ? to : null;
            if (of != ot) {
                try {
                    policy.onRoleChange(this, t, of, ot);
                } catch (Throwable e) {
                    release(t); // fail open: never leave a thread flagged because a policy broke
                    throw e;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ control point (owner)

    /** Parks the flagged owner thread until released, interrupted or the controller closes. */
    void await(ManagedThread t) {
        TaskClass cls;
        boolean atEntry;
        lock.lock();
        try {
            if (closed || !t.yield || t.queue != ManagedThread.WAIT) {
                return;
            }
            cls = t.role;
            atEntry = t.atEntry;
            if (atEntry) {
                entryWaits.increment();
                parkedAtEntry++;
            }
            t.parked = true;
            parkedCount++;
            if (cls != null) {
                cls.parked.incrementAndGet();
                note(cls);
            }
            suspensions.increment();
            checkConvergence();
        } finally {
            lock.unlock();
        }
        long start = ticker.nanos();
        boolean interrupted = false;
        try {
            while (t.yield) {
                if (Thread.currentThread().isInterrupted()) {
                    interrupted = true;
                    break;
                }
                LockSupport.parkNanos(this, PARK_NANOS);
                maybeReap();
            }
        } finally {
            lock.lock();
            try {
                if (t.parked) {
                    unmarkParked(t, t.atEntry); // interrupted, or an error: we leave on our own
                }
                if (t.yield && !closed) {
                    // Leaving early: give up the place in the wait queue (paper: "yield" returns).
                    unlinkQueue(t);
                    clearYield(t);
                    checkConvergence();
                }
            } finally {
                lock.unlock();
            }
            if (atEntry) {
                entryWaitNanos.add(ticker.nanos() - start);
            }
            if (Jfr.suspendEnabled()) {
                Jfr.suspend(cls == null ? null : cls.name(), start, interrupted);
            }
        }
    }

    // ------------------------------------------------------------------ Control (lock held)

    @Override
    public void admit(ManagedThread t) {
        if (t.queue != ManagedThread.NONE) {
            return;
        }
        if (runSize < limit) {
            linkRun(t);
        } else {
            linkWait(t);
            setYield(t);
        }
        checkConvergence();
    }

    @Override
    public void admitAtEntry(ManagedThread t) {
        if (t.queue != ManagedThread.NONE) {
            return;
        }
        if (runSize < limit) {
            linkRun(t);
        } else {
            linkWait(t);
            t.atEntry = true; // before setYield: not counted in pending
            atEntryCount++;
            setYield(t);
        }
        checkConvergence();
    }

    @Override
    public void setLimitWithoutPreemption(int permits) {
        if (permits < 0) {
            throw new IllegalArgumentException("limit must be >= 0 permits: " + permits);
        }
        int old = limit;
        limit = permits;
        promote();
        long now = ticker.nanos();
        if (permits < old && !episodeOpen) {
            episodeOpen = true;
            episodeStart = now;
        }
        checkConvergence();
        if (permits > old && episodeOpen) {
            suspensionTimes.record(now - episodeStart);
            episodeOpen = false;
        }
        if (Jfr.limitEnabled()) {
            Jfr.limit(policy.name(), old, permits, runSize, waitSize);
        }
    }

    @Override
    public void release(ManagedThread t) {
        byte q = t.queue;
        if (q == ManagedThread.NONE) {
            return;
        }
        unlinkQueue(t);
        if (q == ManagedThread.WAIT) {
            clearYield(t);
        } else {
            promote();
        }
        checkConvergence();
    }

    @Override
    public void setLimit(int permits) {
        if (permits < 0) {
            throw new IllegalArgumentException("limit must be >= 0 permits: " + permits);
        }
        int old = limit;
        limit = permits;
        // Demote the most recently admitted runners: the oldest are likely closest to done.
        while (runSize > limit) {
            ManagedThread v = runTail;
            unlinkQueue(v);
            linkWait(v);
            setYield(v);
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
        if (Jfr.limitEnabled()) {
            Jfr.limit(policy.name(), old, permits, runSize, waitSize);
        }
    }

    @Override
    public int limit() {
        return limit;
    }

    @Override
    public int runQueueSize() {
        return runSize;
    }

    @Override
    public int waitQueueSize() {
        return waitSize;
    }

    @Override
    public long nanos() {
        return ticker.nanos();
    }

    /**
     * Controlled threads executing their scope's body: runners plus flagged threads not yet parked
     * at a control point (threads waiting at entry never started); what the suspension-time
     * episode waits to bring within the limit.
     */
    int executingControlledLocked() {
        return runSize + (waitSize - atEntryCount) - (parkedCount - parkedAtEntry);
    }

    private void promote() {
        while (runSize < limit && waitHead != null) {
            ManagedThread w = waitHead;
            unlinkQueue(w);
            linkRun(w);
            clearYield(w);
        }
    }

    private void checkConvergence() {
        if (episodeOpen && executingControlledLocked() <= limit) {
            suspensionTimes.record(ticker.nanos() - episodeStart);
            episodeOpen = false;
        }
    }

    private void setYield(ManagedThread t) {
        if (!t.yield) {
            t.yield = true;
            if (!t.atEntry) {
                PENDING.getAndAdd(1);
            }
            yields.increment();
            if (Jfr.yieldEnabled()) {
                Jfr.yield(t.thread.getName(), t.role == null ? null : t.role.name());
            }
        }
    }

    private void clearYield(ManagedThread t) {
        boolean entry = t.atEntry;
        if (t.yield) {
            t.yield = false;
            if (!entry) {
                PENDING.getAndAdd(-1);
            }
        }
        if (entry) {
            t.atEntry = false;
            atEntryCount--;
        }
        if (t.parked) {
            unmarkParked(t, entry);
            LockSupport.unpark(t.thread);
        }
    }

    private void unmarkParked(ManagedThread t, boolean atEntry) {
        t.parked = false;
        parkedCount--;
        if (atEntry) {
            parkedAtEntry--;
        }
        TaskClass r = t.role;
        if (r != null) {
            r.parked.decrementAndGet();
            note(r);
        }
        resumes.increment();
        if (Jfr.resumeEnabled()) {
            Jfr.resume(t.thread.getName(), r == null ? null : r.name());
        }
    }

    // ------------------------------------------------------------------ dead threads

    private void maybeReap() {
        if (ticker.nanos() - nextReap < 0 || closed) {
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
        reapLocked();
    }

    /** Reports every dead member to the policy as having left its scope. */
    void reapLocked() {
        for (ManagedThread m = memHead, next; m != null; m = next) {
            next = m.mNext;
            if (!m.thread.isAlive()) {
                TaskClass from = m.role;
                unlinkMember(m);
                m.role = null;
                if (from != null) {
                    from.members.decrementAndGet();
                    note(from);
                }
                try {
                    policy.onRoleChange(this, m, from, null);
                } finally {
                    release(m);
                }
            }
        }
    }

    // ------------------------------------------------------------------ shutdown

    /** Releases everyone and detaches every role; idempotent. */
    void shutdown() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            while (memHead != null) {
                ManagedThread m = memHead;
                if (m.role != null && m.role.observed()) {
                    try {
                        policy.onDetach(m, m.role);
                    } catch (Throwable e) {
                        InternalErrors.report(e); // detaching the rest matters more
                    }
                }
                unlinkMember(m);
                if (m.queue != ManagedThread.NONE) {
                    unlinkQueue(m);
                }
                clearYield(m);
                if (m.role != null) {
                    m.role.members.decrementAndGet();
                    note(m.role);
                }
                m.role = null;
            }
            limit = UNLIMITED;
            if (episodeOpen) {
                suspensionTimes.record(ticker.nanos() - episodeStart);
                episodeOpen = false;
            }
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ timeline

    /** Records {@code c}'s counts on the timeline (lock held); unobserved classes are not tracked. */
    private void note(TaskClass c) {
        if (c.observed()) {
            timeline.record(ticker.nanos(), c.index, c.members.get(), c.parked.get());
        }
    }

    Timeline timeline(long since) {
        lock.lock();
        try {
            return timeline.since(since, classes, anchorTicker, anchorEpochNanos);
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ stats

    SchedulerStats stats(long controlPoints, long internalErrors) {
        lock.lock();
        try {
            if (!closed) {
                maybeReapLocked();
            }
            Map<String, Integer> running = new LinkedHashMap<>();
            for (TaskClass c : classes) {
                running.put(c.name(), Math.max(0, c.members.get() - c.parked.get()));
            }
            long[] t = suspensionTimes.snapshot();
            return new SchedulerStats(policy.name(), controlPoints, yields.sum(), suspensions.sum(),
                    resumes.sum(), internalErrors, Collections.unmodifiableMap(running), parkedCount,
                    limit == UNLIMITED ? -1 : limit, runSize, waitSize,
                    t[0], t[1], t[2], t[3], t[4],
                    entryWaits.sum(), entryWaitNanos.sum(), policy.priorityReport(),
                    ControlPointIntervals.on, ControlPointIntervals.snapshot(classes));
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ intrusive lists

    private void linkRun(ManagedThread t) {
        t.queue = ManagedThread.RUN;
        t.qNext = null;
        t.qPrev = runTail;
        if (runTail == null) {
            runHead = t;
        } else {
            runTail.qNext = t;
        }
        runTail = t;
        runSize++;
    }

    private void linkWait(ManagedThread t) {
        t.queue = ManagedThread.WAIT;
        t.qNext = null;
        t.qPrev = waitTail;
        if (waitTail == null) {
            waitHead = t;
        } else {
            waitTail.qNext = t;
        }
        waitTail = t;
        waitSize++;
    }

    private void unlinkQueue(ManagedThread t) {
        ManagedThread p = t.qPrev, n = t.qNext;
        if (t.queue == ManagedThread.RUN) {
            if (p == null) runHead = n; else p.qNext = n;
            if (n == null) runTail = p; else n.qPrev = p;
            runSize--;
        } else if (t.queue == ManagedThread.WAIT) {
            if (p == null) waitHead = n; else p.qNext = n;
            if (n == null) waitTail = p; else n.qPrev = p;
            waitSize--;
        }
        t.qPrev = t.qNext = null;
        t.queue = ManagedThread.NONE;
    }

    private void linkMember(ManagedThread t) {
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

    private void unlinkMember(ManagedThread t) {
        if (!t.member) {
            return;
        }
        ManagedThread p = t.mPrev, n = t.mNext;
        if (p == null) memHead = n; else p.mNext = n;
        if (n != null) n.mPrev = p;
        t.mPrev = t.mNext = null;
        t.member = false;
    }

    /** Test hook: run an action under the lock (the lock is reentrant). */
    <T> T locked(java.util.function.Supplier<T> action) {
        lock.lock();
        try {
            return action.get();
        } finally {
            lock.unlock();
        }
    }
}
