package io.qosweaver.bench.mixed;

import io.qosweaver.bench.mixed.MixedPairedResult.PairGoal;
import io.qosweaver.bench.mixed.MixedPairedResult.Version;
import io.qosweaver.bench.mixed.MixedPairedResult.Window;
import io.qosweaver.bench.mixed.MixedResult.Goal;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code index.html} and {@code RESULTS.md} of {@code bench mixed --paired}: each version on over off in its process. */
public final class MixedPairedReport {
    private MixedPairedReport() {
    }

    public static void write(MixedPairedResult r, Path dir) throws IOException {
        ReportDocument doc = new ReportDocument("Mixed load on " + r.app().get("description") + ", " + r.pairs()
                + " pair(s) of windows per process");
        doc.heading("What the numbers show").bullets(r.summary());
        doc.heading("Per version: median [range] over the pairs, on over off in the same process").table(versionRows(r));
        doc.paragraph("Each version ran in one process of its own. Its loaded windows alternate between the version "
                + "switched off (the unscheduled app in the same process: QoSWeaver unwoven, a peer bypassed) and on, "
                + "off-on then on-off; each window comes after the full load for the warm-up, unmeasured. Each ratio is "
                + "one window on over the other window of its pair, so the process's own speed (two processes of one "
                + "jar differ here by up to 40 % in CPU per request) cancels out. The idle reference is the median, "
                + "over the run's processes, of the idle light p99 measured switched off at the end of each. The median "
                + "is the nearest-rank one (with 2 values, the lower).");
        doc.heading("Goals (issue 13)").table(goalRows(r));
        doc.heading("Goals pair by pair").table(pairGoalRows(r));
        doc.heading("Every window, in the order run").table(windowRows(r));
        doc.command(r.command());
        doc.keyValues("Application", r.app());
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.write(dir);
    }

    static List<String[]> versionRows(MixedPairedResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "heavy on / off", "heavy /s on", "heavy /s off", "light p99 on (ms)",
            "light p99 off (ms)", "light p99 on / idle", "CPU per heavy on / off", "errors on", "own idle p99 (ms)",
            "others' CPU, most in a window"});
        for (Version v : r.versions().values()) {
            rows.add(new String[] {v.name(), v.heavyOnToOff().cell(), v.heavyPerSOn().cell(), v.heavyPerSOff().cell(),
                v.lightP99On().cell(), v.lightP99Off().cell(), v.lightP99OnToIdle().cell(),
                v.cpuMsPerHeavyOnToOff().cell(), v.errorsOn() == null ? "-" : Long.toString(v.errorsOn()),
                v.idleLight() == null ? "-" : Format.cell(v.idleLight().p99Ms()), Format.cell(v.otherCpuCoresMax())});
        }
        return rows;
    }

    static List<String[]> goalRows(MixedPairedResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "goal", "value", "target", "met"});
        for (Goal g : r.goals()) {
            rows.add(new String[] {g.version(), g.goal(), Format.cell(g.value()), g.target(),
                g.met() == null ? "not measured" : g.met() ? "yes" : "NO"});
        }
        return rows;
    }

    private static List<String[]> pairGoalRows(MixedPairedResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "goal", "target", "per pair", "met in"});
        for (PairGoal g : r.pairGoals()) {
            rows.add(new String[] {g.version(), g.goal(), g.target(),
                String.join(" / ", g.perPair().stream().map(Format::cell).toList()),
                g.metPairs() + " of " + g.measuredPairs()});
        }
        return rows;
    }

    private static List<String[]> windowRows(MixedPairedResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "pair", "state", "switch (ms)", "heavy /s", "heavy errors",
            "light p50 / p99 / max (ms)", "light errors", "server CPU cores", "CPU ms per heavy", "system share",
            "switches per heavy (voluntary / involuntary)", "migrations per heavy", "run-queue wait ms per heavy",
            "threads (started / ended)", "others' CPU cores", "server GC cores",
            "light requests >= p99 in a GC pause", "GC pauses /s", "GC pause mean ms"});
        for (Version v : r.versions().values()) {
            for (Window w : v.windows()) {
                rows.add(new String[] {v.name(), Integer.toString(w.pair()), w.state(), Format.cell(w.switchMs()),
                    Format.cell(w.heavy().throughputPerS()), Long.toString(w.heavy().errors()),
                    Format.cell(w.light().p50Ms()) + " / " + Format.cell(w.light().p99Ms()) + " / "
                            + Format.cell(w.light().maxMs()), Long.toString(w.light().errors()),
                    Format.cell(w.serverCpuCores()), Format.cell(w.cpuMsPerHeavy()), sysShare(w), switches(w),
                    Format.cell(w.migrationsPerHeavy()), runWait(w), threads(w), Format.cell(w.otherCpuCores()),
                    Format.cell(w.gcCores()), gcTail(w), Format.cell(w.gc("window_gc_pauses_per_s")),
                    Format.cell(w.gc("window_gc_pause_mean_ms"))});
            }
        }
        return rows;
    }

    private static String gcTail(Window w) {
        Double n = w.gc("tail_requests");
        return n == null ? "-" : w.gc("tail_with_gc_pause").intValue() + " of " + n.intValue();
    }

    private static String sysShare(Window w) {
        return w.sched() == null ? "-" : Format.precise(w.sched().sysShare());
    }

    private static String switches(Window w) {
        if (w.sched() == null) {
            return "-";
        }
        long n = w.heavy().requests();
        return Format.cell(w.switchesPerHeavy()) + " (" + Format.cell(SchedCounters.per(w.sched().voluntarySwitches(), n))
                + " / " + Format.cell(SchedCounters.per(w.sched().involuntarySwitches(), n)) + ")";
    }

    private static String threads(Window w) {
        return w.sched() == null ? "-" : w.sched().threads() + " (" + w.sched().threadsStarted() + " / "
                + w.sched().threadsEnded() + ")";
    }

    private static String runWait(Window w) {
        return w.sched() == null || w.heavy().requests() == 0 ? "-"
                : Format.cell(Math.round(10 * w.sched().runWaitMs() / w.heavy().requests()) / 10.0);
    }
}
