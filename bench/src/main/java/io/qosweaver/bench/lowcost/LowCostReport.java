package io.qosweaver.bench.lowcost;

import io.qosweaver.bench.app.RunValidity;

import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.Machine;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.StatisticalBarRenderer;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;

/**
 * {@code index.html} and {@code RESULTS.md} of the {@code lowcost} experiment: Fig. 18 (chart
 * throughput and mean response time per version, with collection) and the overhead without
 * collection (throughput with its spread over the repeated runs, and CPU time per chart).
 */
public final class LowCostReport {
    private LowCostReport() {
    }

    public static void write(Path dir, LowCostResult r) throws IOException {
        ReportDocument doc = new ReportDocument(
                "Low cost: what each version costs the chart requests, with and without the collector");
        doc.heading("What the numbers show").bullets(r.summary());
        if (!r.errors().isEmpty()) {
            doc.warnings(List.of("FAILED runs: " + r.errors()));
        }
        List<String> invalid = new java.util.ArrayList<>();
        r.versions().forEach((v, vr) -> {
            for (LowCostResult.Condition c : java.util.Arrays.asList(vr.withCollection(), vr.withoutCollection())) {
                if (c == null) {
                    continue;
                }
                for (var run : c.runs()) {
                    String why = RunValidity.of(run);
                    if (why != null) {
                        invalid.add(v + ": a run's figures INVALID, " + why);
                    }
                }
            }
        });
        doc.warnings(invalid);
        doc.command(r.command());
        doc.heading("With collection (Fig. 18)").table(withTable(r));
        doc.heading("Without collection (scheduling overhead)").table(withoutTable(r));
        doc.heading("Plots");
        doc.image("chart-throughput.png", "Chart throughput per version, with and without collection (Fig. 18 a; "
                + "bars: one stddev over the runs)", throughputChart(r));
        doc.image("chart-response-time.png", "Mean chart response time with collection, bars = 95 % confidence "
                + "interval (Fig. 18 b)", responseChart(r));
        doc.image("cpu-per-chart.png", "The app's CPU time per chart without collection (bars: one stddev)",
                cpuChart(r));
        doc.heading("Run order").table(orderTable(r));
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.paragraph("Percentages are against original measured in the same invocation; positive means worse "
                + "(throughput lost, response time or CPU added). CPU time per chart is the app process's CPU "
                + "time over the window (every thread: Jetty, JIT, GC, the agent) divided by the charts served.");
        doc.write(dir);
    }

    private static List<String[]> withTable(LowCostResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "chart throughput (/s)", "throughput lost (%)", "mean response (ms)",
                "95 % CI (ms)", "response time added (%)", "p99 (ms)", "miss ratio", "collection mean (ms)",
                "refused/failed"});
        r.versions().forEach((n, v) -> {
            LowCostResult.Condition c = v.withCollection();
            rows.add(new String[] {n, Table.cell(c.chartThroughputPerS().mean()),
                    Table.cell(v.throughputLossWithCollectionPct()), Table.cell(c.chartMeanMs().mean()), ci(c),
                    Table.cell(v.responseTimeIncreasePct()), Table.cell(c.chartP99Ms().mean()),
                    Table.cell(v.deadlineMissRatio()), Table.cell(v.collectionTimeMeanMs()),
                    Long.toString(c.chartErrors())});
        });
        return rows;
    }

    private static List<String[]> withoutTable(LowCostResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "runs", "chart throughput mean (/s)", "min-max", "stddev",
                "throughput lost (%)", "CPU per chart (ms)", "CPU per chart added (%)", "mean response (ms)",
                "refused/failed"});
        r.versions().forEach((n, v) -> {
            LowCostResult.Condition c = v.withoutCollection();
            LowCostResult.Spread t = c.chartThroughputPerS();
            rows.add(new String[] {n, Integer.toString(t.n()), Table.cell(t.mean()),
                    Table.cell(t.min()) + "-" + Table.cell(t.max()), Table.cell(t.stddev()),
                    Table.cell(v.overheadPct()), Table.cell(c.appCpuMsPerChart().mean()),
                    Table.cell(v.cpuPerChartOverheadPct()), Table.cell(c.chartMeanMs().mean()),
                    Long.toString(c.chartErrors())});
        });
        return rows;
    }

    private static List<String[]> orderTable(LowCostResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"round", "conditions", "order"});
        for (int i = 0; i < r.order().size(); i++) {
            rows.add(new String[] {Integer.toString(i + 1), i == 0 ? "with, then without collection" : "without",
                    String.join(", ", r.order().get(i))});
        }
        return rows;
    }

    private static String ci(LowCostResult.Condition c) {
        return c.chartMeanCi95Ms() == null ? "-" : Table.cell(c.chartMeanCi95Ms().get(0)) + "-"
                + Table.cell(c.chartMeanCi95Ms().get(1));
    }

    static JFreeChart throughputChart(LowCostResult r) {
        DefaultStatisticalCategoryDataset d = new DefaultStatisticalCategoryDataset();
        r.versions().forEach((n, v) -> {
            add(d, v.withCollection().chartThroughputPerS(), "with collection", n);
            add(d, v.withoutCollection().chartThroughputPerS(), "without collection", n);
        });
        return statistical(d, "Chart throughput", "charts per second");
    }

    static JFreeChart responseChart(LowCostResult r) {
        DefaultStatisticalCategoryDataset d = new DefaultStatisticalCategoryDataset();
        r.versions().forEach((n, v) -> {
            LowCostResult.Condition c = v.withCollection();
            if (c.chartMeanMs().mean() != null) {
                double half = c.chartMeanCi95Ms() == null ? 0
                        : (c.chartMeanCi95Ms().get(1) - c.chartMeanCi95Ms().get(0)) / 2;
                d.add(c.chartMeanMs().mean().doubleValue(), half, "with collection", n);
            }
        });
        return statistical(d, "Mean chart response time", "ms");
    }

    static JFreeChart cpuChart(LowCostResult r) {
        DefaultStatisticalCategoryDataset d = new DefaultStatisticalCategoryDataset();
        r.versions().forEach((n, v) -> add(d, v.withoutCollection().appCpuMsPerChart(), "without collection", n));
        return statistical(d, "CPU time per chart", "ms of CPU per chart");
    }

    private static void add(DefaultStatisticalCategoryDataset d, LowCostResult.Spread s, String row, String col) {
        if (s.mean() != null) {
            d.add(s.mean().doubleValue(), s.stddev() == null ? 0 : s.stddev().doubleValue(), row, col);
        }
    }

    private static JFreeChart statistical(DefaultStatisticalCategoryDataset d, String title, String axis) {
        CategoryPlot plot = new CategoryPlot(d, new CategoryAxis("version"), new NumberAxis(axis),
                new StatisticalBarRenderer());
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    }
}
