package io.qosweaver.bench.deadlock;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.FlashCrowdConfig;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.RunResult;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Reports;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.Snapshot;
import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.stats.Format;
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
 * Experiment {@code deadlock} (issue 14; paper QoSWeaver 5.4, Fig. 23): the river monitor with its
 * synchronized logger ({@code --sync-log}) under the flash crowd, one chart window, one app process
 * per version. The importance policy with a control point inside the logger is expected to deadlock:
 * a watcher detects it (no collection ends for {@code deadlockPeriods} periods while a thread is
 * suspended), kills the app and records when. The deadlock-aware policy, the importance policy
 * without the logger (the baseline) and every other version of the deadline experiment with the
 * logger must neither deadlock nor leave a thread suspended at the end.
 */
public final class Deadlock {
    public static final int DEFAULT_HOURS = 12;
    public static final int QUICK_HOURS = 3;
    /** Periods without an ended collection, with a suspended thread, that make a deadlock. */
    public static final int DEFAULT_DEADLOCK_PERIODS = 3;
    /** The goal: deadlock-aware's mean collection at most this much above importance-no-log's. */
    static final double GOAL_DELTA_MS = 300;
    private static final String CHART = DeadlockResult.CHART;
    private static final String COLLECTOR = DeadlockResult.COLLECTOR;

    /** One app process of a version: what the runner measured, or the deadlock it was killed for. */
    record Outcome(RunResult run, DeadlockWatch.Detection deadlock, DeadlockWatch.EndCheck end, Long runOns,
                   Long progressPoints, Long monitorSkips) {
    }

    /** Runs one version; a seam so tests can run the aggregation without processes. */
    @FunctionalInterface
    interface AppRunner {
        Outcome run(DeadlockVersions.Version v, Path log) throws IOException, InterruptedException;
    }

    private Deadlock() {
    }

    public static DeadlockResult run(Layout layout, FlashCrowdParams p, int hours, int deadlockPeriods, boolean quick,
                                     List<String> versionNames, Path reportDir, String command, Progress progress)
            throws IOException, InterruptedException {
        return runVersions(layout, p, hours, deadlockPeriods, quick, DeadlockVersions.resolve(versionNames), reportDir,
                command, progress);
    }

    /** As above, with versions given as data (a test's own policies). */
    public static DeadlockResult runVersions(Layout layout, FlashCrowdParams p, int hours, int deadlockPeriods,
                                             boolean quick, List<DeadlockVersions.Version> versions, Path reportDir, String command,
                                     Progress progress) throws IOException, InterruptedException {
        List<String> versionNames = versions.stream().map(DeadlockVersions.Version::name).toList();
        List<Versions.Version> runs = versions.stream().map(DeadlockVersions.Version::run).distinct().toList();
        boolean needAgent = runs.stream().anyMatch(Versions.Version::usesAgent);
        boolean needPeers = runs.stream().anyMatch(Versions.Version::usesPeer);
        layout.ensureBuilt(needAgent, needPeers);
        Map<String, Object> params = p.asMap();
        params.remove("idle_s");
        params.put("chart_hours", hours);
        params.put("versions", versionNames);
        params.put("sync_log_args", DeadlockVersions.SYNC_LOG_ARGS);
        params.put("deadlock_rule", "no collection ended for more than " + deadlockPeriods + " periods while the "
                + "scheduler had a thread suspended (polled every second from the app's start); the app is then "
                + "killed after a thread dump");
        double endLimitS = endLimitS(p.periodS());
        params.put("end_check_limit_s", endLimitS);
        params.putAll(layout.jarDates(needAgent, needPeers));
        Files.createDirectories(reportDir);
        try (Snapshot jars = Snapshot.of(layout, runs)) {
            AppRunner ar = (v, log) -> {
                List<String> appArgs = new ArrayList<>(p.extraAppArgs());
                if (v.syncLog()) {
                    appArgs.addAll(DeadlockVersions.SYNC_LOG_ARGS);
                }
                FlashCrowdConfig c = new FlashCrowdConfig(v.name(), p.periodS(), p.rivers(), p.chartClients(), hours,
                        p.levelsClients(), 0, p.warmupS(), p.durationS(), p.jvm(jars.jvmFlags(v.run())),
                        List.of("-jar", jars.riverMonitorJar().toString()), appArgs, log);
                return runWatched(c, deadlockPeriods, endLimitS,
                        reportDir.resolve("app-" + Versions.fileName(v.name()) + "-threads.txt"), progress);
            };
            DeadlockResult r = run(versions, quick, params, Machine.describe(), reportDir, command, progress, ar);
            Reports.draw(reportDir, progress, () -> DeadlockReport.write(reportDir, r));
            return r;
        }
    }

    /** How long a thread may stay suspended after the run's end: two periods, at least 5 s. */
    static double endLimitS(double periodS) {
        return Math.max(5, 2 * periodS);
    }

    /**
     * One app process under the flash crowd with a {@link DeadlockWatch}: a detected deadlock kills
     * the app and interrupts this thread, which then returns the detection instead of a failure.
     */
    private static Outcome runWatched(FlashCrowdConfig c, int periods, double endLimitS, Path dump, Progress progress)
            throws IOException, InterruptedException {
        DeadlockWatch w = new DeadlockWatch(c.version(), c.periodMs(), periods, endLimitS, dump, progress,
                Thread.currentThread());
        RunResult rr = null;
        Exception failure = null;
        try {
            rr = new RiverMonitorRunner(progress, RiverMonitorRunner.Observe.GAUGE_AND_TIMELINE, w).run(c);
        } catch (IOException | InterruptedException e) {
            failure = e;
        } finally {
            w.close();
            if (w.detection() != null) {
                Thread.interrupted(); // the watcher's interrupt, delivered: not the user's
            }
        }
        if (w.detection() == null && failure != null) {
            if (failure instanceof InterruptedException ie) {
                throw ie;
            }
            throw (IOException) failure;
        }
        return new Outcome(w.detection() == null ? rr : null, w.detection(), w.endCheck(), w.runOns(),
                w.progressPoints(), w.monitorSkips());
    }

    /** Written after every version but the last (the versions done so far), removed with the run's end. */
    static final String PARTIAL_RESULTS = "results.partial.json";

    /** Runs every version through {@code ar} in order, aggregates, writes results.json. */
    static DeadlockResult run(List<DeadlockVersions.Version> versions, boolean quick, Map<String, Object> params,
                              Map<String, Object> machine, Path reportDir, String command, Progress progress,
                              AppRunner ar) throws IOException, InterruptedException {
        Map<String, Outcome> outcomes = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, Path> logs = new LinkedHashMap<>();
        for (int i = 0; i < versions.size(); i++) {
            DeadlockVersions.Version v = versions.get(i);
            Path log = reportDir.resolve("app-" + Versions.fileName(v.name()) + ".log");
            logs.put(v.name(), log);
            progress.update("[deadlock] " + v.name() + " (" + (i + 1) + "/" + versions.size() + "): "
                    + v.description());
            try {
                outcomes.put(v.name(), ar.run(v, log));
            } catch (IOException e) {
                // one broken version must not lose the others' numbers
                progress.update("[" + v.name() + "] FAILED: " + e.getMessage());
                errors.put(v.name(), e.getMessage());
                outcomes.put(v.name(), null);
            }
            if (i < versions.size() - 1) {
                JsonWriter.write(result(versions.subList(0, i + 1), quick, params, machine, command, outcomes, logs,
                        errors), reportDir.resolve(PARTIAL_RESULTS));
            }
        }
        DeadlockResult r = result(versions, quick, params, machine, command, outcomes, logs, errors);
        JsonWriter.write(r, reportDir.resolve("results.json"));
        Files.deleteIfExists(reportDir.resolve(PARTIAL_RESULTS));
        return r;
    }

    private static DeadlockResult result(List<DeadlockVersions.Version> versions, boolean quick,
                                         Map<String, Object> params, Map<String, Object> machine, String command,
                                         Map<String, Outcome> outcomes, Map<String, Path> logs,
                                         Map<String, String> errors) {
        Map<String, DeadlockResult.VersionResult> raw = new LinkedHashMap<>();
        for (DeadlockVersions.Version v : versions) {
            raw.put(v.name(), versionResult(v, outcomes.get(v.name()), logs.get(v.name()), errors.get(v.name())));
        }
        Map<String, DeadlockResult.VersionResult> rs = withComparisons(raw);
        List<DeadlockResult.Goal> goals = goals(rs);
        return new DeadlockResult("deadlock", Instant.now().toString(), command, quick, new LinkedHashMap<>(params),
                machine, versions.stream().map(DeadlockVersions.Version::name).toList(), rs, summary(rs, goals),
                goals, paper(rs), new LinkedHashMap<>(errors));
    }

    static DeadlockResult.VersionResult versionResult(DeadlockVersions.Version v, Outcome o, Path log, String error) {
        Versions.Version run = v.run();
        List<String> flags = run.jvmFlags();
        if (o == null) {
            return new DeadlockResult.VersionResult(v.description(), v.syncLog(), flags, run.policy(), false, null, null,
                    List.of(), null, null, null, null, 0, 0, null, null, null, null, null, null, null, null, null,
                    null, null, null, null, null, log.toString(), error, null);
        }
        DeadlockWatch.EndCheck end = o.end();
        if (o.deadlock() != null) {
            DeadlockWatch.Detection d = o.deadlock();
            List<Long> done = d.completedDurationsMs();
            Double mean = done.isEmpty() ? null : round(done.stream().mapToLong(x -> x).average().orElse(0));
            Double max = done.isEmpty() ? null : (double) done.stream().mapToLong(x -> x).max().orElse(0);
            // the suspended thread the detection saw never resumed: the deadlock is a permanent suspension
            return new DeadlockResult.VersionResult(v.description(), v.syncLog(), flags, run.policy(), true,
                    round(d.afterReadyS()), done.size(), d.evidence(), d.threadDump(), true, d.suspendedThreads(),
                    null, done.size(), d.missed(), done.isEmpty() ? null : round((double) d.missed() / done.size(), 4),
                    mean, max, null, null, null, null, null, o.runOns(),
                    o.progressPoints(), o.monitorSkips(), null, null, null, log.toString(), error, null);
        }
        ScenarioResult s = o.run() == null ? null : o.run().overloaded();
        ClassResult chart = s == null || s.load() == null ? null
                : s.load().stream().filter(c -> c.name().equals(CHART)).findFirst().orElse(null);
        return new DeadlockResult.VersionResult(v.description(), v.syncLog(), flags, run.policy(), false, null, null,
                List.of(), null, end == null ? null : end.permanentSuspension(),
                end == null ? null : end.suspendedAtEnd(), end == null ? null : end.waitedS(),
                s == null ? 0 : s.collectionCount(), s == null ? 0 : s.missedCount(),
                s == null ? null : s.deadlineMissRatio(), s == null ? null : s.collectionTimeMeanMs(),
                s == null ? null : s.collectionTimeMaxMs(), s == null ? null : s.chartThroughputPerS(),
                chart == null ? null : chart.meanMs(), s == null ? null : s.chartP50Ms(),
                s == null ? null : s.chartP99Ms(), s == null ? null : s.chartErrors(), o.runOns(),
                o.progressPoints(), o.monitorSkips(), null, null, null, log.toString(), error, s);
    }

    /** Adds the collection time against importance-no-log and the chart figures against original. */
    static Map<String, DeadlockResult.VersionResult> withComparisons(Map<String, DeadlockResult.VersionResult> rs) {
        DeadlockResult.VersionResult base = rs.get(DeadlockVersions.IMPORTANCE_NO_LOG);
        DeadlockResult.VersionResult orig = rs.get(Versions.ORIGINAL);
        Map<String, DeadlockResult.VersionResult> out = new LinkedHashMap<>();
        rs.forEach((n, r) -> {
            Double delta = base == null || base.deadlocked() || r.deadlocked()
                    ? null : diff(r.collectionTimeMeanMs(), base.collectionTimeMeanMs());
            Double tput = orig == null ? null : pct(r.chartThroughputPerS(), orig.chartThroughputPerS());
            Double mean = orig == null ? null : pct(r.chartMeanMs(), orig.chartMeanMs());
            out.put(n, new DeadlockResult.VersionResult(r.description(), r.syncLog(), r.jvmFlags(), r.policy(),
                    r.deadlocked(), r.deadlockDetectedAtS(), r.collectionsBeforeDeadlock(), r.deadlockEvidence(),
                    r.threadDump(), r.permanentSuspension(), r.suspendedAtEnd(), r.endCheckWaitedS(),
                    r.collectionCount(), r.missedCount(), r.deadlineMissRatio(), r.collectionTimeMeanMs(),
                    r.collectionTimeMaxMs(), r.chartThroughputPerS(), r.chartMeanMs(), r.chartP50Ms(), r.chartP99Ms(),
                    r.chartErrors(), r.runOnEpisodes(), r.collectorProgressPoints(), r.monitorSkips(), delta, tput,
                    mean, r.appLog(), r.error(), r.detail()));
        });
        return out;
    }

    static List<DeadlockResult.Goal> goals(Map<String, DeadlockResult.VersionResult> rs) {
        List<DeadlockResult.Goal> out = new ArrayList<>();
        DeadlockResult.VersionResult imp = rs.get(DeadlockVersions.IMPORTANCE);
        out.add(new DeadlockResult.Goal("the importance policy with the logger deadlocks and the harness detects it "
                + "(the experiment's premise, paper 5.4)", imp == null || imp.error() != null ? null : imp.deadlocked(),
                imp == null ? "not run" : imp.error() != null ? "failed: " + imp.error()
                        : imp.deadlocked() ? "detected " + Format.cell(imp.deadlockDetectedAtS()) + " s after start"
                        : "no deadlock in this run"));
        List<String> bad = new ArrayList<>();
        List<String> clean = new ArrayList<>();
        rs.forEach((n, r) -> {
            if (n.equals(DeadlockVersions.IMPORTANCE) || r.error() != null) {
                return;
            }
            if (r.deadlocked()) {
                bad.add(n + " deadlocked");
            } else if (Boolean.TRUE.equals(r.permanentSuspension())) {
                bad.add(n + " left " + r.suspendedAtEnd() + " thread(s) suspended");
            } else {
                clean.add(n);
            }
        });
        out.add(new DeadlockResult.Goal("no deadlock and no permanent suspension in any other run",
                bad.isEmpty() && clean.isEmpty() ? null : bad.isEmpty(),
                bad.isEmpty() ? "clean: " + String.join(", ", clean) : String.join("; ", bad)));
        DeadlockResult.VersionResult da = rs.get(DeadlockVersions.DEADLOCK_AWARE);
        Double delta = da == null ? null : da.collectionTimeDeltaMs();
        out.add(new DeadlockResult.Goal(String.format(Locale.ROOT, "deadlock-aware's mean collection time at most "
                        + "%.0f ms above importance-no-log's", GOAL_DELTA_MS), delta == null ? null : delta <= GOAL_DELTA_MS,
                delta == null ? "not measured" : String.format(Locale.ROOT, "%+.0f ms (%s against %s ms)", delta,
                        Format.cell(da.collectionTimeMeanMs()),
                        Format.cell(rs.get(DeadlockVersions.IMPORTANCE_NO_LOG).collectionTimeMeanMs()))));
        return out;
    }

    /** The paper's 5.4 figures beside this run's. */
    static List<DeadlockResult.PaperRow> paper(Map<String, DeadlockResult.VersionResult> rs) {
        List<DeadlockResult.PaperRow> out = new ArrayList<>();
        DeadlockResult.VersionResult imp = rs.get(DeadlockVersions.IMPORTANCE);
        DeadlockResult.VersionResult da = rs.get(DeadlockVersions.DEADLOCK_AWARE);
        DeadlockResult.VersionResult base = rs.get(DeadlockVersions.IMPORTANCE_NO_LOG);
        out.add(new DeadlockResult.PaperRow("importance policy with the logger", "a deadlock always occurred soon",
                imp == null ? "not run" : outcome(imp)));
        out.add(new DeadlockResult.PaperRow("deadlock-aware policy with the logger", "deadlocks did not occur",
                da == null ? "not run" : outcome(da)));
        List<String> others = new ArrayList<>();
        rs.forEach((n, r) -> {
            if (!n.equals(DeadlockVersions.IMPORTANCE) && !n.equals(DeadlockVersions.DEADLOCK_AWARE)
                    && !n.equals(DeadlockVersions.IMPORTANCE_NO_LOG)) {
                others.add(n + ": " + outcome(r));
            }
        });
        out.add(new DeadlockResult.PaperRow("the other versions with the logger", "no deadlock",
                others.isEmpty() ? "not run" : String.join("; ", others)));
        out.add(new DeadlockResult.PaperRow("deadlock-aware mean collection time",
                "6.1 s, 0.8 s above the importance policy without the logger (5.3 s, Fig. 15)",
                da == null || da.collectionTimeMeanMs() == null ? "not measured"
                        : Format.cell(da.collectionTimeMeanMs()) + " ms" + (da.collectionTimeDeltaMs() == null ? ""
                        : String.format(Locale.ROOT, ", %+.0f ms against importance-no-log (%s ms)",
                        da.collectionTimeDeltaMs(), Format.cell(base.collectionTimeMeanMs())))));
        out.add(new DeadlockResult.PaperRow("deadlock-aware chart throughput against original", "-20 %",
                da == null || da.chartThroughputChangePct() == null ? "not measured"
                        : String.format(Locale.ROOT, "%+.1f %% (%s against %s /s)", da.chartThroughputChangePct(),
                        Format.cell(da.chartThroughputPerS()), Format.cell(rs.get(Versions.ORIGINAL).chartThroughputPerS()))));
        out.add(new DeadlockResult.PaperRow("deadlock-aware chart response time against original",
                "+25 % (+1.0 s)", da == null || da.chartMeanChangePct() == null ? "not measured"
                : String.format(Locale.ROOT, "%+.1f %% (mean %s against %s ms)", da.chartMeanChangePct(),
                Format.cell(da.chartMeanMs()), Format.cell(rs.get(Versions.ORIGINAL).chartMeanMs()))));
        Double share = da == null || da.detail() == null ? null : overLimitShare(da.detail().runningTimeline(), 1);
        out.add(new DeadlockResult.PaperRow("deadlock-aware running chart threads during collections (Fig. 23)",
                "often more than the limit of one: threads blocked at writeGeneration cannot yield",
                share == null ? "not measured" : String.format(Locale.ROOT,
                        "more than one running for %.0f %% of the collections' time", 100 * share)));
        return out;
    }

    private static String outcome(DeadlockResult.VersionResult r) {
        if (r.error() != null) {
            return "FAILED (" + r.error() + ")";
        }
        if (r.deadlocked()) {
            return "DEADLOCK, detected " + Format.cell(r.deadlockDetectedAtS()) + " s after start ("
                    + r.collectionsBeforeDeadlock() + " collections ended before)";
        }
        return "no deadlock" + (Boolean.TRUE.equals(r.permanentSuspension()) ? ", but " + r.suspendedAtEnd()
                + " thread(s) left suspended" : "");
    }

    /**
     * From a scheduler timeline: the share of the time the {@code collector} ran during which more
     * than {@code limit} chart threads ran (Fig. 23). Null when no collection is on it.
     */
    static Double overLimitShare(List<ScenarioResult.TimelinePoint> timeline, int limit) {
        double collecting = 0;
        double over = 0;
        int members = 0;
        int running = 0;
        Double last = null;
        for (ScenarioResult.TimelinePoint p : timeline) {
            if (last != null && members > 0) {
                double dt = p.offsetS() - last;
                collecting += dt;
                if (running > limit) {
                    over += dt;
                }
            }
            last = p.offsetS();
            if (p.taskClass().equals(COLLECTOR)) {
                members = p.members();
            } else if (p.taskClass().equals(CHART)) {
                running = p.running();
            }
        }
        return collecting <= 0 ? null : round(over / collecting, 4);
    }

    static List<String> summary(Map<String, DeadlockResult.VersionResult> rs, List<DeadlockResult.Goal> goals) {
        List<String> out = new ArrayList<>();
        List<String> dead = new ArrayList<>();
        List<String> alive = new ArrayList<>();
        rs.forEach((n, r) -> {
            if (r.error() != null) {
                out.add(n + ": FAILED (" + r.error() + ")");
            } else if (r.deadlocked()) {
                dead.add(n + " (detected " + Format.cell(r.deadlockDetectedAtS()) + " s after start, "
                        + r.collectionsBeforeDeadlock() + " collections before)");
            } else {
                alive.add(n + " " + Format.cell(r.collectionTimeMeanMs()) + " ms"
                        + (Boolean.TRUE.equals(r.permanentSuspension()) ? " (threads LEFT SUSPENDED)" : ""));
            }
        });
        out.add(0, (dead.isEmpty() ? "No version deadlocked." : "Deadlocked: " + String.join("; ", dead) + ".")
                + (alive.isEmpty() ? "" : " No deadlock, mean collection time: " + String.join(", ", alive) + "."));
        for (DeadlockResult.Goal g : goals) {
            out.add("Goal: " + g.goal() + ": " + (g.met() == null ? "not measured" : g.met() ? "met" : "NOT met")
                    + " (" + g.detail() + ").");
        }
        return out;
    }

    private static Double diff(Double a, Double b) {
        return a == null || b == null ? null : round(a - b);
    }

    private static Double pct(Double a, Double b) {
        return a == null || b == null || b == 0 ? null : round(100 * (a - b) / b);
    }
}
