package io.qosweaver.bench.report;

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

import io.qosweaver.bench.river.ScenarioResult;

/**
 * A self-contained {@code index.html}: the side-by-side table and JFreeChart plots embedded as
 * base64 PNGs (readable offline), the PNGs also written beside it.
 */
public final class HtmlReport {
    private static final int W = 900;
    private static final int H = 420;

    private HtmlReport() {
    }

    /** {@code versions}: label to result, in column order. */
    public static void write(Path dir, String title, String intro, Map<String, ScenarioResult> versions,
                             Map<String, Object> parameters, Map<String, Object> machine) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(dir);
        Map<String, byte[]> images = new LinkedHashMap<>();
        images.put("collections.png", png(collectionChart(versions)));
        images.put("chart-latency.png", png(latencyChart(versions)));
        images.put("chart-throughput.png", png(throughputChart(versions)));
        JFreeChart gauge = gaugeChart(versions);
        if (gauge != null) {
            images.put("running-chart-threads.png", png(gauge));
        }
        StringBuilder h = new StringBuilder();
        h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(esc(title))
                .append("</title>\n<style>body{font-family:sans-serif;max-width:960px;margin:2em auto;}"
                        + "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:4px 10px;text-align:right}"
                        + "th:first-child,td:first-child{text-align:left}img{max-width:100%}</style></head><body>\n");
        h.append("<h1>").append(esc(title)).append("</h1>\n<p>").append(esc(intro)).append("</p>\n");
        h.append("<h2>Results</h2>\n<table><tr><th>metric</th>");
        versions.keySet().forEach(v -> h.append("<th>").append(esc(v)).append("</th>"));
        h.append("</tr>\n");
        for (String[] row : Table.rows(versions)) {
            h.append("<tr>");
            for (String cell : row) {
                h.append("<td>").append(esc(cell)).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
        for (Map.Entry<String, byte[]> e : images.entrySet()) {
            Files.write(dir.resolve(e.getKey()), e.getValue());
            h.append("<h2>").append(esc(caption(e.getKey()))).append("</h2>\n<img alt=\"").append(e.getKey())
                    .append("\" src=\"data:image/png;base64,").append(Base64.getEncoder().encodeToString(e.getValue()))
                    .append("\">\n");
        }
        h.append("<h2>Parameters</h2>\n<pre>").append(esc(Json.write(parameters))).append("</pre>\n");
        h.append("<h2>Machine</h2>\n<pre>").append(esc(Json.write(machine))).append("</pre>\n");
        h.append("<p>Raw numbers: <a href=\"results.json\">results.json</a>.</p>\n</body></html>\n");
        Files.writeString(dir.resolve("index.html"), h.toString());
    }

    private static String caption(String file) {
        switch (file) {
            case "collections.png": return "Collection time per period (the period is the deadline)";
            case "chart-latency.png": return "Chart latency";
            case "chart-throughput.png": return "Chart throughput";
            default: return "Running low-importance (chart) threads";
        }
    }

    static JFreeChart collectionChart(Map<String, ScenarioResult> versions) {
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
}
