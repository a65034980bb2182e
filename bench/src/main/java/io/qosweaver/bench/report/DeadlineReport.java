package io.qosweaver.bench.report;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.StatisticalBarRenderer;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;

import io.qosweaver.bench.experiment.Deadline;
import io.qosweaver.bench.river.ScenarioResult;

/**
 * {@code index.html} and {@code RESULTS.md} of the {@code deadline} experiment: the generated
 * summary, the paper's Table 2 (miss ratio per chart window and version), the main metrics with
 * their ratio to {@code original}, Fig. 14 (collection time per period, one plot per window),
 * Fig. 15/17 (mean collection time with a one-stddev bar, per window and version), chart
 * throughput per window. JFreeChart PNGs, embedded as base64 (readable offline) and written beside.
 */
public final class DeadlineReport {
    private static final String[][] MAIN = {
            {"deadline_miss_ratio", "deadline miss ratio"},
            {"collection_time_mean_ms", "collection time mean (ms)"},
            {"collection_time_max_ms", "collection time max (ms)"},
            {"collection_time_stddev_ms", "collection time stddev (ms)"},
            {"chart_throughput_per_s", "chart throughput (/s)"},
            {"chart_p50_ms", "chart p50 (ms)"},
            {"chart_p99_ms", "chart p99 (ms)"},
            {"suspension_time_mean_ms", "time to suspend mean (ms)"},
            {"suspension_time_p99_ms", "time to suspend p99 (ms)"}};

    private DeadlineReport() {
    }

    public static void write(Path dir, Deadline.Result r) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Files.createDirectories(dir);
        Map<String, Map<String, Object>> json = flat(r);
        List<String> hours = hours(r);
        Map<String, byte[]> images = new LinkedHashMap<>();
        Map<String, String> captions = new LinkedHashMap<>();
        for (String h : hours) {
            Map<String, ScenarioResult> per = new LinkedHashMap<>();
            r.versions().forEach((v, vr) -> {
                Deadline.Window w = vr.byHours().get(h);
                if (w != null && w.detail() != null) {
                    per.put(v, w.detail());
                }
            });
            if (!per.isEmpty()) {
                JFreeChart c = HtmlReport.collectionChart(per);
                c.setTitle("Collection time per period, " + h + " h charts (Fig. 14)");
                String f = "collections-" + h + "h.png";
                images.put(f, HtmlReport.png(c));
                captions.put(f, "Collection time per period, " + h + " h chart window (the period is the deadline)");
            }
        }
        images.put("collection-time-mean.png", HtmlReport.png(meanChart(r, hours)));
        captions.put("collection-time-mean.png", "Mean collection time per version and chart window, bars = one "
                + "standard deviation (Fig. 15/17)");
        images.put("chart-throughput.png", HtmlReport.png(throughputChart(r, hours)));
        captions.put("chart-throughput.png", "Chart throughput per version and chart window");

        StringBuilder h = new StringBuilder();
        String title = "Deadline: the river monitor's collection deadline under a flash crowd, per version";
        h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(esc(title))
                .append("</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;}"
                        + "table{border-collapse:collapse;margin-bottom:1em}td,th{border:1px solid #bbb;padding:4px 10px;"
                        + "text-align:right}th:first-child,td:first-child{text-align:left}img{max-width:100%}"
                        + ".bad{color:#b00}</style></head><body>\n");
        h.append("<h1>").append(esc(title)).append("</h1>\n");
        h.append("<h2>What the numbers show</h2>\n<ul>");
        r.summary().forEach(s -> h.append("<li>").append(esc(s)).append("</li>"));
        if (!r.errors().isEmpty()) {
            h.append("<li class=\"bad\">FAILED runs: ").append(esc(r.errors().toString())).append("</li>");
        }
        h.append("</ul>\n<p>Command: <code>").append(esc(r.command())).append("</code></p>\n");
        h.append("<h2>Deadline miss ratio per chart window (Table 2)</h2>\n");
        table(h, missTable(r, hours));
        h.append("<h2>Main metrics (aggregated over the windows)</h2>\n");
        table(h, mainTable(json));
        h.append("<h2>Ratio to original (same run)</h2>\n");
        table(h, ratioTable(r));
        h.append("<h2>Mechanism</h2>\n");
        table(h, mechanismTable(r));
        for (Map.Entry<String, byte[]> e : images.entrySet()) {
            Files.write(dir.resolve(e.getKey()), e.getValue());
            h.append("<h2>").append(esc(captions.get(e.getKey()))).append("</h2>\n<img alt=\"").append(e.getKey())
                    .append("\" src=\"data:image/png;base64,").append(Base64.getEncoder().encodeToString(e.getValue()))
                    .append("\">\n");
        }
        h.append("<h2>Version order per window</h2>\n<pre>").append(esc(Json.write(r.order()))).append("</pre>\n");
        h.append("<h2>Parameters</h2>\n<pre>").append(esc(Json.write(r.parameters()))).append("</pre>\n");
        h.append("<h2>Machine</h2>\n<pre>").append(esc(Json.write(r.machine()))).append("</pre>\n");
        h.append("<p>Aggregation over windows: collections pooled (miss ratio = missed / all; mean, max, stddev over "
                + "all durations); chart throughput, p50 and p99 are means of the windows' values; time to suspend: "
                + "mean weighted by count, p99 = the largest window's. Raw numbers, every collection: "
                + "<a href=\"results.json\">results.json</a>.</p>\n</body></html>\n");
        Files.writeString(dir.resolve("index.html"), h.toString());

        StringBuilder m = new StringBuilder("# ").append(title).append("\n\n");
        r.summary().forEach(s -> m.append("- ").append(s).append('\n'));
        if (!r.errors().isEmpty()) {
            m.append("- **Failed runs:** ").append(r.errors()).append('\n');
        }
        m.append("\nCommand (from the project root):\n\n```\n").append(r.command()).append("\n```\n\n");
        m.append("## Deadline miss ratio per chart window (Table 2)\n\n");
        md(m, missTable(r, hours));
        m.append("\n## Main metrics (aggregated over the windows)\n\n");
        md(m, mainTable(json));
        m.append("\n## Ratio to original\n\n");
        md(m, ratioTable(r));
        m.append("\n## Mechanism\n\n");
        md(m, mechanismTable(r));
        m.append("\n## Parameters\n\n");
        r.parameters().forEach((k, v) -> m.append("- ").append(k).append(": ").append(v).append('\n'));
        m.append("\n## Machine\n\n");
        r.machine().forEach((k, v) -> m.append("- ").append(k).append(": ").append(v).append('\n'));
        Files.writeString(dir.resolve("RESULTS.md"), m.toString());
    }

    /** The versions as the JSON has them (snake_case maps), to read metrics by name. */
    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> flat(Deadline.Result r) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        r.versions().forEach((v, vr) -> out.put(v, Json.MAPPER.convertValue(vr, Map.class)));
        return out;
    }

    private static List<String> hours(Deadline.Result r) {
        List<String> out = new ArrayList<>();
        r.versions().values().forEach(v -> v.byHours().keySet().forEach(h -> {
            if (!out.contains(h)) {
                out.add(h);
            }
        }));
        return out;
    }

    private static List<String[]> missTable(Deadline.Result r, List<String> hours) {
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("version"));
        hours.forEach(x -> head.add(x + " h"));
        head.add("all");
        rows.add(head.toArray(new String[0]));
        r.versions().forEach((v, vr) -> {
            List<String> row = new ArrayList<>(List.of(v));
            for (String x : hours) {
                Deadline.Window w = vr.byHours().get(x);
                row.add(w == null || w.metrics() == null ? "-" : Table.cell(w.metrics().deadlineMissRatio())
                        + " (" + w.metrics().missedCount() + "/" + w.metrics().collectionCount() + ")");
            }
            row.add(Table.cell(vr.deadlineMissRatio()) + " (" + vr.missedCount() + "/" + vr.collectionCount() + ")");
            rows.add(row.toArray(new String[0]));
        });
        return rows;
    }

    private static List<String[]> mainTable(Map<String, Map<String, Object>> json) {
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("metric"));
        head.addAll(json.keySet());
        rows.add(head.toArray(new String[0]));
        for (String[] m : MAIN) {
            List<String> row = new ArrayList<>(List.of(m[1]));
            json.values().forEach(v -> row.add(Table.cell(v.get(m[0]))));
            rows.add(row.toArray(new String[0]));
        }
        return rows;
    }

    private static List<String[]> ratioTable(Deadline.Result r) {
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("metric"));
        head.addAll(r.versions().keySet());
        rows.add(head.toArray(new String[0]));
        for (String[] m : MAIN) {
            if (m[0].startsWith("suspension")) {
                continue;
            }
            List<String> row = new ArrayList<>(List.of(m[1]));
            r.versions().values().forEach(v -> row.add(v.ratioToOriginal() == null ? "-"
                    : Table.cell(v.ratioToOriginal().get(m[0]))));
            rows.add(row.toArray(new String[0]));
        }
        return rows;
    }

    private static List<String[]> mechanismTable(Deadline.Result r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "JVM flags", "policy", "mechanism effective", "reason"});
        r.versions().forEach((v, vr) -> rows.add(new String[] {v, String.join(" ", vr.jvmFlags()),
                vr.policy() == null ? "-" : vr.policy(),
                vr.mechanismEffective() == null ? "n/a" : vr.mechanismEffective().toString(),
                vr.mechanismReason() == null ? "" : vr.mechanismReason()}));
        return rows;
    }

    static JFreeChart meanChart(Deadline.Result r, List<String> hours) {
        DefaultStatisticalCategoryDataset d = new DefaultStatisticalCategoryDataset();
        for (String x : hours) {
            r.versions().forEach((v, vr) -> {
                Deadline.Window w = vr.byHours().get(x);
                if (w != null && w.metrics() != null && w.metrics().collectionTimeMeanMs() != null) {
                    d.add(w.metrics().collectionTimeMeanMs() / 1000.0,
                            nz(w.metrics().collectionTimeStddevMs()) / 1000.0, x + " h", v);
                }
            });
        }
        r.versions().forEach((v, vr) -> {
            if (vr.collectionTimeMeanMs() != null) {
                d.add(vr.collectionTimeMeanMs() / 1000.0, nz(vr.collectionTimeStddevMs()) / 1000.0, "all", v);
            }
        });
        CategoryPlot plot = new CategoryPlot(d, new CategoryAxis("version"), new NumberAxis("collection time (s)"),
                new StatisticalBarRenderer());
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return new JFreeChart("Mean collection time (bars: one stddev)", JFreeChart.DEFAULT_TITLE_FONT, plot, true);
    }

    static JFreeChart throughputChart(Deadline.Result r, List<String> hours) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (String x : hours) {
            r.versions().forEach((v, vr) -> {
                Deadline.Window w = vr.byHours().get(x);
                if (w != null && w.metrics() != null) {
                    d.addValue(w.metrics().chartThroughputPerS(), x + " h", v);
                }
            });
        }
        JFreeChart c = ChartFactory.createBarChart("Chart throughput", "version", "charts per second", d,
                PlotOrientation.VERTICAL, true, false, false);
        c.getCategoryPlot().setBackgroundPaint(Color.WHITE);
        c.getCategoryPlot().setRangeGridlinePaint(Color.LIGHT_GRAY);
        return c;
    }

    private static double nz(Double d) {
        return d == null ? 0 : d;
    }

    private static void table(StringBuilder h, List<String[]> rows) {
        h.append("<table>");
        for (int i = 0; i < rows.size(); i++) {
            h.append("<tr>");
            for (String c : rows.get(i)) {
                String tag = i == 0 ? "th" : "td";
                h.append('<').append(tag).append('>').append(esc(c)).append("</").append(tag).append('>');
            }
            h.append("</tr>\n");
        }
        h.append("</table>\n");
    }

    private static void md(StringBuilder m, List<String[]> rows) {
        for (int i = 0; i < rows.size(); i++) {
            m.append('|');
            for (String c : rows.get(i)) {
                m.append(' ').append(c.replace("|", "\\|")).append(" |");
            }
            m.append('\n');
            if (i == 0) {
                m.append('|');
                for (int k = 0; k < rows.get(0).length; k++) {
                    m.append("---|");
                }
                m.append('\n');
            }
        }
    }

    private static String esc(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
