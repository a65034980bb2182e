package io.qosweaver.bench.pointcuts;

import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.suspension.Suspension;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * {@code index.html} and {@code RESULTS.md} of the {@code pointcuts} experiment: Table 3 (generated
 * pointcuts and selected join points per parameter set, with the profile's predicted interval and
 * the generation time), Fig. 19 (observed interval single-threaded, against the prediction and the
 * target), Fig. 21 (observed interval against concurrent chart clients), Fig. 22 (time to suspend
 * and collection time), and the overhead without collection against original.
 */
public final class PointcutsReport {
    private PointcutsReport() {
    }

    public static void write(Path dir, PointcutsResult r) throws IOException {
        ReportDocument doc = new ReportDocument(
                "Pointcuts: the profile-based pointcut generator's parameters on the running river monitor");
        doc.heading("What the numbers show").bullets(r.summary());
        if (!r.errors().isEmpty()) {
            doc.warnings(List.of("FAILED runs: " + r.errors()));
        }
        doc.command(r.command());
        doc.heading("Table 3: generated pointcuts and selected join points").table(table3(r));
        doc.heading("Observed intervals (Fig. 19, 21)").table(intervalTable(r));
        doc.heading("Overhead without collection").table(overheadTable(r));
        doc.heading("With collection: suspension and collection (Fig. 22)").table(withTable(r));
        doc.heading("Plots");
        doc.image("interval-single.png", "Fig. 19: mean interval between control points, one chart client "
                + "(log scale), observed and predicted from the profile", singleChart(r));
        doc.image("interval-concurrency.png", "Fig. 21: mean observed interval against concurrent chart clients "
                + "(log scale)", concurrencyChart(r));
        doc.image("suspension-collection.png", "Fig. 22: mean time to suspend the chart threads and mean "
                + "collection time, 40 chart clients", fig22(r));
        doc.keyValues("Profile", JsonWriter.MAPPER.convertValue(r.profile(), Map.class));
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.paragraph("Predicted intervals are measured on the profile, in whose time the agent took out the "
                + "probe's measured cost per join point (agent/README.md, Profiling), divided by a slowdown only "
                + "when one was given; Profile's time_base_stretch is how much longer the recorded chart's thread "
                + "ran in that time than the same chart on the app without the agent (1 = the time base is "
                + "real time). Observed ones are measured by the scheduler at run time, between adjacent "
                + "control points of one chart request. Overhead is against original (no agent) measured in "
                + "the same invocation, before and after all sets; positive means worse.");
        doc.write(dir);
    }

    private static List<String[]> table3(PointcutsResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"set", "kind", "t (ms)", "m", "generated pointcuts", "selected join points",
                "predicted interval mean (ms)", "sd (ms)", "longest gap (ms)", "uncovered slots", "generation (ms)"});
        r.parameterSets().forEach((n, s) -> rows.add(new String[] {n, s.kind(), Table.cell(s.targetIntervalMs()),
                Table.cell(s.maxOccurrence()), Integer.toString(s.pointcuts()), Table.cell(s.selectedJoinPoints()),
                Table.cell(s.predictedIntervalMeanMs()), Table.cell(s.predictedIntervalSdMs()),
                Table.cell(s.predictedLongestGapMs()), s.uncoveredSlots() == null ? "-" : s.uncoveredSlots() + " of " + s.slots(),
                Table.cell(s.generationTimeMs())}));
        return rows;
    }

    private static List<String[]> intervalTable(PointcutsResult r) {
        List<Integer> clients = clients(r);
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("set", "control points per chart"));
        for (int c : clients) {
            head.add(c + " client" + (c == 1 ? "" : "s") + ": mean / p50 / p99 (ms)");
        }
        rows.add(head.toArray(new String[0]));
        r.parameterSets().forEach((n, s) -> {
            List<String> row = new ArrayList<>(List.of(n, Table.cell(s.controlPointsPerChart())));
            for (int c : clients) {
                PointcutsResult.Observed o = s.observed().get(Integer.toString(c));
                row.add(o == null || o.meanMs() == null ? "-" : Table.cell(o.meanMs()) + " / " + Table.cell(o.p50Ms())
                        + " / " + Table.cell(o.p99Ms()));
            }
            rows.add(row.toArray(new String[0]));
        });
        return rows;
    }

    private static List<String[]> overheadTable(PointcutsResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"set", "chart throughput (/s)", "throughput lost (%)", "CPU per chart (ms)",
                "CPU per chart added (%)"});
        PointcutsResult.Baseline b = r.original();
        rows.add(new String[] {"original (runs: " + b.chartThroughputPerS() + ")", Table.cell(b.chartThroughputMeanPerS()),
                "0", Table.cell(b.appCpuMsPerChartMean()), "0"});
        r.parameterSets().forEach((n, s) -> rows.add(new String[] {n, Table.cell(s.chartThroughputPerS()),
                Table.cell(s.overheadPct()), Table.cell(s.appCpuMsPerChart()), Table.cell(s.cpuOverheadPct())}));
        return rows;
    }

    private static List<String[]> withTable(PointcutsResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"set", "time to suspend mean (ms)", "p99 (ms)", "collection mean (ms)",
                "collection max (ms)", "miss ratio", "chart throughput (/s)", "chart p50 (ms)"});
        PointcutsResult.Baseline b = r.original();
        rows.add(new String[] {"original", "-", "-", Table.cell(b.collectionTimeMeanMs()),
                Table.cell(b.collectionTimeMaxMs()), Table.cell(b.deadlineMissRatio()),
                Table.cell(b.chartThroughputWithCollectionPerS()), Table.cell(b.chartP50WithCollectionMs())});
        r.parameterSets().forEach((n, s) -> rows.add(new String[] {n, Table.cell(s.suspensionTimeMeanMs()),
                Table.cell(s.suspensionTimeP99Ms()), Table.cell(s.collectionTimeMeanMs()),
                Table.cell(s.collectionTimeMaxMs()), Table.cell(s.deadlineMissRatio()),
                Table.cell(s.chartThroughputWithCollectionPerS()), Table.cell(s.chartP50WithCollectionMs())}));
        return rows;
    }

    private static List<Integer> clients(PointcutsResult r) {
        List<Integer> out = new ArrayList<>();
        r.parameterSets().values().forEach(s -> s.observed().values().forEach(o -> {
            if (!out.contains(o.clients())) {
                out.add(o.clients());
            }
        }));
        out.sort(Integer::compare);
        return out;
    }

    static JFreeChart singleChart(PointcutsResult r) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        r.parameterSets().forEach((n, s) -> {
            if (positive(s.observedIntervalMeanMs())) {
                d.addValue(s.observedIntervalMeanMs(), "observed", n);
            }
            if (positive(s.predictedIntervalMeanMs())) {
                d.addValue(s.predictedIntervalMeanMs(), "predicted (profile)", n);
            }
        });
        JFreeChart c = bars(d, "Interval between control points, one client", "ms (log)", true);
        CategoryPlot plot = c.getCategoryPlot();
        for (double t : new double[] {10, 100}) {
            ValueMarker m = new ValueMarker(t, Color.GRAY, new BasicStroke(1f, BasicStroke.CAP_BUTT,
                    BasicStroke.JOIN_MITER, 1f, new float[] {4f, 4f}, 0f));
            m.setLabel("t = " + (int) t + " ms");
            plot.addRangeMarker(m);
        }
        return c;
    }

    static JFreeChart concurrencyChart(PointcutsResult r) {
        XYSeriesCollection data = new XYSeriesCollection();
        r.parameterSets().forEach((n, s) -> {
            XYSeries series = new XYSeries(n);
            s.observed().values().forEach(o -> {
                if (positive(o.meanMs())) {
                    series.add(o.clients(), o.meanMs());
                }
            });
            if (series.getItemCount() > 0) {
                data.addSeries(series);
            }
        });
        double min = Double.POSITIVE_INFINITY;
        for (int i = 0; i < data.getSeriesCount(); i++) {
            for (int k = 0; k < data.getItemCount(i); k++) {
                min = Math.min(min, data.getYValue(i, k));
            }
        }
        LogAxis y = logAxis("mean interval (ms, log)", min);
        XYPlot plot = new XYPlot(data, new NumberAxis("concurrent chart clients"), y, new XYLineAndShapeRenderer(true, true));
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return new JFreeChart("Observed interval against load", JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    }

    static JFreeChart fig22(PointcutsResult r) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        if (positive(r.original().collectionTimeMeanMs())) {
            d.addValue(r.original().collectionTimeMeanMs(), "collection time", "original");
        }
        r.parameterSets().forEach((n, s) -> {
            if (s.suspensionTimeMeanMs() != null) {
                d.addValue(Math.max(0.01, s.suspensionTimeMeanMs()), "time to suspend", n);
            }
            if (positive(s.collectionTimeMeanMs())) {
                d.addValue(s.collectionTimeMeanMs(), "collection time", n);
            }
        });
        return bars(d, "Suspension and collection, 40 chart clients", "ms (log)", true);
    }

    private static JFreeChart bars(DefaultCategoryDataset d, String title, String axis, boolean log) {
        CategoryAxis x = new CategoryAxis("parameter set");
        x.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        double min = Double.POSITIVE_INFINITY;
        for (int row = 0; row < d.getRowCount(); row++) {
            for (int col = 0; col < d.getColumnCount(); col++) {
                Number v = d.getValue(row, col);
                if (v != null && v.doubleValue() > 0) {
                    min = Math.min(min, v.doubleValue());
                }
            }
        }
        BarRenderer renderer = new BarRenderer();
        renderer.setShadowVisible(false);
        // on a log axis the bars grow from its bottom, not from 0
        renderer.setIncludeBaseInRange(!log);
        CategoryPlot plot = new CategoryPlot(d, x, log ? logAxis(axis, min) : new NumberAxis(axis), renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return new JFreeChart(title, JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    }

    /** A log axis whose bottom is {@link #logFloor} of the smallest value plotted. */
    private static LogAxis logAxis(String label, double min) {
        LogAxis a = new LogAxis(label);
        a.setSmallestValue(logFloor(min));
        return a;
    }

    /**
     * The highest power of ten below {@code min} (1e-4 without data): the bottom of a log axis, so
     * that the smallest bar is still drawn.
     */
    static double logFloor(double min) {
        if (!(min > 0) || Double.isInfinite(min)) {
            return 1e-4;
        }
        return Math.pow(10, Math.ceil(Math.log10(min)) - 1);
    }

    private static boolean positive(Double v) {
        return v != null && v > 0;
    }
}
