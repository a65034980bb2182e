package io.qosweaver.bench.report;

import io.qosweaver.bench.app.ScenarioResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The JFreeChart plots of runs of the river monitor side by side, and PNG encoding. */
public final class ScenarioCharts {
    private static final int W = 900;
    private static final int H = 420;

    private ScenarioCharts() {
    }

    public static JFreeChart collectionChart(Map<String, ScenarioResult> versions) {
        XYSeriesCollection data = new XYSeriesCollection();
        double period = 0;
        for (Map.Entry<String, ScenarioResult> e : versions.entrySet()) {
            XYSeries s = new XYSeries(e.getKey());
            List<ScenarioResult.Collection> cs = e.getValue().collections();
            for (int i = 0; i < cs.size(); i++) {
                ScenarioResult.Collection c = cs.get(i);
                if (c.durationMs() != null) {
                    s.add(i + 1, c.durationMs() / 1000.0);
                }
            }
            data.addSeries(s);
            period = Math.max(period, e.getValue().periodS());
        }
        JFreeChart chart = ChartFactory.createXYLineChart("Collection time per period", "collection (in order of start)",
                "collection time (s)", data, PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        plot.setRenderer(r);
        ValueMarker deadline = new ValueMarker(period, Color.RED, new BasicStroke(2f, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 10f, new float[] {8f, 6f}, 0f));
        deadline.setLabel("deadline = period (" + period + " s)");
        deadline.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        deadline.setLabelAnchor(RectangleAnchor.TOP_LEFT);
        deadline.setLabelTextAnchor(TextAnchor.BOTTOM_LEFT);
        plot.addRangeMarker(deadline);
        ((NumberAxis) plot.getDomainAxis()).setStandardTickUnits(NumberAxis.createIntegerTickUnits());
        double top = Math.max(period * 1.2, plot.getRangeAxis().getUpperBound());
        plot.getRangeAxis().setRange(0, top);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return chart;
    }

    static JFreeChart latencyChart(Map<String, ScenarioResult> versions) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        versions.forEach((v, r) -> {
            d.addValue(r.chartP50Ms(), "p50", v);
            d.addValue(r.chartP99Ms(), "p99", v);
        });
        JFreeChart c = ChartFactory.createBarChart("Chart response time", "", "ms", d);
        style(c.getCategoryPlot());
        return c;
    }

    static JFreeChart throughputChart(Map<String, ScenarioResult> versions) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        versions.forEach((v, r) -> d.addValue(r.chartThroughputPerS(), "charts/s", v));
        JFreeChart c = ChartFactory.createBarChart("Chart throughput", "", "charts per second", d);
        style(c.getCategoryPlot());
        return c;
    }

    static JFreeChart gaugeChart(Map<String, ScenarioResult> versions) {
        XYSeriesCollection data = new XYSeriesCollection();
        versions.forEach((v, r) -> {
            if (!r.runningChartThreads().isEmpty()) {
                XYSeries s = new XYSeries(v);
                r.runningChartThreads().forEach(g -> s.add(g.offsetS(), g.value()));
                data.addSeries(s);
            }
        });
        if (data.getSeriesCount() == 0) {
            return null;
        }
        JFreeChart c = ChartFactory.createXYLineChart("Running chart threads (agent gauge, sampled about once a second)",
                "time in window (s)", "threads", data, PlotOrientation.VERTICAL, true, false, false);
        c.getXYPlot().setRenderer(new XYStepRenderer());
        c.getXYPlot().setBackgroundPaint(Color.WHITE);
        return c;
    }

    private static void style(CategoryPlot p) {
        p.setBackgroundPaint(Color.WHITE);
        p.setRangeGridlinePaint(Color.LIGHT_GRAY);
    }

    static byte[] png(JFreeChart chart) throws IOException {
        BufferedImage img = chart.createBufferedImage(W, H);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ImageIO.write(img, "png", out);
        return out.toByteArray();
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /**
     * Running threads of the {@code low} class and whether the {@code high} class runs (x 10), over
     * a window, from the scheduler's timeline: every change, as a step plot (the paper's Fig. 16, 23).
     */
    public static JFreeChart runningTimelineChart(String title, ScenarioResult s, String high, String low) {
        XYSeries chart = new XYSeries("running " + low + " threads");
        XYSeries collector = new XYSeries(high + " running (x 10)");
        double end = s.windowSeconds();
        for (ScenarioResult.TimelinePoint p : s.runningTimeline()) {
            if (p.taskClass().equals(low)) {
                chart.add(p.offsetS(), p.running());
            } else if (p.taskClass().equals(high)) {
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
        JFreeChart c = ChartFactory.createXYLineChart(title, "time in window (s)", "threads", data,
                PlotOrientation.VERTICAL, true, false, false);
        XYPlot plot = c.getXYPlot();
        plot.setRenderer(new XYStepRenderer());
        plot.getRenderer().setSeriesPaint(0, new Color(0x1f77b4));
        plot.getRenderer().setSeriesPaint(1, new Color(0xd62728));
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return c;
    }
}
