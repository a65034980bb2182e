package io.qosweaver.bench.racetest;

import io.qosweaver.bench.report.GoalTable;
import io.qosweaver.bench.racetest.RaceTestResult.FairnessRow;
import io.qosweaver.bench.racetest.RaceTestResult.JitterRow;
import io.qosweaver.bench.racetest.RaceTestResult.OverheadRow;
import io.qosweaver.bench.racetest.RaceTestResult.PartitionRow;
import io.qosweaver.bench.racetest.RaceTestResult.RunResult;
import io.qosweaver.bench.racetest.RaceTestResult.RunnerResult;
import io.qosweaver.bench.report.ReportDocument;
import io.qosweaver.bench.report.Table;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * {@code index.html} and {@code RESULTS.md} of {@code bench racetest}: the goals, then overhead,
 * fairness, partitioning and jitter each with the paper's figure beside ours, every run, a plot of
 * the partitions. Built from the results alone.
 */
public final class RaceTestReport {
    private RaceTestReport() {}

    public static void write(Path dir, RaceTestResult r) throws IOException {
        ReportDocument doc = new ReportDocument("RaceTest: MTR-LS shares through the Java API against the unmanaged JVM"
                + " (Q-JVM paper 4.2-4.6)");
        doc.heading("What the numbers show").bullets(r.summary());
        List<String> warn = new ArrayList<>();
        r.errors().forEach((k, v) -> warn.add("FAILED (" + k + "): " + v));
        r.goals().stream().filter(g -> Boolean.FALSE.equals(g.met()))
                .forEach(g -> warn.add("Goal NOT met: " + g.goal() + " (" + g.detail() + ")"));
        r.baselines().forEach((k, v) -> {
            if (!v.equals("ok")) {
                warn.add("Baseline " + k + ": " + v);
            }
        });
        doc.warnings(warn);
        doc.command(r.command());
        doc.heading("Goals").table(goals(r));
        doc.heading("Overhead: aggregate loops/s, managed against unmanaged (paper Table 3)").table(overhead(r));
        doc.heading("Fairness: 10 runners, each runner's throughput against the mean per 10 s window (paper Fig. 3)")
                .table(fairness(r));
        doc.heading("Partitioning: share of one core per runner (paper Table 4)").table(partitioning(r));
        if (!r.partitioning().isEmpty()) {
            doc.image("partitioning.png", "Share of one core's time per runner: asked (MTR-LS fraction) and received "
                    + "(CPU time over wall time) under each version", partitionChart(r));
        }
        doc.heading("Jitter: standard deviation of the per-second samples, % of the mean (paper Tables 1-2)")
                .table(jitter(r));
        doc.heading("Every run").table(runs(r));
        doc.keyValues("Baselines here", new java.util.LinkedHashMap<>(r.baselines()));
        doc.keyValues("The paper's numbers", r.paper());
        doc.keyValues("Parameters", r.parameters());
        doc.keyValues("Machine", r.machine());
        doc.paragraph("Each run is a JVM of its own. Managed runs start the agent with an mtr-ls policy and the "
                + "runners ask their fractions through the Java API (a Share each, a control point after every 16 loops). "
                + "Shares of a core are a runner's loops/s over one runner's alone on the unmanaged JVM (the capacity "
                + "run), as the paper took its Table 1 single runner for the system's capacity; the share of a core's "
                + "time is a runner's CPU time over the wall time, what the scheduler hands out, and what the "
                + "reservation goal is checked on: loops per CPU second vary with what runs on the core's other "
                + "hardware thread, which no JVM scheduler controls. Others' CPU is the machine's busy CPUs "
                + "(/proc/stat) less the runners', over each run's measured part. Partitioning runs "
                + "MTR-LS with P = 1 (the paper's uniprocessor); its baselines run on one CPU (taskset), with Java "
                + "priorities (10 for the largest fraction, the others in proportion) or nice values per thread "
                + "(1.25 of CFS weight per level, via renice on the thread id). The overhead baseline is the mean "
                + "of an unmanaged run before and one after the managed ones. Every per-second sample is in "
                + "results.json.");
        doc.write(dir);
    }

    private static List<String[]> goals(RaceTestResult r) {
        return GoalTable.of(r.goals(), RaceTestResult.Goal::goal, RaceTestResult.Goal::met, RaceTestResult.Goal::detail, "not measured");
    }

    private static List<String[]> overhead(RaceTestResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"runners", "configuration", "unmanaged (loops/s)", "MTR-LS (loops/s)", "loss (%)",
                "paper: loss (%)", "runners' CPU, unmanaged / MTR-LS (cores)", "loss in CPU time (%, the goal's)",
                "loss per CPU second (%)"});
        for (OverheadRow o : r.overhead()) {
            rows.add(new String[] {Integer.toString(o.runners()), o.config(), Table.cell(o.unmanagedLoopsPerS()),
                    Table.cell(o.managedLoopsPerS()), Table.cell(o.lossPct()), Table.cell(o.paperLossPct()),
                    Table.cell(o.unmanagedCpuCores()) + " / " + Table.cell(o.managedCpuCores()),
                    Table.cell(o.cpuLossPct()), Table.cell(o.lossPerCpuSecondPct())});
        }
        return rows;
    }

    private static List<String[]> fairness(RaceTestResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"version", "runners", "windows", "mean per runner (loops/s)",
                "largest deviation, loops (% of mean)", "mean deviation, loops (%)", "per window, loops (largest, %)",
                "largest deviation, CPU time (% of mean)", "mean deviation, CPU time (%)",
                "per window, CPU time (largest, %)", "paper (loops)"});
        for (FairnessRow f : r.fairness()) {
            rows.add(new String[] {f.version(), Integer.toString(f.runners()), Integer.toString(f.windows()),
                    Table.cell(f.meanLoopsPerS()), Table.cell(f.maxDeviationPct()), Table.cell(f.meanDeviationPct()),
                    f.perWindowMaxPct().toString(), Table.cell(f.maxCpuDeviationPct()),
                    Table.cell(f.meanCpuDeviationPct()),
                    f.perWindowMaxCpuPct() == null ? "-" : f.perWindowMaxCpuPct().toString(),
                    f.version().equals(RaceTestPlan.MTR_LS) ? "Q-JVM: within 0.1%" : "standard JVM: about 1%"});
        }
        return rows;
    }

    private static List<String[]> partitioning(RaceTestResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"configuration", "version", "runner", "group", "fraction", "loops/s",
                "share of a core (loops)", "share of a core (CPU time)", "time at least its fraction", "paper"});
        for (PartitionRow p : r.partitioning()) {
            String paper = p.config().equals("70/20") && p.version().equals(RaceTestPlan.MTR_LS)
                    ? (p.fraction() > 0.5 ? "442,728 loops/s, 73%" : "158,069 loops/s, 26%") : "";
            rows.add(new String[] {p.config(), p.version(), p.runner(), p.group() == null ? "" : p.group(),
                    Table.cell(p.fraction()), Table.cell(p.loopsPerS()), Table.cell(p.shareOfCore()),
                    Table.cell(p.cpuShare()), p.reservationMet() == null ? "-" : p.reservationMet() ? "yes" : "NO", paper});
        }
        return rows;
    }

    private static List<String[]> jitter(RaceTestResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"system", "version", "reserved share", "loops/s", "share of a core", "sd (% of mean)",
                "paper (1 runner)"});
        for (JitterRow j : r.jitter()) {
            boolean loaded = j.load().equals("loaded");
            String paper = j.version().equals(RaceTestPlan.UNMANAGED)
                    ? (loaded ? "standard JVM busy: 10.53% (T1), TS 16.44% (T2)" : "standard JVM: 2.52% (T1), TS 2.76% (T2)")
                    : j.reserved() != null && j.reserved() > 0
                    ? (loaded ? "Q-JVM RT, OS thread 15%: 2.65%" : "Q-JVM RT, OS thread 15%: 1.84%") : "";
            rows.add(new String[] {j.load(), j.version(), j.reserved() == null ? "" : Table.cell(j.reserved()),
                    Table.cell(j.loopsPerS()), Table.cell(j.shareOfCore()), Table.cell(j.sdPct()), paper});
        }
        return rows;
    }

    /** The JVM's own threads' CPU in the measured part: the total, then the three largest by name. */
    static String jvmThreads(RunResult x) {
        if (x.jvmThreadsCpuMs() == null || x.jvmThreadsCpuMs().isEmpty()) {
            return "-";
        }
        long total = x.jvmThreadsCpuMs().values().stream().mapToLong(Long::longValue).sum();
        return total + ": " + String.join(", ", x.jvmThreadsCpuMs().entrySet().stream().limit(3)
                .map(e -> e.getKey() + " " + e.getValue()).toList());
    }

    private static List<String[]> runs(RaceTestResult r) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"run", "version", "P", "reserved", "one CPU", "load", "scheduled", "aggregate (loops/s)",
                "runners' CPU (cores)", "others' CPU (cores)", "of which this JVM's other threads (ms, largest)",
                "runners: name fraction prio nice/weight (applied) loops/s sd%"});
        for (RunResult x : r.runs()) {
            StringBuilder b = new StringBuilder();
            for (RunnerResult y : x.runners()) {
                b.append(b.length() == 0 ? "" : "; ").append(y.name()).append(' ').append(Table.cell(y.fraction()))
                        .append(" p").append(y.priority());
                if (y.nice() != null || y.weight() != null) {
                    b.append(y.nice() != null ? " nice " + y.nice() : " weight " + y.weight()).append(" (")
                            .append(y.applied()).append(')');
                }
                b.append(' ').append(Table.cell(y.meanLoopsPerS())).append(' ').append(Table.cell(y.sdPct()));
            }
            rows.add(new String[] {x.id(), x.version(), x.cores() == null ? "" : x.cores().toString(),
                    x.reserved() == null ? "" : Table.cell(x.reserved()), x.oneCpu() ? "yes" : "",
                    x.competingLoad() ? "yes" : "", Boolean.toString(x.scheduled()),
                    Table.cell(x.aggregateLoopsPerS()), Table.cell(x.runnersCpuCores()), Table.cell(x.otherCpuCores()),
                    jvmThreads(x), b.toString()});
        }
        return rows;
    }

    static JFreeChart partitionChart(RaceTestResult r) {
        DefaultCategoryDataset d = new DefaultCategoryDataset();
        for (PartitionRow p : r.partitioning()) {
            String cat = p.config() + " " + p.runner();
            if (p.version().equals(RaceTestPlan.MTR_LS)) {
                d.addValue(p.fraction(), "asked", cat);
            }
            if (p.cpuShare() != null) {
                d.addValue(p.cpuShare(), p.version(), cat);
            }
        }
        JFreeChart c = ChartFactory.createBarChart("Share of one core", "configuration and runner", "share of a core",
                d, PlotOrientation.HORIZONTAL, true, false, false);
        c.getCategoryPlot().setBackgroundPaint(Color.WHITE);
        c.getCategoryPlot().setRangeGridlinePaint(Color.LIGHT_GRAY);
        return c;
    }
}
