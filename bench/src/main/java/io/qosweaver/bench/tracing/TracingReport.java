package io.qosweaver.bench.tracing;

import io.qosweaver.bench.report.GoalTable;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code index.html} and {@code RESULTS.md} of {@code bench tracing}, from the results alone. */
public final class TracingReport {
    private TracingReport() {
    }

    public static void write(Path dir, TracingResult r) throws IOException {
        ReportDocument doc = new ReportDocument("Tracing: the cost of qosweaver trace on the river monitor's charts");
        doc.heading("What the numbers show").bullets(r.summary());
        List<String> warn = new ArrayList<>();
        r.errors().forEach((k, v) -> warn.add("FAILED (" + k + "): " + v));
        r.goals().stream().filter(g -> Boolean.FALSE.equals(g.met()))
                .forEach(g -> warn.add("Goal NOT met: " + g.goal() + " (" + g.detail() + ")"));
        doc.warnings(warn);
        doc.command(r.command());
        doc.heading("Goal").table(goals(r));
        doc.heading("Ours: overhead per configuration (paired with the tracer-off run of the same repeat)")
                .table(configs(r));
        doc.heading("The thesis' (JIS, LU kernel execution time, 4 threads)").table(thesis(r));
        doc.heading("Every run").table(runs(r));
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.paragraph("Every configuration runs the agent with the river monitor's policy; only the tracer differs. "
                + "A repeat runs every configuration once, each in a process of its own, in an order rotated from one "
                + "repeat to the next; an overhead is a run against the tracer-off run of its own repeat (positive: "
                + "worse with the tracer), given as the median and the range over the repeats. The app runs "
                + "without its collector: the load is charts alone. The thesis "
                + "measured the execution time of a compute kernel; ours is a server's throughput and response "
                + "time under a closed loop of chart clients on a 2-core machine shared with other work, so the "
                + "range of the tracer-off runs themselves (in the summary) bounds what can be resolved.");
        doc.write(dir);
    }

    private static List<String[]> goals(TracingResult r) {
        return GoalTable.of(r.goals(), TracingResult.Goal::goal, TracingResult.Goal::met, TracingResult.Goal::detail, "not shown");
    }

    private static List<String[]> configs(TracingResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"configuration", "levels", "runs", "charts/s (median)", "charts/s (min-max)",
            "mean ms", "p99 ms", "throughput loss % (median)", "(min to max)", "mean response time +% (median)",
            "(min to max)", "trace KiB", "events lost (max)"});
        for (TracingResult.ConfigSummary c : r.configs()) {
            rows.add(new String[] {c.config(), c.levels() == null ? "-" : c.levels(), Integer.toString(c.runs()),
                Format.cell(c.throughputMedianPerS()), Format.cell(c.throughputMinPerS()) + " - "
                        + Format.cell(c.throughputMaxPerS()), Format.cell(c.meanMsMedian()), Format.cell(c.p99MsMedian()),
                Format.cell(c.throughputLossPctMedian()), range(c.throughputLossPctMin(), c.throughputLossPctMax()),
                Format.cell(c.meanIncreasePctMedian()), range(c.meanIncreasePctMin(), c.meanIncreasePctMax()),
                c.traceBytesMedian() == null ? "-" : Long.toString(c.traceBytesMedian() / 1024),
                c.traceLostMax() == null ? "-" : Long.toString(c.traceLostMax())});
        }
        return rows;
    }

    private static String range(Double a, Double b) {
        return a == null ? "-" : Format.cell(a) + " to " + Format.cell(b);
    }

    private static List<String[]> thesis(TracingResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"table", "what", "size", "original ms", "instrumented ms", "overhead %"});
        r.thesis().forEach(t -> rows.add(new String[] {t.table(), t.what(), t.size(), Long.toString(t.originalMs()),
            Long.toString(t.instrumentedMs()), Format.cell(t.overheadPct())}));
        return rows;
    }

    private static List<String[]> runs(TracingResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"repeat", "order", "configuration", "charts", "errors", "charts/s", "mean ms", "p50 ms",
            "p99 ms", "trace KiB", "events", "lost", "log"});
        r.runs().forEach(x -> rows.add(new String[] {Integer.toString(x.repeat()), Integer.toString(x.order()),
            x.config(), Long.toString(x.requests()), Long.toString(x.errors()), Format.cell(x.throughputPerS()),
            Format.cell(x.meanMs()), Format.cell(x.p50Ms()), Format.cell(x.p99Ms()),
            x.traceBytes() == null ? "-" : Long.toString(x.traceBytes() / 1024),
            x.traceEvents() == null ? "-" : Long.toString(x.traceEvents()),
            x.traceLost() == null ? "-" : Long.toString(x.traceLost()), x.log()}));
        return rows;
    }
}
