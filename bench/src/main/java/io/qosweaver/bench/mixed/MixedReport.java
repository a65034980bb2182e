package io.qosweaver.bench.mixed;

import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.mixed.MixedResult.Goal;
import io.qosweaver.bench.mixed.MixedResult.VersionResult;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

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
        doc.image("light-p99-per-second.png", "Light p99 per second of the loaded window (ms, log scale)",
                perSecond(r, MixedApp.LIGHT));
        doc.image("heavy-per-second.png", "Heavy requests completed per second of the loaded window",
                throughputPerSecond(r));
        doc.command(r.command());
        doc.keyValues("Application", r.app());
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.write(dir);
    }

    private static JFreeChart perSecond(MixedResult r, String cls) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (VersionResult v : r.versions().values()) {
            XYSeries s = new XYSeries(v.name());
            for (LoadResult.Sample x : v.timeSeries() == null ? List.<LoadResult.Sample>of() : v.timeSeries()) {
                if (x.name().equals(cls) && x.p99Ms() != null && x.p99Ms() > 0) {
                    s.add(x.offsetS(), x.p99Ms());
                }
            }
            data.addSeries(s);
        }
        JFreeChart c = ChartFactory.createXYLineChart(null, "second of the window", "p99 (ms)", data);
        LogAxis log = new LogAxis("p99 (ms)");
        log.setSmallestValue(1);
        ((XYPlot) c.getPlot()).setRangeAxis(log);
        return c;
    }

    private static JFreeChart throughputPerSecond(MixedResult r) {
        XYSeriesCollection data = new XYSeriesCollection();
        for (VersionResult v : r.versions().values()) {
            XYSeries s = new XYSeries(v.name());
            for (LoadResult.Sample x : v.timeSeries() == null ? List.<LoadResult.Sample>of() : v.timeSeries()) {
                if (x.name().equals(MixedApp.HEAVY)) {
                    s.add(x.offsetS(), x.requests());
                }
            }
            data.addSeries(s);
        }
        return ChartFactory.createXYLineChart(null, "second of the window", "heavy requests", data);
    }

    static List<String[]> versionRows(MixedResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "heavy /s", "heavy / unscheduled", "heavy p50 / p99 / max ms", "heavy errors",
                "light p50 / p99 / max ms", "light p99 / idle", "light errors", "idle light p50 / p99 ms",
                "server CPU cores", "CPU ms per heavy", "other processes' CPU cores (idle / loaded)"});
        for (VersionResult v : r.versions().values()) {
            if (v.error() != null) {
                rows.add(new String[] {v.name(), "FAILED", "", "", "", "", "", "", "", "", "", ""});
                continue;
            }
            ClassResult h = v.heavy();
            ClassResult l = v.light();
            ClassResult i = v.idleLight();
            rows.add(new String[] {v.name(), Format.cell(h.throughputPerS()), Format.cell(v.heavyThroughputToUnscheduled()),
                    triple(h), errors(h), triple(l), Format.cell(v.lightP99ToIdle()), errors(l),
                    i == null ? "-" : Format.cell(i.p50Ms()) + " / " + Format.cell(i.p99Ms()),
                    Format.cell(v.serverCpuCores()), Format.cell(v.serverCpuMsPerHeavy()),
                    Format.cell(v.idleOtherCpuCores()) + " / " + Format.cell(v.otherCpuCores())});
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
