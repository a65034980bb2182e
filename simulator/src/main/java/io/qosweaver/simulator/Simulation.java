package io.qosweaver.simulator;

import io.qosweaver.platform.JavaPriorities;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.platform.ThreadCpuClock;
import io.qosweaver.scheduler.core.Effects;
import io.qosweaver.scheduler.core.StateMachine;
import io.qosweaver.scheduler.core.TaskClassState;
import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.Parameters;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.Ticker;
import io.qosweaver.simulator.stats.Result;
import io.qosweaver.simulator.stats.Workload;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One version of the workload on one CPU model: the scheduler's {@link StateMachine} with the
 * version's policy (none for "original"), simulated threads, a virtual clock in microseconds and
 * processor sharing by CFS weight. The simulation plays the part of the runtime's lock-and-park
 * layer: a flagged thread that reaches a control point (or waits at its scope's entry) asks the
 * machine to begin its wait and stops being runnable until the machine wakes it; timed waits,
 * pacing and the policy's tick follow the same rules as in {@code Controller}.
 *
 * <p>The workload's additions (paper 4.4): the collection passes progress points; a lock that a
 * chart holds for its first {@code lockUs} of CPU and the collection takes halfway for as long (a
 * thread that finds it taken blocks, FIFO, until its holder lets it go); middle-importance clients
 * whose requests wait at entry when the policy admits them so. Policies without a middle level see
 * the middle class as not observed, as the paper's importance policy ignored the up-to-date page.
 *
 * <p>Deterministic: no randomness; the clients' first requests are staggered evenly.
 */
final class Simulation implements Effects, NativeThreads, ThreadCpuClock {
    private static final double EPS = 1e-6;

    private final String version;
    private final Workload w;
    private final CpuModel cpu;
    private final StateMachine machine;
    private final TaskClassState highClass, lowClass, middleClass;
    private final long tickMicros, waitTimeoutMicros;
    private final List<SimThread> threads = new ArrayList<>();
    private final Map<ThreadState, SimThread> byState = new IdentityHashMap<>();
    private final Map<Thread, SimThread> byThread = new IdentityHashMap<>();
    private final Set<String> warnings = new LinkedHashSet<>();
    private double now; // microseconds
    private int acting; // the thread on whose behalf the policy is called (NativeThreads)

    // measurements
    private int periods, misses, lowDone, highDone, episodes, never, middleDone, middleDoneDuringHigh;
    private double highSum, highMax, suspSum, lowSuspended, episodeStart = -1;
    private double highTime, lockWaitMax, lowLimitIntegral;

    // the lock (workload's lockUs > 0): its holder and the threads blocked on it, FIFO
    private SimThread lockOwner;
    private final ArrayDeque<SimThread> lockQueue = new ArrayDeque<>();

    private enum Kind { HIGH, LOW, MIDDLE }

    /** A simulated thread: its work, its record in the state machine, its CPU share. */
    private static final class SimThread {
        final int tid;
        final Kind kind;
        final boolean high;
        final Thread thread;
        final ThreadState state;
        boolean active; // inside its scope (high: a collection is running)
        boolean waiting; // parked in the scheduler
        boolean blocked; // waiting for the lock
        /** The lock in this request: 0 not yet taken, 1 held, 2 done with it. */
        int lockPhase;
        double remaining, toControlPoint, toProgress, rate, cpuMicros;
        double start, waitingSince, waitDeadline = -1, pacedUntil, blockedSince;
        int nativeNice;

        SimThread(int tid, Kind kind) {
            this.tid = tid;
            this.kind = kind;
            this.high = kind == Kind.HIGH;
            this.thread = new Thread("sim-" + tid); // never started: a holder of its Java priority
            this.state = new ThreadState(thread);
        }
    }

    /**
     * @param factory the version's policy, or null for "original"
     * @param parameters the policy's parameters (the policy file's {@code policy:} keys)
     */
    Simulation(String version, Policy.Factory factory, Map<String, String> parameters, Workload w, CpuModel cpu) {
        this.version = cpu.label() == null ? version : version + "[" + cpu.label() + "]";
        this.w = w;
        this.cpu = cpu;
        for (int i = 0; i <= w.lowClients() + w.middleClients(); i++) {
            SimThread t = new SimThread(i + 1, i == 0 ? Kind.HIGH : i <= w.lowClients() ? Kind.LOW : Kind.MIDDLE);
            threads.add(t);
            byState.put(t.state, t);
            byThread.put(t.thread, t);
        }
        if (factory == null) {
            machine = null;
            highClass = lowClass = middleClass = null;
            tickMicros = waitTimeoutMicros = 0;
            return;
        }
        Ticker ticker = () -> Math.round(now * 1000);
        Policy policy = factory.create(new PolicyContext(new Parameters(version, parameters), ticker, this,
                () -> new JavaPriorities(cpu.javaPrioritiesReachOs(), "simulated: " + cpu.description()), this,
                warnings::add, w.cores()));
        machine = StateMachine.create(policy, ticker, List.of(
                new TaskClassSpec("collect", Map.of("importance", "high")),
                new TaskClassSpec("chart", Map.of("importance", "low")),
                new TaskClassSpec("levels", Map.of("importance", middleLevel(policy)))), this);
        highClass = machine.classOrUnknown("collect");
        lowClass = machine.classOrUnknown("chart");
        middleClass = machine.classOrUnknown("levels");
        tickMicros = policy.tickNanos() / 1000;
        waitTimeoutMicros = policy.waitTimeoutNanos() / 1000;
    }

    /** "middle" where the policy has such a level, else "normal" (not observed). */
    private static String middleLevel(Policy policy) {
        try {
            policy.rank(new TaskClassSpec("levels", Map.of("importance", "middle")));
            return "middle";
        } catch (RuntimeException e) {
            return "normal";
        }
    }

    Result run() {
        double end = w.seconds() * 1_000_000.0, period = w.periodMs() * 1000.0;
        double nextArrival = period / 2; // let the clients reach a steady state first
        double nextTick = tickMicros > 0 ? tickMicros : Double.MAX_VALUE;
        for (int i = 1; i <= w.lowClients(); i++) {
            SimThread t = threads.get(i);
            startLow(t);
            t.remaining = w.lowCostMs() * 1000.0 * i / w.lowClients(); // stagger
        }
        for (int i = w.lowClients() + 1; i < threads.size(); i++) {
            SimThread t = threads.get(i);
            startMiddle(t);
            t.remaining = w.middleCostUs() * (double) (i - w.lowClients()) / w.middleClients();
        }
        SimThread h = threads.get(0);
        while (now < end) {
            allocate();
            double next = Math.min(Math.min(nextArrival, nextTick), end);
            for (SimThread t : threads) {
                if (runnable(t) && t.rate > 0) {
                    next = Math.min(next, now + nextEvent(t) / t.rate);
                }
                if (t.waiting && t.waitDeadline >= 0) {
                    next = Math.min(next, t.waitDeadline);
                }
                if (t.active && !t.waiting && t.pacedUntil > now) {
                    next = Math.min(next, t.pacedUntil);
                }
            }
            double dt = Math.max(next - now, 0);
            for (SimThread t : threads) {
                if (runnable(t) && t.rate > 0) {
                    t.remaining -= t.rate * dt;
                    t.toControlPoint -= t.rate * dt;
                    t.toProgress -= t.rate * dt;
                    t.cpuMicros += t.rate * dt;
                }
            }
            if (h.active) {
                highTime += dt;
            } else {
                lowLimitIntegral += lowLimitNow() * dt;
            }
            now += dt;
            if (now >= nextTick - EPS) {
                // As the scheduler's tick thread: the next tick when the policy asks for it (MTR-LS:
                // when a turn is expected to end), its period otherwise.
                nextTick += machine.tick(Math.round(now * 1000)) / 1000.0;
            }
            if (now >= nextArrival - EPS && now < end) {
                periods++;
                if (h.active) {
                    misses++; // still collecting the previous period: this one is lost
                } else {
                    h.active = true;
                    h.remaining = w.highCostMs() * 1000.0;
                    h.toProgress = progressInterval();
                    h.lockPhase = 0;
                    h.start = now;
                    role(h, highClass);
                    episodeStart = now;
                    checkEpisode();
                }
                nextArrival += period;
            }
            if (runnable(h) && h.active) {
                if (h.toProgress <= EPS && w.progressPoints() > 0) {
                    h.toProgress = progressInterval();
                    if (machine != null) {
                        machine.progressPoint(h.state);
                    }
                }
                lockEvents(h);
            }
            if (h.active && h.remaining <= EPS) {
                h.active = false;
                double took = now - h.start;
                highDone++;
                highSum += took;
                highMax = Math.max(highMax, took);
                if (took > period + EPS) {
                    misses++;
                }
                if (episodeStart >= 0) {
                    episodes++;
                    never++;
                    episodeStart = -1;
                }
                unlock(h);
                role(h, null);
            }
            for (int i = 1; i < threads.size(); i++) {
                SimThread t = threads.get(i);
                if (t.waiting && t.waitDeadline >= 0 && now >= t.waitDeadline - EPS) {
                    waitExpired(t);
                }
                if (!runnable(t)) {
                    continue;
                }
                if (t.kind == Kind.MIDDLE) {
                    if (t.remaining <= EPS) {
                        middleDone++;
                        if (h.active) {
                            middleDoneDuringHigh++;
                        }
                        role(t, null);
                        t.active = false;
                        startMiddle(t);
                    }
                    continue;
                }
                lockEvents(t);
                if (!runnable(t)) {
                    continue; // blocked on the lock
                }
                if (t.remaining <= EPS) {
                    lowDone++;
                    unlock(t);
                    role(t, null);
                    t.active = false;
                    startLow(t);
                } else if (t.toControlPoint <= EPS) {
                    t.toControlPoint = w.controlPointUs();
                    controlPoint(t);
                }
            }
            checkEpisode();
        }
        for (SimThread t : threads) {
            if (t.waiting && t.kind == Kind.LOW) {
                lowSuspended += now - t.waitingSince;
            }
        }
        if (h.blocked) {
            lockWaitMax = Math.max(lockWaitMax, now - h.blockedSince);
        }
        double outside = now - highTime;
        return new Result(version, periods, misses, highDone == 0 ? 0 : highSum / highDone / 1000.0,
                highMax / 1000.0, lowDone / (now / 1_000_000.0),
                episodes == never ? 0 : suspSum / (episodes - never) / 1000.0, episodes, never,
                lowSuspended / 1_000_000.0, new ArrayList<>(warnings), highDone, lockWaitMax / 1000.0,
                outside <= 0 ? 0 : (middleDone - middleDoneDuringHigh) / (outside / 1_000_000.0),
                highTime <= 0 ? 0 : middleDoneDuringHigh / (highTime / 1_000_000.0),
                outside <= 0 ? 0 : lowLimitIntegral / outside);
    }

    private boolean runnable(SimThread t) {
        return t.active && !t.waiting && !t.blocked && t.pacedUntil <= now + EPS;
    }

    /** CPU until the thread's next event: its end, a control or progress point, the lock. */
    private double nextEvent(SimThread t) {
        double d = t.remaining;
        if (t.kind == Kind.LOW) {
            d = Math.min(d, t.toControlPoint);
        }
        if (t.high && w.progressPoints() > 0) {
            d = Math.min(d, t.toProgress);
        }
        if (w.lockUs() > 0 && t.kind != Kind.MIDDLE) {
            if (t.lockPhase == 0) {
                d = Math.min(d, Math.max(0, t.remaining - lockTakenAt(t)));
            } else if (t.lockPhase == 1 && lockOwner == t) {
                d = Math.min(d, Math.max(0, t.remaining - (lockTakenAt(t) - w.lockUs())));
            }
        }
        return d;
    }

    /** The remaining CPU at which the thread takes the lock: a chart at its start, a collection halfway. */
    private double lockTakenAt(SimThread t) {
        return t.high ? w.highCostMs() * 500.0 : w.lowCostMs() * 1000.0;
    }

    private double progressInterval() {
        return w.progressPoints() == 0 ? Double.MAX_VALUE : w.highCostMs() * 1000.0 / w.progressPoints();
    }

    /** Takes the lock when the thread's work reaches it (blocking if it is held), and lets it go lockUs later. */
    private void lockEvents(SimThread t) {
        if (w.lockUs() == 0) {
            return;
        }
        if (t.lockPhase == 0 && t.remaining <= lockTakenAt(t) + EPS) {
            t.lockPhase = 1;
            if (lockOwner == null) {
                lockOwner = t;
            } else {
                t.blocked = true;
                t.blockedSince = now;
                lockQueue.add(t);
            }
        } else if (t.lockPhase == 1 && lockOwner == t && t.remaining <= lockTakenAt(t) - w.lockUs() + EPS) {
            unlock(t);
        }
    }

    /** Lets the lock go if the thread holds it; the first thread blocked on it takes it. */
    private void unlock(SimThread t) {
        if (lockOwner != t) {
            return;
        }
        t.lockPhase = 2;
        lockOwner = lockQueue.poll();
        if (lockOwner != null) {
            lockOwner.blocked = false;
            if (lockOwner.high) {
                lockWaitMax = Math.max(lockWaitMax, now - lockOwner.blockedSince);
            }
        }
    }

    /** The limit on running low threads now: the machine's limit, the low class's cap, the clients. */
    private double lowLimitNow() {
        if (machine == null) {
            return w.lowClients();
        }
        return Math.min(w.lowClients(), Math.min(machine.limit(), machine.cap(lowClass)));
    }

    private void startLow(SimThread t) {
        t.active = true;
        t.remaining = w.lowCostMs() * 1000.0;
        t.toControlPoint = w.controlPointUs();
        t.lockPhase = 0;
        role(t, lowClass);
        if (machine != null && t.state.waitsAtEntry() && t.state.yieldFlag()) {
            beginWait(t, false); // admission: waits before its body runs
        }
    }

    private void startMiddle(SimThread t) {
        t.active = true;
        t.remaining = w.middleCostUs();
        role(t, middleClass);
        if (machine != null && t.state.waitsAtEntry() && t.state.yieldFlag()) {
            beginWait(t, false); // the adaptive policy's middle threads wait at entry
        }
    }

    /** The thread's role changes, as its scope's entry or exit would change it. */
    private void role(SimThread t, TaskClassState to) {
        if (machine == null) {
            return;
        }
        acting = t.tid;
        try {
            machine.changeRole(t.state, to, Policy.Cause.SCOPE);
            machine.afterScopeChange(t.state, t.state.slot()); // as the scheduler does once its lock is released
        } finally {
            acting = 0;
        }
    }

    /** What the runtime's control point does with a flagged thread. */
    private void controlPoint(SimThread t) {
        if (machine == null || !t.state.yieldFlag() || !machine.mayPark(t.state)) {
            return;
        }
        beginWait(t, waitTimeoutMicros > 0);
    }

    private void beginWait(SimThread t, boolean timed) {
        if (machine.beginWait(t.state)) {
            t.waiting = true;
            t.waitingSince = now;
            t.waitDeadline = timed ? now + waitTimeoutMicros : -1;
        }
    }

    private void waitExpired(SimThread t) {
        if (machine.waitExpired(t.state)) {
            t.waitDeadline = now + waitTimeoutMicros;
        } else {
            stopWaiting(t); // runs on, flagged
        }
    }

    private void stopWaiting(SimThread t) {
        t.waiting = false;
        t.waitDeadline = -1;
        if (t.kind == Kind.LOW) {
            lowSuspended += now - t.waitingSince;
        }
    }

    /** The suspension-time episode: until at most one low thread executes. */
    private void checkEpisode() {
        if (episodeStart < 0) {
            return;
        }
        int executing = 0;
        for (int i = 1; i <= w.lowClients(); i++) {
            if (threads.get(i).active && !threads.get(i).waiting) {
                executing++;
            }
        }
        if (executing <= 1) {
            episodes++;
            suspSum += now - episodeStart;
            episodeStart = -1;
        }
    }

    /** Weighted processor sharing, at most one core per thread (water-filling). */
    private void allocate() {
        SimThread[] r = threads.stream().filter(this::runnable).toArray(SimThread[]::new);
        for (SimThread t : threads) {
            t.rate = 0;
        }
        if (r.length <= w.cores()) {
            for (SimThread t : r) {
                t.rate = 1;
            }
            return;
        }
        int[] weight = new int[threads.size() + 1];
        double cores = w.cores(), total = 0;
        for (SimThread t : r) {
            weight[t.tid] = CpuModel.weight(cpu.nice(t.nativeNice, t.thread.getPriority()));
            total += weight[t.tid];
        }
        Arrays.sort(r, (a, b) -> Integer.compare(weight[b.tid], weight[a.tid]));
        int i = 0;
        for (; i < r.length; i++) {
            if (cores * weight[r[i].tid] / total < 1) {
                break;
            }
            r[i].rate = 1;
            cores -= 1;
            total -= weight[r[i].tid];
        }
        for (; i < r.length; i++) {
            r[i].rate = cores * weight[r[i].tid] / total;
        }
    }

    // ---------------------------------------------------------------- Effects

    @Override
    public void pendingChanged(int delta) {
        // control points are simulated one by one: nothing to publish
    }

    @Override
    public void wake(ThreadState s) {
        SimThread t = byState.get(s);
        if (t.waiting) {
            stopWaiting(t);
        }
        long paced = s.takeResumeAt();
        t.pacedUntil = paced == 0 ? 0 : paced / 1000.0;
    }

    // ---------------------------------------------------------------- NativeThreads (a model)

    @Override public boolean available() { return true; }
    @Override public String unavailableReason() { return null; }
    /** The acting simulated thread; outside a callback (a policy's probe) an id of nobody. */
    @Override public int currentNativeThreadId() { return acting > 0 ? acting : Integer.MAX_VALUE; }

    @Override
    public void setNice(int tid, int nice) {
        if (tid >= 1 && tid <= threads.size()) {
            threads.get(tid - 1).nativeNice = nice;
        }
    }

    @Override
    public int getNice(int tid) {
        return tid >= 1 && tid <= threads.size() ? threads.get(tid - 1).nativeNice : 0;
    }

    // ---------------------------------------------------------------- ThreadCpuClock (a model)

    @Override
    public long cpuNanos(Thread thread) {
        SimThread t = byThread.get(thread);
        return t == null ? -1 : Math.round(t.cpuMicros * 1000);
    }
}
