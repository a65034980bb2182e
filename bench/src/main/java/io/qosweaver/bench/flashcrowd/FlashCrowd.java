package io.qosweaver.bench.flashcrowd;

import io.qosweaver.bench.report.Reports;

import io.qosweaver.bench.app.FlashCrowdConfig;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.RunResult;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.app.Warmup;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.ScenarioCharts;
import io.qosweaver.bench.report.ScenarioReport;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.Snapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flash crowd of issue 2 (paper: QoSWeaver 5.2): the unmodified river monitor, first idle,
 * then under closed-loop chart clients, in one app process. The failure is reproduced when
 * idle every collection ends well inside its period and loaded at least half of at least 10
 * collections miss it.
 */
public final class FlashCrowd {



    private FlashCrowd() {
    }

    public static FlashCrowdResult run(Layout layout, FlashCrowdParams p, Path reportDir, String command, Progress progress)
            throws IOException, InterruptedException {
        layout.ensureBuilt(false);
        Map<String, Object> machine = Machine.describe();
        RunResult r;
        try (Snapshot jars = Snapshot.of(layout, false)) {
            FlashCrowdConfig c = p.config("original", List.of(), jars.riverMonitorJar(),
                    reportDir.resolve("app-original.log"));
            r = new RiverMonitorRunner(progress, RiverMonitorRunner.Observe.GAUGE).run(c);
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
        FlashCrowdResult res = new FlashCrowdResult("flashcrowd", Instant.now().toString(), command, params, machine, scenarios,
                reproduced, CRITERION, r.appLog());
        JsonWriter.write(res, reportDir.resolve("results.json"));
        ScenarioResult idle = r.idle();
        ScenarioResult loaded = r.overloaded();
        Reports.draw(reportDir, progress, () -> ScenarioReport.write(reportDir, "Flash crowd: the river monitor idle and under " + p.chartClients()
                        + " chart clients",
                List.of("The unmodified river monitor, collector period " + p.periodS() + " s, " + p.rivers()
                                + " rivers; " + p.chartClients() + " closed-loop clients of /chart?hours="
                                + p.chartHours() + " in the overloaded window. " + CRITERION,
                        "Failure reproduced: " + reproduced
                                + (idle != null && loaded != null ? String.format(java.util.Locale.ROOT,
                                " (idle: %d collections, %d missed, max %.0f ms; overloaded: %d collections, "
                                        + "miss ratio %s, mean %.0f ms).", idle.collectionCount(), idle.missedCount(),
                                orZero(idle.collectionTimeMaxMs()), loaded.collectionCount(),
                                loaded.deadlineMissRatio(), orZero(loaded.collectionTimeMeanMs())) : ".")),
                List.of(), command, scenarios, params, machine));
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
