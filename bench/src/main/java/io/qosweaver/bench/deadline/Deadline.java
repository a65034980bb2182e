package io.qosweaver.bench.deadline;

import io.qosweaver.bench.report.Reports;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.CatchUp;
import io.qosweaver.bench.app.FlashCrowdConfig;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.RunResult;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.app.TailAtStart;
import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.Snapshot;
import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.stats.Format;
import io.qosweaver.bench.stats.Samples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Experiment {@code deadline} (issue 4; paper QoSWeaver 5.2, Table 2, Fig. 14, 15, 17): for each
 * chart window (24, 12, 6, 3 h), every version under the same flash crowd, one app process per
 * (window, version), the version order rotated from one window to the next so that the machine's
 * drift is shared; or one process per version running every window ({@link Processes}).
 * Aggregates over windows per version, ratios to {@code original} of the same run, and whether
 * each priority version could apply its mechanism.
 */
public final class Deadline {
    public static final List<Integer> DEFAULT_HOURS = List.of(24, 12, 6, 3);
    public static final List<Integer> QUICK_HOURS = List.of(3);

    /** Main metrics and whether lower is better (for ratios and the generated summary). */
    static final Map<String, Boolean> MAIN_METRICS = new LinkedHashMap<>();

    static {
        MAIN_METRICS.put("deadline_miss_ratio", true);
        MAIN_METRICS.put("collection_time_mean_ms", true);
        MAIN_METRICS.put("collection_time_max_ms", true);
        MAIN_METRICS.put("collection_time_stddev_ms", true);
        MAIN_METRICS.put("chart_throughput_per_s", false);
        MAIN_METRICS.put("chart_p50_ms", true);
        MAIN_METRICS.put("chart_p99_ms", true);
    }

    /** Runs one (window, version); a seam so tests can run the aggregation without processes. */
    @FunctionalInterface
    public interface WindowRunner {
        RunResult run(Versions.Version v, int hours, Path log) throws IOException, InterruptedException;
    }

    /**
     * Runs one app process of a version through the chart windows {@code hours}, in that order; a
     * result per window, in the same order. The seam of {@link Processes#PER_VERSION}.
     */
    @FunctionalInterface
    public interface ProcessRunner {
        List<RunResult> run(Versions.Version v, List<Integer> hours, Path log) throws IOException, InterruptedException;
    }

    /** How the windows of a run map to app processes. */
    public enum Processes {
        /**
         * One app process per (window, version), the version order rotated by one per window: every
         * window begins from a cold JVM and pays the whole two-phase warm-up.
         */
        PER_WINDOW("per-window"),
        /**
         * One app process per version and round, through every chart window in the order given (the
         * later windows settle under their own load first, {@code RiverMonitorRunner#runWindows}),
         * the version order rotated by one per round. About half the time of {@link #PER_WINDOW} for
         * the four windows with a two-minute warm-up; a window then follows the same windows in
         * every version, so the machine's drift within a round falls on every version alike.
         */
        PER_VERSION("per-version");

        private final String label;

        Processes(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** The value of {@code --processes}: {@code per-window} or {@code per-version}. */
        public static Processes of(String label) {
            for (Processes p : values()) {
                if (p.label.equals(label)) {
                    return p;
                }
            }
            throw new IllegalArgumentException("processes: per-window or per-version, got '" + label + "'");
        }
    }

    private Deadline() {
    }

    public static DeadlineResult run(Layout layout, FlashCrowdParams p, List<Integer> hours, boolean quick,
                             List<String> versionNames, Path reportDir, String command, Progress progress)
            throws IOException, InterruptedException {
        return run(layout, p, hours, 1, quick, versionNames, reportDir, command, progress);
    }

    /** As above, every chart window run {@code repeat} times (rounds), for the spread of every figure. */
    public static DeadlineResult run(Layout layout, FlashCrowdParams p, List<Integer> hours, int repeat, boolean quick,
                             List<String> versionNames, Path reportDir, String command, Progress progress)
            throws IOException, InterruptedException {
        return run(layout, p, hours, repeat, Processes.PER_WINDOW, 0, quick, versionNames, reportDir, command,
                progress);
    }

    /**
     * As above, the windows mapped to processes as {@code processes} says; {@code settleS}: with
     * {@link Processes#PER_VERSION}, the seconds of full load before each later window of a process.
     */
    public static DeadlineResult run(Layout layout, FlashCrowdParams p, List<Integer> hours, int repeat,
                             Processes processes, double settleS, boolean quick, List<String> versionNames,
                             Path reportDir, String command, Progress progress)
            throws IOException, InterruptedException {
        List<Versions.Version> versions = Versions.resolve(versionNames);
        boolean needAgent = versions.stream().anyMatch(Versions.Version::usesAgent);
        boolean needPeers = versions.stream().anyMatch(Versions.Version::usesPeer);
        layout.ensureBuilt(needAgent, needPeers);
        if (needAgent && !Files.isRegularFile(layout.agentJar())) {
            throw new IOException("the agent jar " + layout.agentJar() + " is missing after the build");
        }
        if (needPeers && !Files.isRegularFile(layout.peersAgentJar())) {
            throw new IOException("the peers agent jar " + layout.peersAgentJar() + " is missing after the build");
        }
        FlashCrowdParams noIdle = p.withIdle(0);
        Map<String, Object> machine = Machine.describe();
        RiverMonitorRunner runner = new RiverMonitorRunner(progress);
        Map<String, Object> params = noIdle.asMap();
        params.remove("chart_hours");
        params.remove("idle_s");
        params.put("hours", hours);
        params.put("repeat", repeat);
        params.put("versions", versionNames);
        params.put("processes", processes.label());
        if (processes == Processes.PER_VERSION) {
            params.put("settle_s", settleS);
        }
        params.putAll(layout.jarDates(needAgent, needPeers));
        try (Snapshot jars = Snapshot.of(layout, versions)) {
            ProcessRunner pr = (v, hs, log) -> {
                FlashCrowdConfig c = new FlashCrowdConfig(v.name(), noIdle.periodS(), noIdle.rivers(),
                        noIdle.chartClients(), hs.get(0), noIdle.levelsClients(), 0, noIdle.warmupS(),
                        noIdle.durationS(), noIdle.jvm(jars.jvmFlags(v)),
                        List.of("-jar", jars.riverMonitorJar().toString()), noIdle.extraAppArgs(), log);
                return runner.runWindows(c, hs, settleS);
            };
            DeadlineResult r = run(versions, hours, repeat, processes, quick, params, machine, reportDir, command,
                    progress, pr);
            Reports.draw(reportDir, progress, () -> DeadlineReport.write(reportDir, r));
            return r;
        }
    }

    /** Written after every app process but the last (the windows done so far), removed with the run's end. */
    static final String PARTIAL_RESULTS = "results.partial.json";

    /** One round of every window. */
    public static DeadlineResult run(List<Versions.Version> versions, List<Integer> hours, boolean quick,
                             Map<String, Object> params, Map<String, Object> machine, Path reportDir, String command,
                             Progress progress, WindowRunner wr) throws IOException, InterruptedException {
        return run(versions, hours, 1, quick, params, machine, reportDir, command, progress, wr);
    }

    /**
     * The key of a window in {@code by_hours}: its hours for the first round ({@code "12"}), then
     * {@code "12#2"}, {@code "12#3"}: older results files have first rounds only and read the same.
     */
    static String key(int hours, int round) {
        return round == 1 ? Integer.toString(hours) : hours + "#" + round;
    }

    /** The round of a {@code by_hours} key (1 for a plain number). */
    static int roundOf(String key) {
        int i = key.indexOf('#');
        return i < 0 ? 1 : Integer.parseInt(key.substring(i + 1));
    }

    /**
     * Runs every window and version through {@code wr}, one process per (window, version),
     * {@code repeat} rounds of all windows (the version order rotated by one per window across
     * rounds), aggregates, writes results.json (and, after every process but the last,
     * {@value #PARTIAL_RESULTS}).
     */
    public static DeadlineResult run(List<Versions.Version> versions, List<Integer> hours, int repeat, boolean quick,
                             Map<String, Object> params, Map<String, Object> machine, Path reportDir, String command,
                             Progress progress, WindowRunner wr) throws IOException, InterruptedException {
        return run(versions, hours, repeat, Processes.PER_WINDOW, quick, params, machine, reportDir, command, progress,
                (v, hs, log) -> List.of(wr.run(v, hs.get(0), log)));
    }

    /** One app process per version of {@code order}, each through the chart windows {@code hours}. */
    private record Step(int round, List<Integer> hours, List<String> order) {
    }

    /** The processes of a run, in order: a step per window ({@link Processes#PER_WINDOW}) or per round. */
    static List<Step> steps(List<String> names, List<Integer> hours, int repeat, Processes processes) {
        List<Step> steps = new ArrayList<>();
        if (processes == Processes.PER_VERSION) {
            for (int round = 1; round <= repeat; round++) {
                steps.add(new Step(round, hours, Versions.rotated(names, round - 1)));
            }
        } else {
            for (int i = 0; i < hours.size() * repeat; i++) {
                steps.add(new Step(i / hours.size() + 1, List.of(hours.get(i % hours.size())),
                        Versions.rotated(names, i)));
            }
        }
        return steps;
    }

    /**
     * Runs every window and version through {@code pr} as {@code processes} maps them to app
     * processes, {@code repeat} rounds of all windows, aggregates, writes results.json (and, after
     * every process but the last, {@value #PARTIAL_RESULTS}: hours of runs must not be lost to a crash).
     */
    public static DeadlineResult run(List<Versions.Version> versions, List<Integer> hours, int repeat,
                             Processes processes, boolean quick, Map<String, Object> params,
                             Map<String, Object> machine, Path reportDir, String command, Progress progress,
                             ProcessRunner pr) throws IOException, InterruptedException {
        if (repeat < 1) {
            throw new IllegalArgumentException("repeat must be at least 1, got " + repeat);
        }
        List<String> names = versions.stream().map(Versions.Version::name).toList();
        Map<String, Map<String, DeadlineResult.Window>> windows = new LinkedHashMap<>();
        names.forEach(n -> windows.put(n, new LinkedHashMap<>()));
        Map<String, String> errors = new LinkedHashMap<>();
        List<List<String>> orders = new ArrayList<>();
        List<Step> steps = steps(names, hours, repeat, processes);
        for (int i = 0; i < steps.size(); i++) {
            Step step = steps.get(i);
            int round = step.round();
            String hs = step.hours().stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(", "));
            String hoursPart = hs.replace(", ", "-");
            step.hours().forEach(h -> orders.add(step.order()));
            progress.update("[deadline] " + (step.hours().size() == 1 ? "window " + hs + " h" : "windows " + hs
                    + " h in one process per version") + (repeat > 1 ? ", round " + round + "/" + repeat : "")
                    + " (" + (i + 1) + "/" + steps.size() + "), order " + step.order());
            for (int k = 0; k < step.order().size(); k++) {
                Versions.Version v = Versions.get(step.order().get(k));
                Path log = reportDir.resolve("app-" + Versions.fileName(v.name()) + "-" + hoursPart + "h"
                        + (round == 1 ? "" : "-" + round) + ".log");
                List<RunResult> rs;
                String error = null;
                try {
                    rs = pr.run(v, step.hours(), log);
                    if (rs.size() != step.hours().size()) {
                        throw new IOException("the process returned " + rs.size() + " windows for "
                                + step.hours().size());
                    }
                } catch (IOException e) {
                    // one broken version (say, an agent that stops start-up) must not lose the others' numbers
                    progress.update("[" + v.name() + "] " + hs + " h FAILED: " + e.getMessage());
                    rs = null;
                    error = e.getMessage();
                    for (int h : step.hours()) {
                        errors.put(v.name() + "@" + h + "h" + (round == 1 ? "" : "#" + round), e.getMessage());
                    }
                }
                for (int j = 0; j < step.hours().size(); j++) {
                    int h = step.hours().get(j);
                    windows.get(v.name()).put(key(h, round),
                            window(v, h, k, rs == null ? null : rs.get(j), log, error));
                }
                if (i < steps.size() - 1 || k < step.order().size() - 1) {
                    JsonWriter.write(result(versions, hours, quick, params, machine, command, windows, orders,
                            errors), reportDir.resolve(PARTIAL_RESULTS));
                }
            }
        }
        DeadlineResult res = result(versions, hours, quick, params, machine, command, windows, orders, errors);
        JsonWriter.write(res, reportDir.resolve("results.json"));
        Files.deleteIfExists(reportDir.resolve(PARTIAL_RESULTS));
        return res;
    }

    private static DeadlineResult result(List<Versions.Version> versions, List<Integer> hours, boolean quick,
                                 Map<String, Object> params, Map<String, Object> machine, String command,
                                 Map<String, Map<String, DeadlineResult.Window>> windows, List<List<String>> orders,
                                 Map<String, String> errors) {
        Map<String, DeadlineResult.VersionResult> results = new LinkedHashMap<>();
        for (Versions.Version v : versions) {
            results.put(v.name(), withSpread(aggregate(v, windows.get(v.name())), v, windows.get(v.name())));
        }
        DeadlineResult.VersionResult orig = results.get(Versions.ORIGINAL);
        if (orig != null) {
            Map<String, DeadlineResult.VersionResult> withRatios = new LinkedHashMap<>();
            results.forEach((n, r) -> withRatios.put(n, withRatio(r, orig)));
            results = withRatios;
        }
        Map<String, Object> ps = new LinkedHashMap<>(params);
        ps.put("order", Processes.PER_VERSION.label().equals(params.get("processes"))
                ? "one process per version and round runs every chart window; the version order is rotated by one"
                        + " per round; `order` has it once per window"
                : "the version order is rotated by one per chart window (and round); see `order`");
        return new DeadlineResult("deadline", Instant.now().toString(), command, quick, ps, machine, List.copyOf(orders),
                results, summary(results, hours, params.get("period_s") instanceof Number n ? n.doubleValue() : null),
                new LinkedHashMap<>(errors));
    }

    static DeadlineResult.Window window(Versions.Version v, int h, int orderIndex, RunResult rr, Path log, String error) {
        ScenarioResult s = rr == null ? null : rr.overloaded();
        DeadlineResult.Metrics m = s == null ? null : new DeadlineResult.Metrics(s.collectionCount(), s.missedCount(), s.deadlineMissRatio(),
                s.collectionTimeMeanMs(), s.collectionTimeMaxMs(), s.collectionTimeStddevMs(), s.chartThroughputPerS(),
                s.chartP50Ms(), s.chartP99Ms(), s.chartErrors(), s.suspensionTimeMeanMs(), s.suspensionTimeP99Ms());
        Boolean eff = null;
        String reason;
        boolean priorityVersion = v.name().endsWith("-priority");
        Map<String, Object> pr = rr == null ? null : rr.priority();
        if (pr != null) {
            eff = Boolean.TRUE.equals(pr.get("effective"));
            reason = pr.get("mechanism") + ": " + pr.get("reason");
        } else if (rr == null) {
            reason = "not measured: " + error;
        } else if (priorityVersion) {
            eff = false;
            reason = "the agent exported no qosweaver_priority_effective gauge: cannot tell whether the priorities "
                    + "were applied";
        } else {
            reason = v.usesAgent() ? "not a priority policy (the agent's scheduler applies it)" : "no agent";
        }
        return new DeadlineResult.Window(h, orderIndex, m, eff, reason, log.toString(), error, s);
    }

    static DeadlineResult.VersionResult aggregate(Versions.Version v, Map<String, DeadlineResult.Window> byH) {
        List<Double> durations = new ArrayList<>();
        int count = 0;
        int missed = 0;
        long errors = 0;
        List<Double> tput = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        double suspSum = 0;
        long suspCount = 0;
        Double suspP99 = null;
        Boolean eff = null;
        String reason = null;
        for (DeadlineResult.Window w : byH.values()) {
            if (w.mechanismEffective() != null) {
                if (eff == null || !w.mechanismEffective()) {
                    reason = w.mechanismReason();
                }
                eff = eff == null ? w.mechanismEffective() : eff && w.mechanismEffective();
            } else if (reason == null) {
                reason = w.mechanismReason();
            }
            ScenarioResult s = w.detail();
            if (s == null) {
                continue;
            }
            count += s.collectionCount();
            missed += s.missedCount();
            errors += s.chartErrors();
            s.collections().forEach(c -> {
                if (c.durationMs() != null) {
                    durations.add((double) c.durationMs());
                }
            });
            tput.add(s.chartThroughputPerS());
            if (s.chartP50Ms() != null) {
                p50.add(s.chartP50Ms());
            }
            if (s.chartP99Ms() != null) {
                p99.add(s.chartP99Ms());
            }
            if (s.suspensionCount() != null && s.suspensionTimeMeanMs() != null) {
                suspSum += s.suspensionTimeMeanMs() * s.suspensionCount();
                suspCount += s.suspensionCount();
            }
            if (s.suspensionTimeP99Ms() != null) {
                suspP99 = suspP99 == null ? s.suspensionTimeP99Ms() : Math.max(suspP99, s.suspensionTimeP99Ms());
            }
        }
        Samples collections = Samples.of(durations);
        Double mean = collections.mean();
        Double sd = round(collections.stddev());
        Map<String, DeadlineResult.Window> out = new LinkedHashMap<>(byH);
        return new DeadlineResult.VersionResult(v.description(), v.jvmFlags(), v.policyKey(), count, missed,
                count == 0 ? null : round4((double) missed / count), round(mean),
                collections.max(), sd,
                round(Samples.of(tput).mean()), round(Samples.of(p50).mean()), round(Samples.of(p99).mean()), errors,
                suspCount == 0 ? null : round(suspSum / suspCount), suspP99, eff, reason, null, null, out);
    }

    /**
     * With more than one round, the spread of each main metric: the smallest and largest of the
     * rounds' own aggregates (each round aggregated over its windows as the whole run is).
     */
    static DeadlineResult.VersionResult withSpread(DeadlineResult.VersionResult r, Versions.Version v,
                                                   Map<String, DeadlineResult.Window> byKey) {
        Map<Integer, Map<String, DeadlineResult.Window>> rounds = new java.util.TreeMap<>();
        byKey.forEach((k, w) -> rounds.computeIfAbsent(roundOf(k), x -> new LinkedHashMap<>()).put(k, w));
        if (rounds.size() < 2) {
            return r;
        }
        Map<String, List<Double>> spread = new LinkedHashMap<>();
        for (String m : MAIN_METRICS.keySet()) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (Map<String, DeadlineResult.Window> round : rounds.values()) {
                if (aggregate(v, round).metrics().get(m) instanceof Double d) {
                    lo = Math.min(lo, d);
                    hi = Math.max(hi, d);
                }
            }
            if (lo <= hi) {
                spread.put(m, List.of(lo, hi));
            }
        }
        return new DeadlineResult.VersionResult(r.description(), r.jvmFlags(), r.policy(), r.collectionCount(),
                r.missedCount(), r.deadlineMissRatio(), r.collectionTimeMeanMs(), r.collectionTimeMaxMs(),
                r.collectionTimeStddevMs(), r.chartThroughputPerS(), r.chartP50Ms(), r.chartP99Ms(), r.chartErrors(),
                r.suspensionTimeMeanMs(), r.suspensionTimeP99Ms(), r.mechanismEffective(), r.mechanismReason(),
                r.ratioToOriginal(), spread, r.byHours());
    }

    static DeadlineResult.VersionResult withRatio(DeadlineResult.VersionResult r, DeadlineResult.VersionResult orig) {
        Map<String, Double> ratios = new LinkedHashMap<>();
        DeadlineResult.Metrics a = r.metrics();
        DeadlineResult.Metrics o = orig.metrics();
        for (String m : MAIN_METRICS.keySet()) {
            Object x = a.get(m);
            Object y = o.get(m);
            ratios.put(m, x instanceof Double dx && y instanceof Double dy && dy != 0 ? round4(dx / dy) : null);
        }
        return new DeadlineResult.VersionResult(r.description(), r.jvmFlags(), r.policy(), r.collectionCount(), r.missedCount(),
                r.deadlineMissRatio(), r.collectionTimeMeanMs(), r.collectionTimeMaxMs(), r.collectionTimeStddevMs(),
                r.chartThroughputPerS(), r.chartP50Ms(), r.chartP99Ms(), r.chartErrors(), r.suspensionTimeMeanMs(),
                r.suspensionTimeP99Ms(), r.mechanismEffective(), r.mechanismReason(), ratios, r.spread(), r.byHours());
    }

    /**
     * The windows that began with the collector still behind its fixed-rate schedule (the runner
     * waits for it to catch up after the warm-up, within bounds): their first collections ran back
     * to back, more of them than the period asks for, so they are not the version's steady state.
     */
    static java.util.Optional<String> behindSchedule(Map<String, DeadlineResult.VersionResult> rs) {
        return windowsWhere(rs, w -> w.notes() != null
                        && w.notes().stream().anyMatch(x -> x.startsWith(CatchUp.BEHIND_AT_WINDOW_START)),
                "Windows that began with the collector still behind its schedule (the collections an earlier overrun"
                        + " owed ran back to back at their start; the window's notes say how far behind): ");
    }

    /** The windows whose chart tail is at their start ({@link TailAtStart}): the app was still warming up. */
    static java.util.Optional<String> tailAtStart(Map<String, DeadlineResult.VersionResult> rs) {
        return windowsWhere(rs, TailAtStart::of,
                "Windows whose chart tail is at their start (more than half of the slowest 1 % of the charts started in"
                        + " the window's first " + TailAtStart.START_PERCENT + " %: the app was still warming up, and"
                        + " its chart p99 is that, not its steady state; a longer --warmup measures the latter): ");
    }

    /** "{@code lead}version (12 h, 3 h); other (6 h)." for the windows that ran and match; empty if none. */
    private static java.util.Optional<String> windowsWhere(Map<String, DeadlineResult.VersionResult> rs,
                                                           java.util.function.Predicate<ScenarioResult> match,
                                                           String lead) {
        List<String> found = new ArrayList<>();
        rs.forEach((n, r) -> {
            List<String> where = new ArrayList<>();
            r.byHours().forEach((h, w) -> {
                if (w.detail() != null && match.test(w.detail())) {
                    where.add(h + " h");
                }
            });
            if (!where.isEmpty()) {
                found.add(n + " (" + String.join(", ", where) + ")");
            }
        });
        return found.isEmpty() ? java.util.Optional.empty()
                : java.util.Optional.of(lead + String.join("; ", found) + ".");
    }

    /**
     * A few generated sentences: who misses, where, and where a peer beats qosweaver; with the
     * period, a sentence on the calibration first: "no other version misses"
     * can only be shown when the period is close to twice the best versions' loaded collection
     * time (issue 14); at a much longer period every version that caps the charts at all meets it.
     */
    static List<String> summary(Map<String, DeadlineResult.VersionResult> rs, List<Integer> hours, Double periodS) {
        List<String> out = new ArrayList<>();
        calibration(rs, periodS).ifPresent(out::add);
        List<String> miss = new ArrayList<>();
        List<String> clean = new ArrayList<>();
        rs.forEach((n, r) -> {
            if (r.deadlineMissRatio() == null) {
                return;
            }
            if (r.deadlineMissRatio() > 0) {
                List<String> where = new ArrayList<>();
                r.byHours().forEach((h, w) -> {
                    if (w.metrics() != null && w.metrics().deadlineMissRatio() != null
                            && w.metrics().deadlineMissRatio() > 0) {
                        where.add(h + " h: " + Format.cell(w.metrics().deadlineMissRatio()));
                    }
                });
                miss.add(n + " (" + Format.cell(r.deadlineMissRatio()) + " overall; " + String.join(", ", where) + ")");
            } else {
                clean.add(n);
            }
        });
        out.add("Chart windows " + hours + " h. " + (miss.isEmpty() ? "No version missed a deadline."
                : "Versions that missed deadlines: " + String.join("; ", miss) + ".")
                + (clean.isEmpty() ? " Every version missed at least one deadline."
                : " No miss: " + String.join(", ", clean) + "."));
        behindSchedule(rs).ifPresent(out::add);
        tailAtStart(rs).ifPresent(out::add);
        DeadlineResult.VersionResult q = rs.get(Versions.QOSWEAVER);
        DeadlineResult.VersionResult o = rs.get(Versions.ORIGINAL);
        if (q != null && o != null && q.collectionTimeMeanMs() != null && o.collectionTimeMeanMs() != null) {
            out.add(String.format(Locale.ROOT, "Mean collection time: original %.0f ms, qosweaver %.0f ms (%.2fx "
                            + "original); chart throughput %.2f/s vs %.2f/s.", o.collectionTimeMeanMs(),
                    q.collectionTimeMeanMs(), q.collectionTimeMeanMs() / o.collectionTimeMeanMs(),
                    nz(o.chartThroughputPerS()), nz(q.chartThroughputPerS())));
        }
        if (q != null) {
            List<String> better = new ArrayList<>();
            rs.forEach((n, r) -> {
                if (n.equals(Versions.QOSWEAVER)) {
                    return;
                }
                for (Map.Entry<String, Boolean> m : MAIN_METRICS.entrySet()) {
                    Object pv = r.metrics().get(m.getKey());
                    Object qv = q.metrics().get(m.getKey());
                    if (pv instanceof Double p && qv instanceof Double x) {
                        boolean beats = m.getValue() ? p < x * 0.95 - 1e-9 : p > x * 1.05 + 1e-9;
                        if (m.getKey().equals("deadline_miss_ratio")) {
                            beats = p < x;
                        }
                        if (beats) {
                            // latencies count served requests only: say when a version got them by refusing others
                            String refused = m.getKey().startsWith("chart_p") && r.chartErrors() > 0
                                    ? ", having refused or failed " + r.chartErrors() + " chart requests" : "";
                            better.add(n + " on " + m.getKey() + " (" + Format.cell(p) + " vs " + Format.cell(x) + refused + ")");
                        }
                    }
                }
            });
            out.add(better.isEmpty() ? "No peer does better than qosweaver by more than 5 % on any main metric."
                    : "Where a peer does better than qosweaver (by more than 5 %): " + String.join("; ", better) + ".");
        }
        out.addAll(leaders(rs));
        rs.forEach((n, r) -> {
            if (Boolean.FALSE.equals(r.mechanismEffective())) {
                out.add(n + " could NOT apply its mechanism (" + r.mechanismReason() + "): its numbers measure the "
                        + "woven application without effective priorities, not the priorities themselves.");
            }
        });
        return out;
    }

    static java.util.Optional<String> calibration(Map<String, DeadlineResult.VersionResult> rs, Double periodS) {
        if (periodS == null || periodS <= 0) {
            return java.util.Optional.empty();
        }
        String best = null;
        double bestMs = Double.POSITIVE_INFINITY;
        for (Map.Entry<String, DeadlineResult.VersionResult> e : rs.entrySet()) {
            Double m = e.getValue().collectionTimeMeanMs();
            if (m != null && m < bestMs) {
                best = e.getKey();
                bestMs = m;
            }
        }
        if (best == null) {
            return java.util.Optional.empty();
        }
        double ratio = periodS * 1000 / bestMs;
        // What tells versions apart is whether any but the original misses; the ratio says why.
        List<String> missing = new ArrayList<>();
        rs.forEach((n, r) -> {
            if (!n.equals(Versions.ORIGINAL) && r.missedCount() > 0) {
                missing.add(n);
            }
        });
        String verdict;
        if (ratio <= 3) {
            verdict = "close enough to twice it for a version slower than the best to miss";
        } else if (!missing.isEmpty()) {
            verdict = "above twice it, yet " + missing.size() + " version(s) besides the original missed ("
                    + String.join(", ", missing) + "): tight enough to tell the versions apart";
        } else {
            verdict = "well above twice it, and no version besides the original missed: at this period every version"
                    + " that bounds the charts meets the deadline, so \"no other version misses\" cannot be told";
        }
        return java.util.Optional.of(String.format(Locale.ROOT, "Calibration: the period (%.3g s) is %.1fx the best "
                + "mean loaded collection (%s, %.0f ms), %s.", periodS, ratio, best, bestMs, verdict));
    }

    /**
     * Per main metric, the version that leads and by how much over the next one; with rounds,
     * whether the lead is beyond the spread (the leader's worst round better than the next one's
     * best) or within it. Latencies count served requests: a leader that refused requests says so.
     */
    static List<String> leaders(Map<String, DeadlineResult.VersionResult> rs) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Boolean> m : MAIN_METRICS.entrySet()) {
            if (m.getKey().equals("collection_time_stddev_ms")) {
                continue;
            }
            boolean lower = m.getValue();
            List<Map.Entry<String, Double>> ranked = new ArrayList<>();
            rs.forEach((n, r) -> {
                if (r.metrics().get(m.getKey()) instanceof Double d) {
                    ranked.add(Map.entry(n, d));
                }
            });
            if (ranked.size() < 2) {
                continue;
            }
            ranked.sort((a, b) -> lower ? Double.compare(a.getValue(), b.getValue())
                    : Double.compare(b.getValue(), a.getValue()));
            Map.Entry<String, Double> first = ranked.get(0);
            Map.Entry<String, Double> second = ranked.get(1);
            String lead;
            if (first.getValue().equals(second.getValue())) {
                lead = first.getKey() + " and " + second.getKey() + " level (" + Format.cell(first.getValue()) + ")";
            } else {
                double by = second.getValue() == 0 ? Double.NaN
                        : Math.abs(first.getValue() - second.getValue()) / Math.abs(second.getValue()) * 100;
                lead = first.getKey() + " (" + Format.cell(first.getValue()) + " against " + second.getKey() + "'s "
                        + Format.cell(second.getValue()) + (Double.isNaN(by) ? "" : String.format(Locale.ROOT,
                        ", %.1f %%", by)) + beyond(rs.get(first.getKey()), rs.get(second.getKey()), m.getKey(), lower)
                        + ")";
            }
            if (m.getKey().startsWith("chart_p") && rs.get(first.getKey()).chartErrors() > 0) {
                lead += " having refused or failed " + rs.get(first.getKey()).chartErrors() + " chart requests";
            }
            parts.add(m.getKey() + ": " + lead);
        }
        return parts.isEmpty() ? List.of() : List.of("Leader per metric: " + String.join("; ", parts) + ".");
    }

    private static String beyond(DeadlineResult.VersionResult a, DeadlineResult.VersionResult b, String metric,
                                 boolean lower) {
        List<Double> sa = a.spread() == null ? null : a.spread().get(metric);
        List<Double> sb = b.spread() == null ? null : b.spread().get(metric);
        if (sa == null || sb == null) {
            return "; one round, no spread";
        }
        boolean clear = lower ? sa.get(1) < sb.get(0) : sa.get(0) > sb.get(1);
        return clear ? "; beyond the spread of the rounds" : "; within the spread of the rounds";
    }

    private static double nz(Double d) {
        return d == null ? 0 : d;
    }


    private static Double round4(double v) {
        return Math.round(v * 10000) / 10000.0;
    }
}
