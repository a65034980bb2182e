package io.qosweaver.bench.deadlock;

import io.qosweaver.bench.app.RunValidity;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.report.ScenarioCharts;
import io.qosweaver.bench.report.Table;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code index.html} and {@code RESULTS.md} of the {@code deadlock} experiment: the summary, the
 * goals, the paper's 5.4 figures beside ours, one row per version (deadlocked or not, permanent
 * suspension, collections, chart figures, run-on episodes), the evidence of each deadlock from its
 * thread dump, Fig. 23 (running chart threads over the window, per version run by the agent) and the
 * collection times per period.
 */
public final class DeadlockReport {
    private DeadlockReport() {
    }

    public static void write(Path dir, DeadlockResult r) throws IOException {
        ReportDocument doc = new ReportDocument("Deadlock: a synchronized logger in the river monitor, per version "
                + "(paper 5.4)");
        doc.heading("What the numbers show").bullets(r.summary());
        if (!r.errors().isEmpty()) {
            doc.warnings(List.of("FAILED runs: " + r.errors()));
        }
        List<String> invalid = new ArrayList<>();
        r.versions().forEach((v, vr) -> {
            String why = RunValidity.of(vr.detail());
            if (why != null) {
                invalid.add(v + ": figures INVALID, " + why);
            }
        });
        doc.warnings(invalid);
        doc.command(r.command());
        doc.heading("Goals (issue 14)").table(goalTable(r));
        doc.heading("The paper's figures beside ours").table(paperTable(r));
        doc.heading("Per version").table(mainTable(r));
        List<String> evidence = new ArrayList<>();
        r.versions().forEach((v, vr) -> vr.deadlockEvidence().forEach(e -> evidence.add(v + ": " + e)));
        if (!evidence.isEmpty()) {
            doc.heading("The deadlocks, from the thread dump taken at detection").bullets(evidence);
        }
        doc.heading("Plots");
        Map<String, ScenarioResult> measured = new LinkedHashMap<>();
        r.versions().forEach((v, vr) -> {
            if (vr.detail() != null) {
                measured.put(v, vr.detail());
            }
        });
        for (var e : measured.entrySet()) {
            if (!e.getValue().runningTimeline().isEmpty()) {
                doc.image("running-" + e.getKey() + ".png", "Running chart threads and the collector, " + e.getKey()
                                + " (Fig. 23; the scheduler's timeline, every change)",
                        ScenarioCharts.runningTimelineChart("Running chart threads, " + e.getKey(), e.getValue(),
                                DeadlockResult.COLLECTOR, DeadlockResult.CHART));
            }
        }
        if (!measured.isEmpty()) {
            doc.image("collections.png", "Collection time per period (the period is the deadline); a deadlocked "
                    + "version has none", ScenarioCharts.collectionChart(measured));
        }
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.paragraph("A deadlocked version was killed at detection: its collection figures are those that ended "
                + "before (from the app's start, warm-ups included), its chart figures are not measured. Permanent suspension: a thread the scheduler still "
                + "held suspended end_check_limit_s after the load stopped and the window's last collection ended. "
                + "Run-on episodes: the agent's qosweaver_wait_timeouts_total over the whole run (warm-up "
                + "included), the deadlock-aware policy's timed waits after which the thread ran on. Chart changes "
                + "are against original with the logger.");
        doc.write(dir);
    }

    private static List<String[]> goalTable(DeadlockResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"goal", "met", "detail"});
        r.goals().forEach(g -> rows.add(new String[] {g.goal(), g.met() == null ? "not measured"
                : g.met() ? "yes" : "NO", g.detail()}));
        return rows;
    }

    private static List<String[]> paperTable(DeadlockResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"figure", "paper (5.4)", "this run"});
        r.paper().forEach(p -> rows.add(new String[] {p.figure(), p.paper(), p.ours()}));
        return rows;
    }

    private static List<String[]> mainTable(DeadlockResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "logger", "deadlocked", "permanent suspension", "collections (missed)",
                "collection mean / max (ms)", "vs importance-no-log (ms)", "chart throughput (/s)", "vs original",
                "chart mean / p50 / p99 (ms)", "run-on episodes", "collector progress points"});
        r.versions().forEach((n, v) -> rows.add(new String[] {n, v.syncLog() ? "yes" : "no",
                v.error() != null ? "FAILED" : v.deadlocked() ? "YES, at " + Table.cell(v.deadlockDetectedAtS()) + " s"
                        : "no",
                v.permanentSuspension() == null ? "-" : v.permanentSuspension() ? "YES (" + v.suspendedAtEnd() + ")"
                        : "no",
                v.collectionCount() + " (" + v.missedCount() + ")",
                Table.cell(v.collectionTimeMeanMs()) + " / " + Table.cell(v.collectionTimeMaxMs()),
                signed(v.collectionTimeDeltaMs(), ""), Table.cell(v.chartThroughputPerS()),
                signed(v.chartThroughputChangePct(), " %"),
                Table.cell(v.chartMeanMs()) + " / " + Table.cell(v.chartP50Ms()) + " / " + Table.cell(v.chartP99Ms()),
                Table.cell(v.runOnEpisodes()), Table.cell(v.collectorProgressPoints())}));
        return rows;
    }

    private static String signed(Double d, String unit) {
        return d == null ? "-" : String.format(java.util.Locale.ROOT, "%+.0f%s", d, unit);
    }
}
