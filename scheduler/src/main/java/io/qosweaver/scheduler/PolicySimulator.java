package io.qosweaver.scheduler;

import io.qosweaver.scheduler.spi.NativeThreads;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The policy simulator (STYLE.md item 5, after Caffeine's): replays a synthetic trace of task
 * arrivals against every policy on a virtual clock, without threads or a server, and prints one
 * table. The policies are the real {@link Policy} objects; only the mechanism is simulated (a
 * {@link Control} with the run queue, wait queue, yield flags and limit of {@link ThreadController})
 * and so is the CPU: {@code cores} processors shared by the runnable threads in proportion to their
 * CFS weight (nice -20 weighs 88761, 0 weighs 1024, 19 weighs 15), at most one core per thread.
 *
 * <p>The workload is the paper's river monitor (5.1) in miniature: a high-importance collection
 * arrives every {@code periodMs} and needs {@code highCostMs} of CPU before the next one is due (a
 * collection still running when the next is due is a deadline miss, and the due one is skipped);
 * {@code lowClients} closed-loop clients each send low-importance chart requests of
 * {@code lowCostMs} of CPU with a control point every {@code controlPointUs} of CPU.
 *
 * <p>Versions: {@code original} (no policy), then every policy, where {@code java-priority} is
 * modelled as HotSpot on Linux runs it by default (priorities ignored) and, as
 * {@code java-priority[TPP=1]}, as with {@code -XX:ThreadPriorityPolicy=1} as root (MAX -> nice -5,
 * MIN -> nice 4). The model has CPU only: no locks, I/O, GC or memory bandwidth, which is where
 * OS priorities fall short in the paper; read its priority rows as upper bounds.
 *
 * <p>Deterministic: no randomness, the clients' first requests are staggered evenly.
 * Run: {@code java -cp scheduler/target/classes io.qosweaver.scheduler.PolicySimulator [--cores 2]
 * [--period-ms 1000] [--high-ms 300] [--clients 40] [--low-ms 200] [--cp-us 1000] [--seconds 60]}.
 */
public final class PolicySimulator {

    /** The trace's parameters; times in the units their names say. */
    public record Workload(int cores, long periodMs, long highCostMs, int lowClients, long lowCostMs,
            long controlPointUs, long seconds) {
        /** River-monitor-like defaults on two cores. */
        public static Workload defaults() {
            return new Workload(2, 1000, 300, 40, 200, 1000, 60);
        }
    }

    /** One row of the table. */
    public record Result(String version, int periods, int deadlineMisses, double highMeanMs, double highMaxMs,
            double lowPerSecond, double suspensionMeanMs, int suspensionEpisodes, int suspensionNever,
            double lowSuspendedSeconds) {}

    private PolicySimulator() {}

    /** The versions simulated, in table order. */
    public static List<String> versions() {
        List<String> v = new ArrayList<>();
        v.add("original");
        for (String n : Policies.builtInNames()) {
            v.add(n);
            if (n.equals(JavaPriorityPolicy.NAME)) {
                v.add(JAVA_TPP1);
            }
        }
        return v;
    }

    static final String JAVA_TPP1 = "java-priority[TPP=1]";

    public static List<Result> runAll(Workload w) {
        List<Result> out = new ArrayList<>();
        for (String v : versions()) {
            out.add(run(v, w));
        }
        return out;
    }

    public static Result run(String version, Workload w) {
        return new Sim(version, w).run();
    }

    public static String table(Workload w, List<Result> rows) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "workload: %d cores; high %d ms CPU every %d ms; %d clients x low %d ms CPU,"
                + " a control point every %d us; %d s virtual%n", w.cores(), w.highCostMs(), w.periodMs(),
                w.lowClients(), w.lowCostMs(), w.controlPointUs(), w.seconds()));
        b.append(String.format(Locale.ROOT, "bound: a high task alone on a core completes in %d ms%n", w.highCostMs()));
        String fmt = "%-22s %9s %10s %10s %10s %14s %12s%n";
        b.append(String.format(Locale.ROOT, fmt, "version", "misses", "high mean", "high max", "low req/s",
                "susp. time", "low susp."));
        b.append(String.format(Locale.ROOT, fmt, "", "", "ms", "ms", "", "mean ms", "s total"));
        for (Result r : rows) {
            String susp = r.suspensionEpisodes() == 0 ? "-"
                    : r.suspensionNever() == r.suspensionEpisodes() ? "never"
                    : String.format(Locale.ROOT, "%.1f", r.suspensionMeanMs())
                            + (r.suspensionNever() > 0 ? " (" + r.suspensionNever() + " never)" : "");
            b.append(String.format(Locale.ROOT, fmt, r.version(), r.deadlineMisses() + "/" + r.periods(),
                    f(r.highMeanMs()), f(r.highMaxMs()), f(r.lowPerSecond()), susp, f(r.lowSuspendedSeconds())));
        }
        b.append("susp. time: from a high task's arrival until at most 1 low thread executes"
                + " (\"never\": not before the high task ended)\n");
        return b.toString();
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    public static void main(String[] args) {
        Workload d = Workload.defaults();
        int cores = d.cores();
        long period = d.periodMs(), high = d.highCostMs(), low = d.lowCostMs(), cp = d.controlPointUs(), secs = d.seconds();
        int clients = d.lowClients();
        for (int i = 0; i + 1 < args.length; i += 2) {
            long v = Long.parseLong(args[i + 1]);
            switch (args[i]) {
                case "--cores": cores = (int) v; break;
                case "--period-ms": period = v; break;
                case "--high-ms": high = v; break;
                case "--clients": clients = (int) v; break;
                case "--low-ms": low = v; break;
                case "--cp-us": cp = v; break;
                case "--seconds": secs = v; break;
                default: throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Workload w = new Workload(cores, period, high, clients, low, cp, secs);
        System.out.print(table(w, runAll(w)));
    }

    // ------------------------------------------------------------------ the simulation

    /** Linux CFS weights, nice -20..19 (kernel/sched/core.c sched_prio_to_weight). */
    private static final int[] CFS_WEIGHT = {
        88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
        9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
        1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
        110, 87, 70, 56, 45, 36, 29, 23, 18, 15};
    /** HotSpot's Linux java_to_os_priority with ThreadPriorityPolicy=1, index = Java priority. */
    private static final int[] HOTSPOT_NICE = {19, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5};
    private static final double EPS = 1e-6;

    private static final class VThread {
        final int tid;
        final boolean high;
        final ManagedThread m;
        boolean active; // inside its scope (high: a collection is running)
        boolean suspended;
        boolean flagged;
        boolean atEntry;
        byte queue; // 0 none, 1 run, 2 wait
        int nice;
        double remaining, toControlPoint, rate;
        double start, suspendedSince;

        VThread(int tid, boolean high, ManagedThread m) {
            this.tid = tid;
            this.high = high;
            this.m = m;
        }

        boolean runnable() {
            return active && !suspended;
        }
    }

    private static final class Sim implements Control, NativeThreads {
        final String version;
        final Workload w;
        final Policy policy;
        final TaskClass highClass, lowClass;
        final List<VThread> threads = new ArrayList<>();
        final Map<ManagedThread, VThread> byState = new IdentityHashMap<>();
        final ArrayDeque<VThread> run = new ArrayDeque<>(), wait = new ArrayDeque<>();
        int limit = UNLIMITED;
        double now; // microseconds
        int acting; // the tid on whose behalf the policy is called (NativeThreads)

        // measurements
        int periods, misses, lowDone, highDone, episodes, never;
        double highSum, highMax, suspSum, lowSuspended, episodeStart = -1;

        Sim(String version, Workload w) {
            this.version = version;
            this.w = w;
            String name = version.equals(JAVA_TPP1) ? JavaPriorityPolicy.NAME : version;
            if (name.equals("original")) {
                policy = null;
            } else if (name.equals(LinuxPriorityPolicy.NAME)) {
                policy = LinuxPriorityPolicy.create(Map.of(), this);
            } else if (name.equals(JavaPriorityPolicy.NAME)) {
                policy = new JavaPriorityPolicy(new JavaPriorityPolicy.Probe(version.equals(JAVA_TPP1), "simulated"));
            } else {
                policy = Policies.get(name).create(name.equals("importance") || name.equals("admission")
                        ? Map.of("lowLimit", "1") : Map.of());
            }
            highClass = cls("collect", "high");
            lowClass = cls("chart", "low");
            // linux-priority acts only on the calling thread's own state: give it the simulator's
            boolean ownThread = name.equals(LinuxPriorityPolicy.NAME);
            for (int i = 0; i <= w.lowClients(); i++) {
                ManagedThread m = new ManagedThread(ownThread ? Thread.currentThread() : new Thread("v" + i));
                VThread t = new VThread(i + 1, i == 0, m);
                threads.add(t);
                byState.put(m, t);
            }
        }

        private TaskClass cls(String name, String importance) {
            SchedulerConfig.TaskClassSpec spec = new SchedulerConfig.TaskClassSpec(name, Map.of("importance", importance));
            int rank = policy == null ? 0 : policy.rank(spec);
            return new TaskClass(name, spec.attributes(), rank, 0, null);
        }

        Result run() {
            long cp = w.controlPointUs();
            double end = w.seconds() * 1_000_000.0, period = w.periodMs() * 1000.0;
            double nextArrival = period / 2; // let the clients reach a steady state first
            for (int i = 1; i < threads.size(); i++) {
                VThread t = threads.get(i);
                startLow(t);
                t.remaining = w.lowCostMs() * 1000.0 * (i) / (threads.size() - 1); // stagger
            }
            VThread h = threads.get(0);
            while (now < end) {
                allocate();
                double dt = Math.min(nextArrival, end) - now;
                for (VThread t : threads) {
                    if (t.runnable() && t.rate > 0) {
                        dt = Math.min(dt, Math.min(t.remaining, t.high ? Double.MAX_VALUE : t.toControlPoint) / t.rate);
                    }
                }
                dt = Math.max(dt, 0);
                now += dt;
                for (VThread t : threads) {
                    if (t.runnable() && t.rate > 0) {
                        t.remaining -= t.rate * dt;
                        t.toControlPoint -= t.rate * dt;
                    }
                }
                if (now >= nextArrival - EPS && now < end) {
                    periods++;
                    if (h.active) {
                        misses++; // still collecting the previous period: this one is lost
                    } else {
                        h.active = true;
                        h.remaining = w.highCostMs() * 1000.0;
                        h.start = now;
                        role(h, null, highClass);
                        episodeStart = now;
                        checkEpisode();
                    }
                    nextArrival += period;
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
                    role(h, highClass, null);
                }
                for (int i = 1; i < threads.size(); i++) {
                    VThread t = threads.get(i);
                    if (!t.runnable()) {
                        continue;
                    }
                    if (t.remaining <= EPS) {
                        lowDone++;
                        role(t, lowClass, null);
                        t.active = false;
                        startLow(t);
                    } else if (t.toControlPoint <= EPS) {
                        t.toControlPoint = cp;
                        if (t.flagged) {
                            suspend(t);
                        }
                    }
                }
                checkEpisode();
            }
            for (VThread t : threads) {
                if (t.suspended) {
                    lowSuspended += now - t.suspendedSince;
                }
            }
            return new Result(version, periods, misses, highDone == 0 ? 0 : highSum / highDone / 1000.0,
                    highMax / 1000.0, lowDone / (now / 1_000_000.0), episodes == never ? 0 : suspSum / (episodes - never) / 1000.0,
                    episodes, never, lowSuspended / 1_000_000.0);
        }

        private void startLow(VThread t) {
            t.active = true;
            t.remaining = w.lowCostMs() * 1000.0;
            t.toControlPoint = w.controlPointUs();
            role(t, null, lowClass);
            if (t.flagged && t.atEntry) {
                suspend(t);
            }
        }

        private void role(VThread t, TaskClass from, TaskClass to) {
            if (policy != null) {
                acting = t.tid;
                policy.onRoleChange(this, t.m, from != null && from.rank() > 0 ? from : null,
                        to != null && to.rank() > 0 ? to : null);
            }
            if (policy instanceof JavaPriorityPolicy) {
                int p = to == null ? Thread.NORM_PRIORITY : t.m.thread.getPriority();
                t.nice = version.equals(JAVA_TPP1) ? HOTSPOT_NICE[p] : 0;
            }
        }

        private void suspend(VThread t) {
            t.suspended = true;
            t.suspendedSince = now;
        }

        private void resume(VThread t) {
            if (t.suspended) {
                t.suspended = false;
                lowSuspended += now - t.suspendedSince;
            }
        }

        /** The suspension-time episode: until at most one low thread executes. */
        private void checkEpisode() {
            if (episodeStart < 0) {
                return;
            }
            int executing = 0;
            for (int i = 1; i < threads.size(); i++) {
                if (threads.get(i).runnable()) {
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
            VThread[] r = threads.stream().filter(VThread::runnable).toArray(VThread[]::new);
            for (VThread t : threads) {
                t.rate = 0;
            }
            if (r.length <= w.cores()) {
                for (VThread t : r) {
                    t.rate = 1;
                }
                return;
            }
            Arrays.sort(r, (a, b) -> Integer.compare(CFS_WEIGHT[b.nice + 20], CFS_WEIGHT[a.nice + 20]));
            double cores = w.cores(), weight = 0;
            for (VThread t : r) {
                weight += CFS_WEIGHT[t.nice + 20];
            }
            int i = 0;
            for (; i < r.length; i++) {
                double share = cores * CFS_WEIGHT[r[i].nice + 20] / weight;
                if (share < 1) {
                    break;
                }
                r[i].rate = 1;
                cores -= 1;
                weight -= CFS_WEIGHT[r[i].nice + 20];
            }
            for (; i < r.length; i++) {
                r[i].rate = cores * CFS_WEIGHT[r[i].nice + 20] / weight;
            }
        }

        // ---------------------------------------------------------------- Control (simulated)

        @Override
        public void admit(ManagedThread m) {
            admit(byState.get(m), false);
        }

        @Override
        public void admitAtEntry(ManagedThread m) {
            admit(byState.get(m), true);
        }

        private void admit(VThread t, boolean atEntry) {
            if (t.queue != 0) {
                return;
            }
            if (run.size() < limit) {
                run.addLast(t);
                t.queue = 1;
            } else {
                wait.addLast(t);
                t.queue = 2;
                t.flagged = true;
                t.atEntry = atEntry;
            }
        }

        @Override
        public void release(ManagedThread m) {
            VThread t = byState.get(m);
            if (t.queue == 1) {
                run.remove(t);
                t.queue = 0;
                promote();
            } else if (t.queue == 2) {
                wait.remove(t);
                t.queue = 0;
                clear(t);
            }
        }

        @Override
        public void setLimit(int permits) {
            limit = permits;
            while (run.size() > limit) {
                VThread v = run.removeLast();
                wait.addLast(v);
                v.queue = 2;
                v.flagged = true;
                v.atEntry = false;
            }
            promote();
        }

        @Override
        public void setLimitWithoutPreemption(int permits) {
            limit = permits;
            promote();
        }

        private void promote() {
            while (run.size() < limit && !wait.isEmpty()) {
                VThread v = wait.removeFirst();
                run.addLast(v);
                v.queue = 1;
                clear(v);
            }
        }

        private void clear(VThread t) {
            t.flagged = false;
            t.atEntry = false;
            resume(t);
        }

        @Override public int limit() { return limit; }
        @Override public int runQueueSize() { return run.size(); }
        @Override public int waitQueueSize() { return wait.size(); }
        @Override public long nanos() { return (long) (now * 1000); }

        // ---------------------------------------------------------------- NativeThreads (simulated)

        @Override public boolean available() { return true; }
        @Override public String unavailableReason() { return null; }
        /** The acting virtual thread; outside a callback (the policy's probe) an id of nobody. */
        @Override public int currentNativeThreadId() { return acting > 0 ? acting : Integer.MAX_VALUE; }

        @Override
        public void setNice(int tid, int nice) {
            if (tid >= 1 && tid <= threads.size()) {
                threads.get(tid - 1).nice = nice;
            }
        }

        @Override
        public int getNice(int tid) {
            return tid >= 1 && tid <= threads.size() ? threads.get(tid - 1).nice : 0;
        }
    }
}
