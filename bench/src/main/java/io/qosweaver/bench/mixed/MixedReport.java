package io.qosweaver.bench.mixed;

import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.mixed.MixedResult.Goal;
import io.qosweaver.bench.mixed.MixedResult.VersionResult;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code index.html} and {@code RESULTS.md} of {@code bench mixed}, from the results alone. */
public final class MixedReport {
    private MixedReport() {
    }

    public static void write(MixedResult r, Path dir) throws IOException {
        ReportDocument doc = new ReportDocument("Mixed load on " + r.app().get("description"));
        doc.heading("What the numbers show").bullets(r.summary());
        List<String> failed = r.goals().stream().filter(g -> Boolean.FALSE.equals(g.met()))
                .map(g -> g.version() + ": " + g.goal() + " not met").toList();
        if (!failed.isEmpty()) {
            doc.warnings(failed);
        }
        doc.heading("Per version (loaded window)").table(versionRows(r));
        doc.paragraph("Heavy: closed-loop clients; light: an open-loop stream, latency from each request's intended "
                + "start (coordinated omission included). Errors are failed or refused requests (a limiter's 429, a "
                + "QoS handler's 503) and open-loop starts that found the in-flight cap reached (overflow); they are not "
                + "in the latency percentiles. Server CPU: utime + stime of the server process from /proc over the "
                + "window, in cores.");
        doc.heading("Goals (issue 13)").table(goalRows(r.goals()));
        doc.command(r.command());
        doc.keyValues("Application", r.app());
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.write(dir);
    }

    static List<String[]> versionRows(MixedResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "heavy /s", "heavy / unscheduled", "heavy p50 / p99 / max ms", "heavy errors",
                "light p50 / p99 / max ms", "light p99 / idle", "light errors", "idle light p50 / p99 ms",
                "server CPU cores", "CPU ms per heavy"});
        for (VersionResult v : r.versions().values()) {
            if (v.error() != null) {
                rows.add(new String[] {v.name(), "FAILED", "", "", "", "", "", "", "", "", ""});
                continue;
            }
            ClassResult h = v.heavy();
            ClassResult l = v.light();
            ClassResult i = v.idleLight();
            rows.add(new String[] {v.name(), Format.cell(h.throughputPerS()), Format.cell(v.heavyThroughputToUnscheduled()),
                    triple(h), errors(h), triple(l), Format.cell(v.lightP99ToIdle()), errors(l),
                    i == null ? "-" : Format.cell(i.p50Ms()) + " / " + Format.cell(i.p99Ms()),
                    Format.cell(v.serverCpuCores()), Format.cell(v.serverCpuMsPerHeavy())});
        }
        return rows;
    }

    private static String triple(ClassResult c) {
        return Format.cell(c.p50Ms()) + " / " + Format.cell(c.p99Ms()) + " / " + Format.cell(c.maxMs());
    }

    private static String errors(ClassResult c) {
        return c.errors() == 0 ? "0" : c.errors() + " " + c.errorKinds();
    }

    static List<String[]> goalRows(List<Goal> goals) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "goal", "value", "target", "met"});
        for (Goal g : goals) {
            rows.add(new String[] {g.version(), g.goal(), Format.cell(g.value()), g.target(),
                    g.met() == null ? "not measured" : g.met() ? "yes" : "NO"});
        }
        return rows;
    }
}
