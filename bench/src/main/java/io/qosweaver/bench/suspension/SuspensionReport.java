package io.qosweaver.bench.suspension;

import io.qosweaver.bench.app.RunValidity;

import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.report.ReportDocument;
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
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

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
        XYSeries chart = new XYSeries("running chart threads");
        XYSeries collector = new XYSeries("collector running (x 10)");
        double end = s.windowSeconds();
        for (ScenarioResult.TimelinePoint p : s.runningTimeline()) {
            if (p.taskClass().equals(SuspensionResult.LOW)) {
                chart.add(p.offsetS(), p.running());
            } else if (p.taskClass().equals(SuspensionResult.HIGH)) {
                collector.add(p.offsetS(), 10 * p.members());
            }
        }
        // carry the last value to the end of the window
        if (chart.getItemCount() > 0) {
            chart.add(end, chart.getY(chart.getItemCount() - 1));
        }
        if (collector.getItemCount() > 0) {
            collector.add(end, collector.getY(collector.getItemCount() - 1));
        }
        XYSeriesCollection data = new XYSeriesCollection();
        data.addSeries(chart);
        data.addSeries(collector);
        JFreeChart c = ChartFactory.createXYLineChart("Running chart threads, " + version, "time in window (s)",
                "threads", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = c.getXYPlot();
        plot.setRenderer(new XYStepRenderer());
        plot.getRenderer().setSeriesPaint(0, new Color(0x1f77b4));
        plot.getRenderer().setSeriesPaint(1, new Color(0xd62728));
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return c;
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
