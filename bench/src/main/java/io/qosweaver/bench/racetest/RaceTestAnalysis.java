package io.qosweaver.bench.racetest;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.racetest.RaceTestResult.FairnessRow;
import io.qosweaver.bench.racetest.RaceTestResult.Goal;
import io.qosweaver.bench.racetest.RaceTestResult.JitterRow;
import io.qosweaver.bench.racetest.RaceTestResult.OverheadRow;
import io.qosweaver.bench.racetest.RaceTestResult.PartitionRow;
import io.qosweaver.bench.racetest.RaceTestResult.RunResult;
import io.qosweaver.bench.racetest.RaceTestResult.RunnerResult;
import io.qosweaver.bench.stats.Format;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** From the runs to the tables and the goals; pure functions of the recorded samples. */
final class RaceTestAnalysis {
    /** The goals. */
    static final double OVERHEAD_GOAL_PCT = 0.5, FAIRNESS_GOAL_PCT = 1.0;

    private RaceTestAnalysis() {}

    static double mean(List<Double> xs) {
        return xs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    /** Sample standard deviation, % of the mean (the paper's jitter figure). */
    static double sdPct(List<Double> xs) {
        double m = mean(xs);
        if (xs.size() < 2 || m == 0) {
            return 0;
        }
        double ss = 0;
        for (double x : xs) {
            ss += (x - m) * (x - m);
        }
        return Math.sqrt(ss / (xs.size() - 1)) * 100 / m;
    }

    static RunnerResult runner(RunSpec.Runner r, List<Double> samples, List<Double> cpuSamples, long cpuMs,
                               String applied, Double capacity) {
        double m = mean(samples);
        Double cpuShare = samples.isEmpty() ? null : round(cpuMs / (samples.size() * 1000.0), 4);
        return new RunnerResult(r.name(), r.fraction(), r.group(), r.priority(), r.nice(), r.weight(), applied,
                round(m), round(sdPct(samples), 3), capacity == null || capacity == 0 ? null : round(m / capacity, 4),
                cpuShare, cpuMs, List.copyOf(samples), List.copyOf(cpuSamples));
    }

    static Optional<RunResult> find(List<RunResult> runs, String id) {
        return runs.stream().filter(r -> r.id().equals(id)).findFirst();
    }

    /** Managed against the mean of the unmanaged runs before and after them (Table 3). */
    static List<OverheadRow> overhead(List<RunResult> runs) {
        List<OverheadRow> rows = new ArrayList<>();
        for (int i = 0; i < RaceTestPlan.OVERHEAD_RUNNERS.length; i++) {
            int n = RaceTestPlan.OVERHEAD_RUNNERS[i];
            Optional<RunResult> a = find(runs, n == 1 ? "capacity" : "overhead-" + n + "-unmanaged-a");
            Optional<RunResult> b = find(runs, "overhead-" + n + "-unmanaged-b");
            if (a.isEmpty() || b.isEmpty()) {
                continue;
            }
            double base = (a.get().aggregateLoopsPerS() + b.get().aggregateLoopsPerS()) / 2;
            double baseCpu = (a.get().runnersCpuCores() + b.get().runnersCpuCores()) / 2;
            String[][] configs = {{"config1", "each runner 1.5%"}, {"config2", "equal fractions, 80% in all"}};
            for (int c = 0; c < 2; c++) {
                Optional<RunResult> m = find(runs, "overhead-" + n + "-" + configs[c][0]);
                if (m.isPresent()) {
                    double x = m.get().aggregateLoopsPerS(), xCpu = m.get().runnersCpuCores();
                    double perCpuBase = baseCpu == 0 ? 0 : base / baseCpu, perCpu = xCpu == 0 ? 0 : x / xCpu;
                    rows.add(new OverheadRow(n, configs[c][1], round(base), round(x), round((base - x) * 100 / base, 3),
                            round(Paper.lossPct(c == 0 ? Paper.CONFIG1 : Paper.CONFIG2, i), 3), round(baseCpu, 3),
                            round(xCpu, 3), baseCpu == 0 || xCpu == 0 ? null : round((baseCpu - xCpu) * 100 / baseCpu, 3),
                            perCpuBase == 0 ? 0 : round((perCpuBase - perCpu) * 100 / perCpuBase, 3)));
                }
            }
        }
        return rows;
    }

    /** Per version: each 10 s window's runner means against their mean (Fig. 3), in loops and in CPU time. */
    static List<FairnessRow> fairness(List<RunResult> runs) {
        List<FairnessRow> rows = new ArrayList<>();
        for (RunResult r : runs) {
            if (!r.section().equals("fairness")) {
                continue;
            }
            Deviations loops = deviations(r.runners(), RunnerResult::samples);
            Deviations cpu = deviations(r.runners(), RunnerResult::cpuSamples);
            boolean withCpu = cpu.windows() > 0;
            rows.add(new FairnessRow(r.version(), r.runners().size(), loops.windows(),
                    round(r.aggregateLoopsPerS() / Math.max(1, r.runners().size())), loops.max(), loops.mean(),
                    loops.perWindow(), withCpu ? cpu.max() : null, withCpu ? cpu.mean() : null,
                    withCpu ? cpu.perWindow() : null));
        }
        return rows;
    }

    /** Over whole windows: each window's largest |runner - mean| / mean, and the largest and mean of all. */
    private record Deviations(int windows, double max, double mean, List<Double> perWindow) {}

    private static Deviations deviations(List<RunnerResult> runners,
                                         java.util.function.Function<RunnerResult, List<Double>> series) {
        int w = RaceTestParams.WINDOW_S;
        int windows = runners.stream().mapToInt(x -> series.apply(x).size()).min().orElse(0) / w;
        List<Double> perWindow = new ArrayList<>();
        double sumDev = 0;
        int devs = 0;
        for (int k = 0; k < windows; k++) {
            List<Double> means = new ArrayList<>();
            for (RunnerResult x : runners) {
                means.add(mean(series.apply(x).subList(k * w, (k + 1) * w)));
            }
            double m = mean(means), worst = 0;
            for (double x : means) {
                double dev = m == 0 ? 0 : Math.abs(x - m) * 100 / m;
                worst = Math.max(worst, dev);
                sumDev += dev;
                devs++;
            }
            perWindow.add(round(worst, 3));
        }
        double max = perWindow.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        return new Deviations(windows, round(max, 3), round(devs == 0 ? Double.NaN : sumDev / devs, 3), perWindow);
    }

    /** Every runner of every partitioning run: its share of one core; reservations only for MTR-LS. */
    static List<PartitionRow> partitioning(List<RunResult> runs) {
        List<PartitionRow> rows = new ArrayList<>();
        for (RunResult r : runs) {
            if (!r.section().equals("partitioning")) {
                continue;
            }
            for (RunnerResult x : r.runners()) {
                // the reservation is of time on one core (P = 1): what the scheduler hands out
                Boolean met = x.cpuShare() == null ? null : x.cpuShare() >= x.fraction();
                rows.add(new PartitionRow(r.config(), r.version(), x.name(), x.group().equals("-") ? null : x.group(),
                        x.fraction(), x.meanLoopsPerS(), x.shareOfCore(), x.cpuShare(), met));
            }
        }
        return rows;
    }

    static List<JitterRow> jitter(List<RunResult> runs) {
        List<JitterRow> rows = new ArrayList<>();
        for (RunResult r : runs) {
            if (r.section().equals("jitter") && !r.runners().isEmpty()) {
                RunnerResult x = r.runners().get(0);
                rows.add(new JitterRow(r.config(), r.version(), r.reserved(), x.meanLoopsPerS(), x.sdPct(),
                        x.shareOfCore()));
            }
        }
        return rows;
    }

    static List<Goal> goals(List<OverheadRow> overhead, List<FairnessRow> fairness, List<PartitionRow> partitioning) {
        List<Goal> goals = new ArrayList<>();
        if (overhead.isEmpty()) {
            goals.add(new Goal("overhead under 0.5%", null, "not measured"));
        } else {
            // Judged on the runners' CPU time when every run recorded it, as fairness is: the same
            // loop runs at 0.95-1.77 million loops a second in different processes on this host.
            boolean cpu = overhead.stream().allMatch(o -> o.cpuLossPct() != null);
            ToDoubleFunction<OverheadRow> loss = cpu ? OverheadRow::cpuLossPct : OverheadRow::lossPct;
            OverheadRow worst = overhead.stream().max((a, b) -> Double.compare(loss.applyAsDouble(a),
                    loss.applyAsDouble(b))).get();
            String loops = "losses in loops: " + overhead.stream().map(o -> Format.number(o.lossPct()) + "%").toList();
            goals.add(new Goal("overhead under 0.5%", loss.applyAsDouble(worst) < OVERHEAD_GOAL_PCT, cpu
                    ? String.format(Locale.ROOT, "largest loss %s%% of the runners' CPU time (%d runners, %s); losses"
                            + " in CPU time: %s (%s)", Format.number(worst.cpuLossPct()), worst.runners(),
                            worst.config(), overhead.stream().map(o -> Format.number(o.cpuLossPct()) + "%").toList(),
                            loops)
                    : String.format(Locale.ROOT, "largest loss %s%% in loops (%d runners, %s; no CPU time recorded); %s",
                            Format.number(worst.lossPct()), worst.runners(), worst.config(), loops)));
        }
        Optional<FairnessRow> f = fairness.stream().filter(x -> x.version().equals(RaceTestPlan.MTR_LS)).findFirst();
        if (f.isEmpty() || f.get().windows() == 0) {
            goals.add(new Goal("equal shares within 1% of the mean over 10 s windows", null, "not measured"));
        } else {
            // judged on CPU time when the run recorded it, as the reservations are: a share is of the
            // CPU's time, and loops per CPU second vary with the hardware thread a runner ran on
            FairnessRow x = f.get();
            String loops = Format.number(x.maxDeviationPct()) + "% in loops";
            goals.add(x.maxCpuDeviationPct() == null
                    ? new Goal("equal shares within 1% of the mean over 10 s windows",
                            x.maxDeviationPct() <= FAIRNESS_GOAL_PCT, "largest deviation " + loops + " over "
                            + x.windows() + " window(s) (no CPU time per second recorded)")
                    : new Goal("equal shares within 1% of the mean over 10 s windows",
                            x.maxCpuDeviationPct() <= FAIRNESS_GOAL_PCT, "largest deviation " + Format.number(
                            x.maxCpuDeviationPct()) + "% of the mean in CPU time (" + loops + ") over " + x.windows()
                            + " window(s)"));
        }
        List<PartitionRow> managed = partitioning.stream().filter(p -> p.version().equals(RaceTestPlan.MTR_LS)).toList();
        if (managed.isEmpty() || managed.stream().anyMatch(p -> p.reservationMet() == null)) {
            goals.add(new Goal("every reservation met", null, "not measured"));
        } else {
            List<String> missed = managed.stream().filter(p -> !p.reservationMet())
                    .map(p -> p.config() + " " + p.runner() + ": " + pct(p.cpuShare()) + "% < "
                            + pct(p.fraction()) + "%").toList();
            goals.add(new Goal("every reservation met", missed.isEmpty(), missed.isEmpty()
                    ? "every runner's CPU time at or above its fraction of one core (P = 1): " + managed.size()
                    + " runners"
                    : "below: " + missed));
        }
        return goals;
    }

    static List<String> summary(Double capacity, List<OverheadRow> overhead, List<FairnessRow> fairness,
            List<PartitionRow> partitioning, List<JitterRow> jitter, List<Goal> goals) {
        List<String> s = new ArrayList<>();
        if (capacity != null) {
            s.add("One runner alone, unmanaged: " + Format.number(capacity) + " loops/s (one core's capacity here;"
                    + " the paper's SPARC: 602,797).");
        }
        for (Goal g : goals) {
            s.add("Goal " + g.goal() + ": " + (g.met() == null ? "not measured" : g.met() ? "met" : "NOT met") + " ("
                    + g.detail() + ").");
        }
        fairness.forEach(f -> s.add("Fairness, " + f.version() + ": largest deviation from the mean "
                + Format.number(f.maxDeviationPct()) + "% in loops" + (f.maxCpuDeviationPct() == null ? "" : ", "
                + Format.number(f.maxCpuDeviationPct()) + "% in CPU time") + " (the paper: 0.1% on Q-JVM, about 1% on"
                + " the standard JVM, in loops)."));
        for (PartitionRow p : partitioning) {
            if (p.config().equals("70/20") && p.version().equals(RaceTestPlan.MTR_LS) && p.shareOfCore() != null
                    && p.cpuShare() != null) {
                s.add("70/20 under MTR-LS: " + p.runner() + " got " + pct(p.cpuShare()) + "% of a core's time and "
                        + pct(p.shareOfCore()) + "% of its capacity in loops (the paper: "
                        + (p.fraction() > 0.5 ? "73" : "26") + "% in loops).");
            }
        }
        jitter.stream().filter(j -> j.load().equals("loaded")).forEach(j -> s.add("Jitter under a competing load, "
                + j.version() + (j.reserved() == null ? "" : " reserved " + pct(j.reserved()) + "%")
                + ": " + Format.number(j.sdPct()) + "% of the mean."));
        return s;
    }

    /** A fraction as a percentage with one decimal (no binary noise in progress and summaries). */
    static String pct(double f) {
        return String.format(java.util.Locale.ROOT, "%.1f", f * 100);
    }
}
