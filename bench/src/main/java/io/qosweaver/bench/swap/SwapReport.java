package io.qosweaver.bench.swap;

import io.qosweaver.bench.report.GoalTable;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.report.Table;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * {@code index.html} and {@code RESULTS.md} of {@code bench swap}: the goals, the change latency,
 * every change, the deadline figures per policy (phases pooled) and per phase, the accounting of
 * every request, two plots (collection time by start and policy in force; latency per change).
 */
public final class SwapReport {
    private static final String[] METRIC_HEAD = {"collections", "missed", "miss ratio", "collection mean (ms)",
            "collection max (ms)", "collection stddev (ms)", "charts completed", "charts failed", "chart throughput (/s)",
            "chart p50 (ms)", "chart p99 (ms)"};

    private SwapReport() {
    }

    public static void write(Path dir, SwapResult r) throws IOException {
        ReportDocument doc = new ReportDocument("Swap: the river monitor's policy changed at run time under a flash crowd");
        doc.heading("What the numbers show").bullets(r.summary());
        List<String> warn = new ArrayList<>();
        r.errors().forEach((k, v) -> warn.add("FAILED (" + k + "): " + v));
        r.goals().stream().filter(g -> Boolean.FALSE.equals(g.met()))
                .forEach(g -> warn.add("Goal NOT met: " + g.goal() + " (" + g.detail() + ")"));
        doc.warnings(warn);
        doc.command(r.command());
        doc.heading("Goals").table(goals(r));
        doc.heading("Change latency (command sent to answer: the new policy in force), ms").table(latency(r));
        doc.heading("Deadline figures per policy (phases pooled)").table(byPolicy(r));
        doc.heading("Deadline figures per phase").table(phases(r));
        doc.heading("Every change").table(steps(r));
        doc.image("collections.png", "Collection time by start, coloured by the policy in force when it started "
                + "(line: the period, the deadline)", collectionChart(r));
        doc.image("change-latency.png", "Round trip of every change, ms", latencyChart(r));
        doc.keyValues("Accounting of every request", accounting(r.accounting()));
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.paragraph("A phase runs from a change's answer to the next change's; a collection belongs to the phase it "
                + "starts in (it may run on into the next, under another policy), a chart request to the phase it "
                + "ends in. Phases of a few seconds against a period of " + r.parameters().get("period_s")
                + " s hold one collection or none: the per-policy figures are indicative, not a comparison of "
                + "versions (bench deadline runs each version in a process of its own for that). The change latency "
                + "is measured by the harness around the control socket's round trip; the agent's own measure of a "
                + "swap (its answer's 'in N ms') is beside it. The first phase starts under the importance policy "
                + "the agent was started with, after the warm-up. Every collection and every change is in "
                + "results.json.");
        doc.write(dir);
    }

    private static List<String[]> goals(SwapResult r) {
        return GoalTable.of(r.goals(), SwapResult.Goal::goal, SwapResult.Goal::met, SwapResult.Goal::detail, "not measured");
    }

    private static List<String[]> latency(SwapResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"changes", "count", "mean", "p50", "p90", "p99", "max"});
        rows.add(latencyRow("all", r.latency()));
        r.latencyByKind().forEach((k, l) -> rows.add(latencyRow(k, l)));
        List<Double> agent = r.steps().stream().filter(s -> s.agentMs() != null).map(SwapResult.StepResult::agentMs)
                .toList();
        if (!agent.isEmpty()) {
            rows.add(latencyRow("swap, as the agent measured it", SwapAnalysis.latency(agent)));
        }
        return rows;
    }

    private static String[] latencyRow(String label, SwapResult.LatencyStats l) {
        return new String[] {label, Integer.toString(l.count()), Table.cell(l.meanMs()), Table.cell(l.p50Ms()),
                Table.cell(l.p90Ms()), Table.cell(l.p99Ms()), Table.cell(l.maxMs())};
    }

    private static List<String[]> byPolicy(SwapResult r) {
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("policy", "its version in bench deadline", "phases", "seconds"));
        head.addAll(List.of(METRIC_HEAD));
        rows.add(head.toArray(new String[0]));
        r.byPolicy().forEach((p, x) -> {
            List<String> row = new ArrayList<>(List.of(p, version(p), Integer.toString(x.phases()),
                    Table.cell(x.seconds())));
            row.addAll(metricCells(x.metrics()));
            rows.add(row.toArray(new String[0]));
        });
        return rows;
    }

    /** The version of the deadline experiment that runs the same policy from the start, for a reader comparing. */
    static String version(String policy) {
        return switch (policy) {
            case "importance lowLimit=1" -> "qosweaver";
            case "admission lowLimit=1" -> "admission";
            case SwapPlan.NONE -> "original (here with the agent loaded, nothing woven)";
            default -> "none";
        };
    }

    private static List<String[]> phases(SwapResult r) {
        List<String[]> rows = new ArrayList<>();
        List<String> head = new ArrayList<>(List.of("phase", "policy", "from (s)", "to (s)"));
        head.addAll(List.of(METRIC_HEAD));
        rows.add(head.toArray(new String[0]));
        for (SwapResult.PhaseResult p : r.phases()) {
            List<String> row = new ArrayList<>(List.of(Integer.toString(p.index()), p.policy(), Table.cell(p.startS()),
                    Table.cell(p.endS())));
            row.addAll(metricCells(p.metrics()));
            rows.add(row.toArray(new String[0]));
        }
        return rows;
    }

    private static List<String> metricCells(SwapResult.Metrics m) {
        return List.of(Integer.toString(m.collectionCount()), Integer.toString(m.missedCount()),
                Table.cell(m.deadlineMissRatio()), Table.cell(m.collectionTimeMeanMs()),
                Table.cell(m.collectionTimeMaxMs()), Table.cell(m.collectionTimeStddevMs()),
                Long.toString(m.chartCompleted()), Long.toString(m.chartFailed()), Table.cell(m.chartThroughputPerS()),
                Table.cell(m.chartP50Ms()), Table.cell(m.chartP99Ms()));
    }

    private static List<String[]> steps(SwapResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"#", "at (s)", "command", "answer", "round trip (ms)", "agent (ms)", "in force after",
                "as expected"});
        for (SwapResult.StepResult s : r.steps()) {
            rows.add(new String[] {Integer.toString(s.index()), Table.cell(s.offsetS()), s.command(),
                    s.ok() ? "ok" : "FAILED: " + s.message(), Table.cell(s.roundTripMs()), Table.cell(s.agentMs()),
                    s.inForce() == null ? "?" : s.inForce(), s.verified() ? "yes" : "NO (expected " + s.expected() + ")"});
        }
        return rows;
    }

    private static Map<String, Object> accounting(SwapResult.Accounting a) {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        if (a == null) {
            m.put("measured", false);
            return m;
        }
        m.put("sent", a.sent());
        m.put("completed", a.completed());
        m.put("failed", a.failed());
        m.put("http_errors", a.httpErrors());
        m.put("exceptions", a.exceptions());
        m.put("failure_kinds", a.failureKinds());
        m.put("lost", a.lost());
        m.put("every_client_got_its_last_answer", a.drained());
        m.put("scheduler_parked_threads_at_end", a.suspendedThreads());
        m.put("threads_parked_in_qosweaver_code_thread_dump", a.parkedInThreadDump());
        m.put("seconds_after_load_stop", a.waitedS());
        m.put("policy_at_end", a.policyAtEnd());
        m.put("app_alive", a.appAlive());
        return m;
    }

    static JFreeChart collectionChart(SwapResult r) {
        XYSeriesCollection d = new XYSeriesCollection();
        Map<String, XYSeries> by = new java.util.LinkedHashMap<>();
        for (SwapResult.PhaseResult p : r.phases()) {
            XYSeries s = by.computeIfAbsent(p.policy(), XYSeries::new);
            for (ScenarioResult.Collection c : p.collections()) {
                if (c.durationMs() != null) {
                    s.add(c.offsetS(), c.durationMs() / 1000.0);
                }
            }
        }
        by.values().forEach(d::addSeries);
        JFreeChart c = ChartFactory.createScatterPlot("Collection time by start and policy in force",
                "start (s from the measured load's start)", "collection time (s)", d, PlotOrientation.VERTICAL, true,
                false, false);
        XYPlot plot = c.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        if (r.parameters().get("period_s") instanceof Number period) {
            ValueMarker m = new ValueMarker(period.doubleValue(), Color.RED, new BasicStroke(1.5f));
            plot.addRangeMarker(m);
        }
        for (SwapResult.StepResult s : r.steps()) {
            plot.addDomainMarker(new ValueMarker(s.offsetS(), Color.GRAY, new BasicStroke(0.5f)));
        }
        return c;
    }

    static JFreeChart latencyChart(SwapResult r) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (SwapResult.StepResult s : r.steps()) {
            d.addValue(s.roundTripMs(), s.kind(), "#" + s.index());
        }
        JFreeChart c = ChartFactory.createBarChart("Change latency", "change", "round trip (ms)", d,
                PlotOrientation.VERTICAL, true, false, false);
        c.getCategoryPlot().setBackgroundPaint(Color.WHITE);
        c.getCategoryPlot().setRangeGridlinePaint(Color.LIGHT_GRAY);
        return c;
    }
}
