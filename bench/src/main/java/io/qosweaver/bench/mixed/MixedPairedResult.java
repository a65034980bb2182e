package io.qosweaver.bench.mixed;

import io.qosweaver.bench.app.ThreadCpu;

import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.mixed.MixedResult.Goal;
import io.qosweaver.bench.stats.Format;
import io.qosweaver.bench.stats.Samples;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code results.json} of {@code bench mixed --paired N} holds: every version in one process of its own,
 * its loaded windows alternating between the version switched off (the unscheduled app, in the same process)
 * and on, N pairs, so that each ratio is taken inside one process. Two processes of the same jar differ here
 * by up to 40 % in CPU per request (`bench/results/mixed-fuseki/run-6/`), more than the goals' margins.
 *
 * @param pairs    pairs of windows per version (off then on, then on then off, ...)
 * @param idleP99  the median over the run's processes of the idle light p99 measured switched off (the
 *                 unscheduled app's idle light p99, one 30 s window per process): the reference of the light goal
 * @param goals    issue 13's goals for every QoSWeaver version, judged on the medians over its pairs
 * @param versions by name, in the order run
 */
public record MixedPairedResult(String experiment, String generatedAt, String command, boolean quick, int pairs,
                                Map<String, Object> parameters, Map<String, Object> machine,
                                Map<String, Object> app, List<String> summary, Map<String, String> errors,
                                Double idleP99, List<Goal> goals, List<PairGoal> pairGoals,
                                Map<String, Version> versions) {

    /** The switched states of a window. */
    public static final String ON = "on";
    public static final String OFF = "off";

    /**
     * One loaded window of one process.
     *
     * @param pair     1..N
     * @param state    {@link #ON} (the version's policy or peer in force) or {@link #OFF} (switched off: the
     *                 unscheduled app in the same process)
     * @param switchMs how long the switch before it took (0 when the state did not change)
     * @param sched    the server's threads as the kernel counted them over the window, or null (no {@code /proc})
     * @param threadCpu the server's CPU by thread group over the window, once a second (empty without {@code /proc})
     * @param startMs  the measured window's start, epoch ms
     * @param endMs    its end
     * @param lightTailGc the light requests at or above the window's p99 matched to the server's stop-the-world GC
     *                 pauses, and the pauses inside the window ({@link GcPauses#tail}); null until the process's log
     *                 is read, or when it has no wall-clock pause lines
     */
    public record Window(int pair, String state, double switchMs, ClassResult heavy, ClassResult light,
                         Double serverCpuCores, Double cpuMsPerHeavy, Double otherCpuCores, Integer heavyNice,
                         Integer lightNice, SchedCounters sched, List<ThreadCpu.Group> threadCpu, long startMs,
                         long endMs, Map<String, Object> lightTailGc) {
        public Window {
            threadCpu = threadCpu == null ? List.of() : List.copyOf(threadCpu);
        }

        /** This window with its light tail matched to the pauses ({start, end} epoch ms) of the server's log. */
        Window withLightTailGc(List<double[]> pauses) {
            return new Window(pair, state, switchMs, heavy, light, serverCpuCores, cpuMsPerHeavy, otherCpuCores,
                    heavyNice, lightNice, sched, threadCpu, startMs, endMs,
                    GcPauses.tail(light, pauses, startMs, endMs));
        }

        /** A number of {@link #lightTailGc}, or null. */
        Double gc(String key) {
            return lightTailGc == null || !(lightTailGc.get(key) instanceof Number n) ? null : n.doubleValue();
        }

        /** The cores the JVM's collector threads used over the window, or null when not sampled. */
        public Double gcCores() {
            return threadCpu.isEmpty() ? null : threadCpu.stream().filter(g -> g.name().equals(ThreadCpu.GC))
                    .mapToDouble(ThreadCpu.Group::cores).sum();
        }

        /** The server's context switches (voluntary + involuntary) per heavy request served, or null. */
        public Double switchesPerHeavy() {
            return sched == null ? null
                    : SchedCounters.per(sched.voluntarySwitches() + sched.involuntarySwitches(), heavy.requests());
        }

        /** The server's migrations between CPUs per heavy request served, or null. */
        public Double migrationsPerHeavy() {
            return sched == null ? null : SchedCounters.per(sched.migrations(), heavy.requests());
        }
    }

    /** One pair's ratios, each on over off in the same process. */
    public record Pair(int pair, Double heavyOnToOff, Double lightP99OnMs, Double lightP99OffMs,
                       Double cpuMsPerHeavyOnToOff) {
    }

    /** A figure over the pairs: its values, their median (nearest rank) and range. */
    public record Spread(List<Double> values, Double median, Double min, Double max) {
        static Spread of(List<Double> values) {
            Samples s = Samples.of(values.stream().filter(Objects::nonNull).toList());
            return new Spread(values, s.quantile(0.5), s.quantile(0), s.max());
        }

        /** "median [min-max]", or the one value. */
        public String cell() {
            if (median == null) {
                return "-";
            }
            return Objects.equals(min, max) ? Format.cell(median)
                    : Format.cell(median) + " [" + Format.cell(min) + "-" + Format.cell(max) + "]";
        }
    }

    /**
     * One version's process.
     *
     * @param idleLight        the light stream alone, switched off, after the last pair
     * @param heavyOnToOff     the heavy throughput switched on over off, per pair
     * @param lightP99On       the light p99 of the on windows (ms)
     * @param lightP99Off      the light p99 of the off windows (ms): the unscheduled app under the same load
     * @param lightP99OnToIdle the on windows' light p99 over the run's idle p99 ({@link MixedPairedResult#idleP99})
     * @param cpuMsPerHeavyOnToOff the server's CPU per heavy request switched on over off, per pair
     * @param errorsOn         heavy and light errors of the on windows together
     */
    public record Version(String name, String description, List<String> jvmFlags, String policy, String peer,
                          String installLine, String appLog, String error, List<Window> windows,
                          ClassResult idleLight, Double idleOtherCpuCores, List<Pair> pairs, Spread heavyOnToOff,
                          Spread heavyPerSOn, Spread heavyPerSOff, Spread lightP99On, Spread lightP99Off,
                          Spread lightP99OnToIdle, Spread cpuMsPerHeavyOnToOff, Long errorsOn, Double otherCpuCoresMax) {
    }

    /** A goal judged pair by pair: how many of the pairs met it. */
    public record PairGoal(String version, String goal, String target, List<Double> perPair, int metPairs,
                           int measuredPairs) {
    }

    /** What one process measured, before any ratio. */
    record Run(io.qosweaver.bench.run.Versions.Version version, List<String> flags, String installLine,
               String appLog, String error, List<Window> windows, ClassResult idleLight, Double idleOtherCpuCores) {
    }

    /** The ratios, spreads and goals of the runs, every ratio inside one process. */
    static MixedPairedResult of(String generatedAt, String command, boolean quick, int pairs,
            Map<String, Object> parameters, Map<String, Object> machine, Map<String, Object> app,
            Map<String, String> errors, List<Run> runs) {
        List<Double> idles = new ArrayList<>();
        for (Run r : runs) {
            if (r.error() == null && r.idleLight() != null && r.idleLight().p99Ms() != null) {
                idles.add(r.idleLight().p99Ms());
            }
        }
        Double idleP99 = idles.isEmpty() ? null : Samples.of(idles).quantile(0.5);
        Map<String, Version> versions = new LinkedHashMap<>();
        for (Run r : runs) {
            versions.put(r.version().name(), version(r, idleP99));
        }
        List<Goal> goals = new ArrayList<>();
        List<PairGoal> pairGoals = new ArrayList<>();
        evaluate(versions, goals, pairGoals);
        return new MixedPairedResult("mixed-paired", generatedAt, command, quick, pairs, parameters, machine, app,
                summary(versions, goals, pairGoals, idleP99, idles.size()), Map.copyOf(errors), idleP99, goals,
                pairGoals, versions);
    }

    private static Version version(Run r, Double idleP99) {
        var v = r.version();
        List<Window> ws = r.windows() == null ? List.of() : r.windows();
        List<Pair> pairs = new ArrayList<>();
        for (int i = 1; i <= maxPair(ws); i++) {
            Window on = window(ws, i, ON);
            Window off = window(ws, i, OFF);
            if (on == null || off == null) {
                continue;
            }
            pairs.add(new Pair(i, Mixed.ratio(on.heavy().throughputPerS(), off.heavy().throughputPerS()),
                    on.light().p99Ms(), off.light().p99Ms(), Mixed.ratio(on.cpuMsPerHeavy(), off.cpuMsPerHeavy())));
        }
        List<Window> ons = ws.stream().filter(w -> w.state().equals(ON)).toList();
        List<Window> offs = ws.stream().filter(w -> w.state().equals(OFF)).toList();
        Long errorsOn = ons.isEmpty() ? null
                : ons.stream().mapToLong(w -> w.heavy().errors() + w.light().errors()).sum();
        Double othersMax = ws.stream().map(Window::otherCpuCores).filter(Objects::nonNull).max(Double::compare)
                .orElse(null);
        return new Version(v.name(), v.description(), r.flags(), v.policy(), v.peer(), r.installLine(), r.appLog(),
                r.error(), ws, r.idleLight(), r.idleOtherCpuCores(), pairs,
                Spread.of(pairs.stream().map(Pair::heavyOnToOff).toList()),
                Spread.of(ons.stream().map(w -> Double.valueOf(w.heavy().throughputPerS())).toList()),
                Spread.of(offs.stream().map(w -> Double.valueOf(w.heavy().throughputPerS())).toList()),
                Spread.of(ons.stream().map(w -> w.light().p99Ms()).toList()),
                Spread.of(offs.stream().map(w -> w.light().p99Ms()).toList()),
                Spread.of(ons.stream().map(w -> Mixed.ratio(w.light().p99Ms(), idleP99)).toList()),
                Spread.of(pairs.stream().map(Pair::cpuMsPerHeavyOnToOff).toList()), errorsOn, othersMax);
    }

    private static int maxPair(List<Window> ws) {
        return ws.stream().mapToInt(Window::pair).max().orElse(0);
    }

    private static Window window(List<Window> ws, int pair, String state) {
        return ws.stream().filter(w -> w.pair() == pair && w.state().equals(state)).findFirst().orElse(null);
    }

    /**
     * Issue 13's goals on the medians over the pairs: light p99 switched on within 2x of the run's idle p99;
     * heavy throughput switched on at least 95 % of switched off; no error in an on window; ahead of every
     * peer on light p99 with a heavy ratio (on over off, each in its own process) at least the peer's.
     */
    private static void evaluate(Map<String, Version> versions, List<Goal> goals, List<PairGoal> pairGoals) {
        for (Version q : versions.values()) {
            if (!MixedGoals.isQoSWeaver(q.name())) {
                continue;
            }
            Double light = q.lightP99OnToIdle().median();
            goals.add(new Goal(q.name(), "light p99 on / the run's idle light p99 (median over the pairs)", light,
                    "<= " + MixedGoals.LIGHT_P99_TO_IDLE, light == null ? null : light <= MixedGoals.LIGHT_P99_TO_IDLE));
            Double heavy = q.heavyOnToOff().median();
            goals.add(new Goal(q.name(), "heavy throughput on / off in the same process (median over the pairs)", heavy,
                    ">= " + MixedGoals.HEAVY_THROUGHPUT, heavy == null ? null : heavy >= MixedGoals.HEAVY_THROUGHPUT));
            Double errs = q.errorsOn() == null ? null : (double) q.errorsOn();
            goals.add(new Goal(q.name(), "errors in the on windows", errs, "0", errs == null ? null : errs == 0));
            pairGoals.add(pairGoal(q.name(), "light p99 on / the run's idle light p99", "<= "
                    + MixedGoals.LIGHT_P99_TO_IDLE, q.lightP99OnToIdle().values(), x -> x <= MixedGoals.LIGHT_P99_TO_IDLE));
            pairGoals.add(pairGoal(q.name(), "heavy throughput on / off", ">= " + MixedGoals.HEAVY_THROUGHPUT,
                    q.heavyOnToOff().values(), x -> x >= MixedGoals.HEAVY_THROUGHPUT));
            for (Version peer : versions.values()) {
                if (peer.peer() == null) {
                    continue;
                }
                Double ourP99 = q.lightP99On().median();
                Double peerP99 = peer.lightP99On().median();
                Double peerHeavy = peer.heavyOnToOff().median();
                Boolean met = ourP99 == null || peerP99 == null || heavy == null || peerHeavy == null ? null
                        : ourP99 < peerP99 && heavy >= peerHeavy;
                goals.add(new Goal(q.name(), "light p99 on (ms) ahead of " + peer.name() + " at an equal or better "
                        + "heavy on / off", ourP99, peerP99 == null || peerHeavy == null ? "peer not measured"
                        : "< " + Format.cell(peerP99) + " ms with heavy on / off >= " + Format.precise(peerHeavy)
                        + " (ours " + Format.precise(heavy) + ")", met));
            }
        }
    }

    /**
     * How many of the light requests at or above their window's p99 overlapped a stop-the-world GC pause, over the
     * windows in one state, with the range of the windows' pause rates and mean pauses; null when none was matched.
     */
    static String gcTail(List<Window> windows, String state) {
        int tail = 0;
        int withPause = 0;
        List<Double> rates = new ArrayList<>();
        List<Double> means = new ArrayList<>();
        for (Window w : windows) {
            if (!w.state().equals(state) || w.gc("tail_requests") == null) {
                continue;
            }
            tail += w.gc("tail_requests").intValue();
            withPause += w.gc("tail_with_gc_pause").intValue();
            if (w.gc("window_gc_pauses_per_s") != null) {
                rates.add(w.gc("window_gc_pauses_per_s"));
            }
            if (w.gc("window_gc_pause_mean_ms") != null) {
                means.add(w.gc("window_gc_pause_mean_ms"));
            }
        }
        if (tail == 0) {
            return null;
        }
        return withPause + " of " + tail + " requests at or above their window's p99 overlapped a stop-the-world GC "
                + "pause (" + range(rates) + " pauses/s, " + range(means) + " ms mean)";
    }

    private static String range(List<Double> xs) {
        if (xs.isEmpty()) {
            return "-";
        }
        Samples s = Samples.of(xs);
        double lo = s.quantile(0);
        double hi = s.max();
        return lo == hi ? Format.cell(lo) : Format.cell(lo) + "-" + Format.cell(hi);
    }

    private static PairGoal pairGoal(String version, String goal, String target, List<Double> values,
            java.util.function.DoublePredicate met) {
        int measured = 0;
        int ok = 0;
        for (Double x : values) {
            if (x != null) {
                measured++;
                ok += met.test(x) ? 1 : 0;
            }
        }
        return new PairGoal(version, goal, target, values, ok, measured);
    }

    private static List<String> summary(Map<String, Version> versions, List<Goal> goals, List<PairGoal> pairGoals,
            Double idleP99, int idleWindows) {
        List<String> out = new ArrayList<>();
        out.add("Idle light p99 of the unscheduled app (each process switched off, the light stream alone; median of "
                + idleWindows + " process(es)): " + (idleP99 == null ? "not measured" : Format.cell(idleP99) + " ms")
                + ". Every other ratio is on over off inside one process.");
        for (Version v : versions.values()) {
            if (v.error() != null) {
                out.add(v.name() + ": FAILED: " + v.error());
                continue;
            }
            out.add(String.format("%s: heavy on / off %s over %d pair(s) (%s/s on, %s/s off); light p99 on %s ms, "
                    + "off %s ms (%sx the idle p99); CPU per heavy on / off %s; %s errors on; others' CPU at most %s cores",
                    v.name(), v.heavyOnToOff().cell(), v.pairs().size(), v.heavyPerSOn().cell(), v.heavyPerSOff().cell(),
                    v.lightP99On().cell(), v.lightP99Off().cell(), v.lightP99OnToIdle().cell(),
                    v.cpuMsPerHeavyOnToOff().cell(), v.errorsOn() == null ? "-" : v.errorsOn(),
                    v.otherCpuCoresMax() == null ? "-" : Format.cell(v.otherCpuCoresMax())));
        }
        for (Version v : versions.values()) {
            String on = gcTail(v.windows(), ON);
            if (on != null) {
                String off = gcTail(v.windows(), OFF);
                out.add(v.name() + ": light tail on: " + on + (off == null ? "" : "; off: " + off));
            }
        }
        for (Goal g : goals) {
            if (Boolean.FALSE.equals(g.met())) {
                out.add("goal NOT met: " + g.version() + ": " + g.goal() + " = "
                        + (g.value() == null ? "-" : Format.cell(g.value())) + " (target " + g.target() + ")");
            }
        }
        for (PairGoal g : pairGoals) {
            if (g.metPairs() < g.measuredPairs()) {
                out.add(g.version() + ": " + g.goal() + " " + g.target() + " met in " + g.metPairs() + " of "
                        + g.measuredPairs() + " pairs");
            }
        }
        long met = goals.stream().filter(g -> Boolean.TRUE.equals(g.met())).count();
        out.add(met + " of " + goals.size() + " goal checks met.");
        return out;
    }
}
