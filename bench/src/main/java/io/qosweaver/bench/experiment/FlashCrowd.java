package io.qosweaver.bench.experiment;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.qosweaver.bench.report.HtmlReport;
import io.qosweaver.bench.report.Json;
import io.qosweaver.bench.report.Machine;
import io.qosweaver.bench.report.MarkdownReport;
import io.qosweaver.bench.river.FlashCrowdConfig;
import io.qosweaver.bench.river.Progress;
import io.qosweaver.bench.river.RiverMonitorRunner;
import io.qosweaver.bench.river.RunResult;
import io.qosweaver.bench.river.ScenarioResult;
import io.qosweaver.bench.river.Warmup;

/**
 * The flash crowd of issue 2 (paper: QoSWeaver 5.2): the unmodified river monitor, first idle,
 * then under closed-loop chart clients, in one app process. The failure is reproduced when
 * idle every collection ends well inside its period and loaded at least half of at least 10
 * collections miss it.
 */
public final class FlashCrowd {

    /** What a run asks for; {@link #quick} and {@link #full} are the calibrated defaults (README.md). */
    public record Params(double periodS, int rivers, int chartClients, int chartHours, int levelsClients,
                         double idleS, double warmupS, double durationS, List<String> extraAppArgs) {

        /**
         * The full run: the paper's 15 s period and 180 s (12 periods) under load, with 900 rivers
         * so that a loaded collection takes well over the period on a 2-core machine, and 12 h of
         * history (what a 12 h chart reads) so that seeding stays under half a minute
         * (calibration in bench/README.md).
         */
        public static Params full() {
            return new Params(DEFAULT_PERIOD_S, DEFAULT_RIVERS, 40, 12, 0, 4 * DEFAULT_PERIOD_S, 15,
                    12 * DEFAULT_PERIOD_S, List.of("--history-hours", "12"));
        }

        /**
         * About a minute per app process: a 3 s period, 100 rivers, 12 periods loaded. Charts are
         * capped at 3,000 points by the app, so a 3 h chart costs about what a 12 h one does; 3 h of
         * history (not 24) keeps the start-up seeding to a few seconds.
         */
        public static Params quick() {
            return new Params(QUICK_PERIOD_S, QUICK_RIVERS, 40, 3, 0, 4 * QUICK_PERIOD_S, 6,
                    12 * QUICK_PERIOD_S, List.of("--history-hours", "3"));
        }

        public Map<String, Object> asMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("period_s", periodS);
            m.put("rivers", rivers);
            m.put("chart_clients", chartClients);
            m.put("chart_hours", chartHours);
            m.put("levels_clients", levelsClients);
            m.put("idle_s", idleS);
            m.put("warmup_s", warmupS);
            m.put("warmup", "warmup_s with light_warmup_clients chart clients, then warmup_s with the full load");
            m.put("light_warmup_clients", Warmup.lightClients());
            m.put("duration_s", durationS);
            m.put("extra_app_args", extraAppArgs);
            return m;
        }

        FlashCrowdConfig config(String version, List<String> jvmArgs, Path riverMonitorJar, Path log) {
            return new FlashCrowdConfig(version, periodS, rivers, chartClients, chartHours, levelsClients, idleS,
                    warmupS, durationS, jvmArgs, List.of("-jar", riverMonitorJar.toString()),
                    extraAppArgs, log);
        }
    }

    /** The paper's period; the rivers are scaled for a 2-core machine (bench/README.md, "Calibration"). */
    public static final double DEFAULT_PERIOD_S = 15;
    public static final int DEFAULT_RIVERS = 900;
    public static final double QUICK_PERIOD_S = 3;
    public static final int QUICK_RIVERS = 100;

    /** Results: the parameters, the machine, both windows, and whether the failure reproduced. */
    public record Result(String experiment, String generatedAt, String command, Map<String, Object> parameters,
                         Map<String, Object> machine, Map<String, ScenarioResult> scenarios, boolean reproduced,
                         String criterion, String appLog) {
    }

    private FlashCrowd() {
    }

    public static Result run(Layout layout, Params p, Path reportDir, String command, Progress progress)
            throws IOException, InterruptedException {
        layout.ensureBuilt(false);
        Map<String, Object> machine = Machine.describe();
        RunResult r;
        try (Snapshot jars = Snapshot.of(layout, false)) {
            FlashCrowdConfig c = p.config("original", List.of(), jars.riverMonitorJar(),
                    reportDir.resolve("app-original.log"));
            r = new RiverMonitorRunner(progress).run(c);
        }
        Map<String, ScenarioResult> scenarios = new LinkedHashMap<>();
        if (r.idle() != null) {
            scenarios.put("idle", r.idle());
        }
        if (r.overloaded() != null) {
            scenarios.put("overloaded", r.overloaded());
        }
        boolean reproduced = reproduced(r.idle(), r.overloaded());
        Map<String, Object> params = p.asMap();
        params.putAll(layout.jarDates(false));
        Result res = new Result("flashcrowd", Instant.now().toString(), command, params, machine, scenarios,
                reproduced, CRITERION, r.appLog());
        Json.write(res, reportDir.resolve("results.json"));
        HtmlReport.write(reportDir, "Flash crowd: the river monitor idle and under " + p.chartClients()
                        + " chart clients",
                "Collector period " + p.periodS() + " s, " + p.rivers() + " rivers. " + CRITERION
                        + " Reproduced: " + reproduced + ".",
                scenarios, params, machine);
        ScenarioResult idle = r.idle();
        ScenarioResult loaded = r.overloaded();
        MarkdownReport.write(reportDir, "Flash crowd: the river monitor idle and under " + p.chartClients()
                        + " chart clients", command,
                List.of("The unmodified river monitor, collector period " + p.periodS() + " s, " + p.rivers()
                                + " rivers; " + p.chartClients() + " closed-loop clients of `/chart?hours="
                                + p.chartHours() + "` in the overloaded window. " + CRITERION,
                        "**Failure reproduced: " + reproduced + "**"
                                + (idle != null && loaded != null ? String.format(java.util.Locale.ROOT,
                                " (idle: %d collections, %d missed, max %.0f ms; overloaded: %d collections, "
                                        + "miss ratio %s, mean %.0f ms).", idle.collectionCount(), idle.missedCount(),
                                orZero(idle.collectionTimeMaxMs()), loaded.collectionCount(),
                                loaded.deadlineMissRatio(), orZero(loaded.collectionTimeMeanMs())) : ".")),
                scenarios, params, machine);
        return res;
    }

    private static double orZero(Double d) {
        return d == null ? 0 : d;
    }

    static final String CRITERION = "The failure is reproduced when idle no collection misses and the longest takes "
            + "at most half the period, and under load the window lasts at least 10 periods, at least 3 collections "
            + "start in it and at least half of them miss the deadline.";

    static boolean reproduced(ScenarioResult idle, ScenarioResult loaded) {
        if (idle == null || loaded == null || idle.collectionCount() == 0 || idle.collectionTimeMaxMs() == null) {
            return false;
        }
        boolean idleOk = idle.missedCount() == 0 && idle.collectionTimeMaxMs() <= idle.periodS() * 1000 / 2;
        boolean loadedFails = loaded.windowSeconds() >= 10 * loaded.periodS() * 0.99
                && loaded.collectionCount() >= 3
                && loaded.deadlineMissRatio() != null && loaded.deadlineMissRatio() >= 0.5;
        return idleOk && loadedFails;
    }
}
