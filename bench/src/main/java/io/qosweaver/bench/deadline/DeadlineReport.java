package io.qosweaver.bench.deadline;

import io.qosweaver.bench.app.RunValidity;

import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.app.ThreadCpu;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.report.ScenarioCharts;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.Machine;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
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

    public static void write(Path dir, DeadlineResult r) throws IOException {
        Map<String, Map<String, Object>> json = flat(r);
        List<String> hours = hours(r);
        ReportDocument doc = new ReportDocument(
                "Deadline: the river monitor's collection deadline under a flash crowd, per version");
        doc.heading("What the numbers show").bullets(r.summary());
        if (!r.errors().isEmpty()) {
            doc.warnings(List.of("FAILED runs: " + r.errors()));
        }
        List<String> invalid = new java.util.ArrayList<>();
        r.versions().forEach((v, vr) -> vr.byHours().forEach((h, w) -> {
            String why = RunValidity.of(w.detail());
            if (why != null) {
                invalid.add(v + ", " + h + " h charts: figures INVALID, " + why);
            }
        }));
        doc.warnings(invalid);
        doc.command(r.command());
        doc.heading("Deadline miss ratio per chart window (Table 2)").table(missTable(r, hours));
        doc.heading("Main metrics (aggregated over the windows)").table(mainTable(json));
        if (r.versions().values().stream().anyMatch(v -> v.spread() != null)) {
            doc.heading("Spread over the rounds (smallest and largest of the rounds' aggregates)")
                    .table(spreadTable(r));
        }
        doc.heading("Ratio to original (same run)").table(ratioTable(r));
        doc.heading("Mechanism").table(mechanismTable(r));
        List<String[]> cpu = threadCpuTable(r);
        if (cpu.size() > 1) {
            doc.heading("The app's CPU by thread group (cores: mean over the window, and the largest second)")
                    .table(cpu)
                    .paragraph("Sampled once a second from /proc: a thread's group is its name without its serial "
                            + "(qtp: Jetty's request threads); gc and jit are the JVM's collector and compiler threads; "
                            + "other sums the groups beyond the busiest " + ThreadCpu.TOP + ". Every second is in "
                            + "results.json (thread_cpu).");
        }
        doc.heading("Plots");
        for (String h : hours) {
            Map<String, ScenarioResult> per = new LinkedHashMap<>();
            r.versions().forEach((v, vr) -> {
                DeadlineResult.Window w = vr.byHours().get(h);
                if (w != null && w.detail() != null) {
                    per.put(v, w.detail());
                }
            });
            if (!per.isEmpty()) {
                JFreeChart c = ScenarioCharts.collectionChart(per);
                c.setTitle("Collection time per period, " + label(h) + " charts (Fig. 14)");
                doc.image("collections-" + h.replace('#', '-') + "h.png", "Collection time per period, " + label(h)
                        + " chart window (the period is the deadline)", c);
            }
        }
        doc.image("collection-time-mean.png", "Mean collection time per version and chart window, bars = one "
                + "standard deviation (Fig. 15/17)", meanChart(r, hours));
        doc.image("chart-throughput.png", "Chart throughput per version and chart window", throughputChart(r, hours));
        doc.heading("Version order per window").table(orderTable(r));
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.paragraph("Aggregation over windows: collections pooled (miss ratio = missed / all; mean, max, stddev "
                + "over all durations); chart throughput, p50 and p99 are means of the windows' values; time to "
                + "suspend: mean weighted by count, p99 = the largest window's. Every collection is in "
                + "results.json.");
        doc.write(dir);
    }

    private static List<String[]> orderTable(DeadlineResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"window", "order"});
        List<String> hours = hours(r);
        for (int i = 0; i < r.order().size(); i++) {
            rows.add(new String[] {i < hours.size() ? label(hours.get(i)) : Integer.toString(i),
                    String.join(", ", r.order().get(i))});
        }
        return rows;
    }

    /** The versions as the JSON has them (snake_case maps), to read metrics by name. */
    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> flat(DeadlineResult r) {
        Map<String, Map<String, Object>> out = new LinkedHashMap<>();
        r.versions().forEach((v, vr) -> out.put(v, JsonWriter.MAPPER.convertValue(vr, Map.class)));
        return out;
    }

    private static List<String> hours(DeadlineResult r) {
        List<String> out = new ArrayList<>();
        r.versions().values().forEach(v -> v.byHours().keySet().forEach(h -> {
            if (!out.contains(h)) {
                out.add(h);
            }
        }));
        return out;
    }

    private static List<String[]> missTable(DeadlineResult r, List<String> hours) {
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("version"));
        hours.forEach(x -> head.add(label(x)));
        head.add("all");
        rows.add(head.toArray(new String[0]));
        r.versions().forEach((v, vr) -> {
            List<String> row = new ArrayList<>(List.of(v));
            for (String x : hours) {
                DeadlineResult.Window w = vr.byHours().get(x);
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
            // no episode (no mean): a p99 of nothing is no time, whatever an old results.json says
            json.values().forEach(v -> row.add(m[0].equals("suspension_time_p99_ms") && v.get("suspension_time_mean_ms") == null
                    ? "-" : Table.cell(v.get(m[0]))));
            rows.add(row.toArray(new String[0]));
        }
        return rows;
    }

    /** A window's key as a reader sees it: "12 h", or "12 h #2" for its second round. */
    static String label(String key) {
        int i = key.indexOf('#');
        return i < 0 ? key + " h" : key.substring(0, i) + " h #" + key.substring(i + 1);
    }

    private static List<String[]> spreadTable(DeadlineResult r) {
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("metric"));
        head.addAll(r.versions().keySet());
        rows.add(head.toArray(new String[0]));
        for (String[] m : MAIN) {
            if (r.versions().values().stream().noneMatch(v -> v.spread() != null && v.spread().containsKey(m[0]))) {
                continue; // the time to suspend has no spread (not a main metric)
            }
            List<String> row = new ArrayList<>(List.of(m[1]));
            r.versions().values().forEach(v -> {
                List<Double> mm = v.spread() == null ? null : v.spread().get(m[0]);
                row.add(mm == null ? "-" : Table.cell(mm.get(0)) + " - " + Table.cell(mm.get(1)));
            });
            rows.add(row.toArray(new String[0]));
        }
        return rows;
    }

    private static List<String[]> ratioTable(DeadlineResult r) {
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

    /** One row per version and window, one column per thread group seen in any window (busiest first). */
    static List<String[]> threadCpuTable(DeadlineResult r) {
        Map<String, Double> total = new LinkedHashMap<>();
        r.versions().values().forEach(vr -> vr.byHours().values().forEach(w -> {
            if (w.detail() != null) {
                w.detail().threadCpu().forEach(g -> total.merge(g.name(), g.cores(), Double::sum));
            }
        }));
        List<String> groups = new ArrayList<>(total.keySet());
        groups.remove(ThreadCpu.OTHER);
        groups.sort((a, b) -> Double.compare(total.get(b), total.get(a)));
        if (total.containsKey(ThreadCpu.OTHER)) {
            groups.add(ThreadCpu.OTHER);
        }
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("version", "window"));
        head.addAll(groups);
        rows.add(head.toArray(new String[0]));
        r.versions().forEach((v, vr) -> vr.byHours().forEach((h, w) -> {
            if (w.detail() == null || w.detail().threadCpu().isEmpty()) {
                return;
            }
            List<String> row = new ArrayList<>(List.of(v, label(h)));
            for (String g : groups) {
                row.add(w.detail().threadCpu().stream().filter(x -> x.name().equals(g)).findFirst()
                        .map(x -> String.format(java.util.Locale.ROOT, "%.2f (%.2f)", x.cores(),
                                x.perSecond().stream().mapToDouble(Double::doubleValue).max().orElse(0)))
                        .orElse("-"));
            }
            rows.add(row.toArray(new String[0]));
        }));
        return rows;
    }

    private static List<String[]> mechanismTable(DeadlineResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "JVM flags", "policy", "mechanism effective", "reason"});
        r.versions().forEach((v, vr) -> rows.add(new String[] {v, String.join(" ", vr.jvmFlags()),
                vr.policy() == null ? "-" : vr.policy(),
                vr.mechanismEffective() == null ? "n/a" : vr.mechanismEffective().toString(),
                vr.mechanismReason() == null ? "" : vr.mechanismReason()}));
        return rows;
    }

    static JFreeChart meanChart(DeadlineResult r, List<String> hours) {
        DefaultStatisticalCategoryDataset d = new DefaultStatisticalCategoryDataset();
        for (String x : hours) {
            r.versions().forEach((v, vr) -> {
                DeadlineResult.Window w = vr.byHours().get(x);
                if (w != null && w.metrics() != null && w.metrics().collectionTimeMeanMs() != null) {
                    d.add(w.metrics().collectionTimeMeanMs() / 1000.0,
                            nz(w.metrics().collectionTimeStddevMs()) / 1000.0, label(x), v);
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

    static JFreeChart throughputChart(DeadlineResult r, List<String> hours) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (String x : hours) {
            r.versions().forEach((v, vr) -> {
                DeadlineResult.Window w = vr.byHours().get(x);
                if (w != null && w.metrics() != null) {
                    d.addValue(w.metrics().chartThroughputPerS(), label(x), v);
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
}
