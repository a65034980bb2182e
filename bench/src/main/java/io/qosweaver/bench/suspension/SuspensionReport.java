package io.qosweaver.bench.suspension;

import io.qosweaver.bench.app.RunValidity;

import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.report.ScenarioCharts;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.Machine;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * {@code index.html} and {@code RESULTS.md} of the {@code suspension} experiment: the summary,
 * the suspension statistics per version, Fig. 16 (running chart threads and the collector over
 * the window, one plot per version, from the scheduler's event timeline), and every collection's
 * suspension time.
 */
public final class SuspensionReport {
    private SuspensionReport() {
    }

    public static void write(Path dir, SuspensionResult r) throws IOException {
        ReportDocument doc = new ReportDocument(
                "Suspension: how fast the chart threads stop when a collection starts, per version");
        doc.heading("What the numbers show").bullets(r.summary());
        if (!r.errors().isEmpty()) {
            doc.warnings(List.of("FAILED runs: " + r.errors()));
        }
        List<String> invalid = new java.util.ArrayList<>();
        r.versions().forEach((v, vr) -> {
            String why = RunValidity.of(vr.detail());
            if (why != null) {
                invalid.add(v + ": figures INVALID, " + why);
            }
        });
        doc.warnings(invalid);
        doc.command(r.command());
        doc.heading("Per version").table(mainTable(r));
        doc.heading("Plots");
        for (var e : r.versions().entrySet()) {
            if (e.getValue().detail() != null) {
                doc.image("running-" + e.getKey() + ".png", "Running chart threads and the collector, " + e.getKey()
                        + " (Fig. 16; from the scheduler's timeline, every change)", timelineChart(e.getKey(),
                        e.getValue().detail()));
            }
        }
        doc.image("suspension-time.png", "Time until at most the allowed chart threads run, per collection",
                barChart(r));
        doc.heading("Every collection").table(episodeTable(r));
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.paragraph("A collection starts when the collector enters its scope and ends when it leaves; its "
                + "suspension time is the first moment after its start when at most the allowed number of chart "
                + "threads run (0 when already so). The scheduler's own convergence statistics (measured inside "
                + "the scheduler, under its lock) are given beside for comparison.");
        doc.write(dir);
    }

    private static List<String[]> mainTable(SuspensionResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "collections", "suspend mean (ms)", "p50", "p99", "max",
                "not converged", "scheduler's mean / p99 (ms)", "miss ratio", "collection mean (ms)",
                "chart throughput (/s)"});
        r.versions().forEach((n, v) -> rows.add(new String[] {n, Integer.toString(v.episodes()),
                Table.cell(v.suspensionTimeMeanMs()), Table.cell(v.suspensionTimeP50Ms()),
                Table.cell(v.suspensionTimeP99Ms()), Table.cell(v.suspensionTimeMaxMs()),
                Integer.toString(v.episodesNotConverged()),
                Table.cell(v.schedulerSuspensionTimeMeanMs()) + " / " + Table.cell(v.schedulerSuspensionTimeP99Ms()),
                Table.cell(v.deadlineMissRatio()), Table.cell(v.collectionTimeMeanMs()),
                Table.cell(v.chartThroughputPerS())}));
        return rows;
    }

    private static List<String[]> episodeTable(SuspensionResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "start (s)", "chart threads running at start", "suspension (ms)",
                "fewest running"});
        r.versions().forEach((n, v) -> v.episodeList().forEach(e -> rows.add(new String[] {n,
                Table.cell(e.startOffsetS()), Integer.toString(e.runningAtStart()),
                e.suspendMs() == null ? "not converged" : Table.cell(e.suspendMs()),
                Integer.toString(e.minRunning())})));
        return rows;
    }

    static JFreeChart timelineChart(String version, ScenarioResult s) {
        return ScenarioCharts.runningTimelineChart("Running chart threads, " + version, s, SuspensionResult.HIGH,
                SuspensionResult.LOW);
    }

    static JFreeChart barChart(SuspensionResult r) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        r.versions().forEach((n, v) -> {
            d.addValue(v.suspensionTimeMeanMs(), "mean", n);
            d.addValue(v.suspensionTimeP99Ms(), "p99", n);
            d.addValue(v.suspensionTimeMaxMs(), "max", n);
        });
        JFreeChart c = ChartFactory.createBarChart("Time to suspend", "version", "ms", d, PlotOrientation.VERTICAL,
                true, false, false);
        c.getCategoryPlot().setBackgroundPaint(Color.WHITE);
        c.getCategoryPlot().setRangeGridlinePaint(Color.LIGHT_GRAY);
        return c;
    }
}
