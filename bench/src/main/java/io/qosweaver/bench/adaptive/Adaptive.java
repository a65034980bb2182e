package io.qosweaver.bench.adaptive;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.ScenarioResult.GaugeSample;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Reports;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.PolicyParams;
import io.qosweaver.bench.run.Snapshot;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Experiment {@code adaptive} (issue 14; paper QoSWeaver 5.5, Fig. 24-27): the adaptive
 * target-throughput policy on the unmodified river monitor under 40 chart and 100 up-to-date
 * closed-loop clients, all in one invocation; every run without the collector in one app process
 * ({@link AdaptiveSession}: swapped to each run's policy file, unwoven for the baseline), or one
 * process per run ({@code oneProcess} false):
 * <ol>
 *   <li>two probes with the low limit fixed at lowMax and at lowMin: the range of up-to-date
 *       pages/s a target can be held in on this machine, into which the paper's targets are scaled;
 *   <li>the app without QoSWeaver (Fig. 24, the baseline of response time and chart throughput);
 *   <li>one run per target (Fig. 26; the paper's 150 pages/s scaled is Fig. 25), each measuring
 *       the settling time after the up-to-date clients arrive (a change of load);
 *   <li>the scaled 150 pages/s with the collector running (Fig. 27);
 *   <li>in one process, two changes of target under a steady load (up, then down), each measuring
 *       the settling time after the new target is set in the running policy.
 * </ol>
 */
public final class Adaptive {
    /** The policy every agent run copies, with its target (and limits) set per run. */
    public static final String POLICY = "examples/policies/versions/adaptive.yaml";
    static final String PARTIAL_RESULTS = "results.partial.json";

    /**
     * What a run is. {@code fromTarget}: a step of target (kind {@code step}): the run warms up under
     * the full load at {@code fromTarget}, and its window starts when {@code target} is set in the
     * running policy, from the limit in force; null for every other run.
     */
    public record RunPlan(String name, String kind, Double target, Integer fixedLowLimit, boolean collector,
                          double windowS, double settleS, String policyText, List<String> jvmFlags,
                          Double fromTarget) {
    }

    /** What one process measured, before any analysis. */
    public record Measured(LoadResult levels, LoadResult charts, List<GaugeSample> lowLimit,
                           List<GaugeSample> runningCharts, List<AdaptiveAnalysis.Span> collections,
                           String appFirstError) {
    }

    /** Runs one plan in a process; a seam so tests can run everything else without one. */
    @FunctionalInterface
    public interface ProcessRunner {
        Measured run(RunPlan plan, AdaptiveParams p, Path log) throws IOException, InterruptedException;
    }

    private Adaptive() {
    }

    /** The whole experiment on the real app. {@code targets}: pages/s given by hand, or null to scale the paper's. */
    public static AdaptiveResult run(Layout layout, AdaptiveParams p, List<Double> targets, boolean quick,
                                     Path reportDir, String command, Progress progress)
            throws IOException, InterruptedException {
        layout.ensureBuilt(true, true, false);
        String template = Files.readString(layout.root().resolve(POLICY));
        Map<String, Object> params = p.asMap();
        params.putAll(layout.jarDates(true));
        try (Snapshot jars = Snapshot.of(layout, true)) {
            AdaptiveRunner runner = new AdaptiveRunner(progress, jars.riverMonitorJar());
            Function<Path, List<String>> agentFlags = policy -> List.of(Snapshot.agentFlag(jars.agentJar(), policy));
            AdaptiveResult r;
            if (p.oneProcess()) {
                // the shared process starts with the agent and a policy of the experiment's; every run swaps its own in
                Path start = policyFile(reportDir, "session-start");
                Files.createDirectories(start.getParent());
                Files.writeString(start, policyText(template, p, probe(p.lowMax())));
                try (AdaptiveSession session = new AdaptiveSession(runner, reportDir,
                        agentFlags.apply(start.toAbsolutePath()), reportDir.resolve("app-session.log"), progress)) {
                    r = run(p, targets, quick, template, params, Machine.describe(), reportDir, command, progress,
                            session, agentFlags);
                }
            } else {
                r = run(p, targets, quick, template, params, Machine.describe(), reportDir, command, progress, runner,
                        agentFlags);
            }
            Reports.draw(reportDir, progress, () -> AdaptiveReport.write(reportDir, r));
            return r;
        }
    }

    /** Where a run's policy file is written (and where the shared process's swap finds it). */
    static Path policyFile(Path reportDir, String runName) {
        return reportDir.resolve("policies").resolve(runName + ".yaml");
    }

    /**
     * Every run through {@code runner}: the probes first (the targets depend on them), then the
     * baseline, the targets, the run with collection and (in one process) the changes of target;
     * results.json at the end and {@value #PARTIAL_RESULTS} after every run.
     */
    public static AdaptiveResult run(AdaptiveParams p, List<Double> explicitTargets, boolean quick, String template,
                                     Map<String, Object> params, Map<String, Object> machine, Path reportDir,
                                     String command, Progress progress, ProcessRunner runner,
                                     Function<Path, List<String>> agentFlags) throws IOException, InterruptedException {
        Files.createDirectories(reportDir.resolve("policies"));
        Map<String, AdaptiveResult.Run> runs = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        Context ctx = new Context(p, quick, template, params, machine, reportDir, command, progress, runner,
                agentFlags, runs, errors);

        warmDriver(p, reportDir, progress, runner);
        AdaptiveResult.Run atMax = ctx.run(probe(p.lowMax()));
        AdaptiveResult.Run atMin = ctx.run(probe(p.lowMin()));
        AdaptiveResult.FeasibleRange range = new AdaptiveResult.FeasibleRange(atMax.middlePerS(), atMin.middlePerS(),
                p.lowMax(), p.lowMin(), "up-to-date pages/s over the steady part with the low limit fixed (lowMin = "
                + "lowMax) at " + p.lowMax() + " and at " + p.lowMin() + " chart threads");
        List<AdaptiveResult.Target> targets = targets(p, explicitTargets, range);
        Double fig25 = fig25Target(p, explicitTargets, range);
        if (fig25 == null) {
            errors.put("targets", "no feasible range measured and no --targets given: no target to run");
        }
        ctx.range = range;
        ctx.targets = targets;
        ctx.fig25 = fig25;
        if (p.withBaseline()) {
            ctx.run(new RunPlan("original", "original", null, null, false, p.windowS(), p.settleS(), null, List.of(),
                    null));
        }
        for (AdaptiveResult.Target t : targets) {
            ctx.run(targetPlan(p, "target-" + Format.number(round(t.target(), 1)), "target", t.target(), false,
                    p.windowS()));
        }
        if (p.withCollector() && fig25 != null) {
            ctx.run(targetPlan(p, "collector-" + Format.number(round(fig25, 1)), "collector", fig25, true,
                    p.collectorWindowS()));
        }
        if (p.oneProcess() && p.withSteps()) {
            for (double[] step : steps(p, explicitTargets, range)) {
                ctx.run(new RunPlan("step-" + Format.number(round(step[0], 1)) + "-to-" + Format.number(round(step[1], 1)),
                        "step", step[1], null, false, p.windowS(), p.settleS(), null, null, step[0]));
            }
        }
        if (p.withBaseline()) {
            // the probes drift with the machine (and with the driver's JIT): the lower one again, last
            RunPlan again = probe(p.lowMax());
            ctx.run(new RunPlan(again.name() + "-again", "probe", null, p.lowMax(), false, 0, 0, null, null, null));
        }
        AdaptiveResult res = ctx.result();
        JsonWriter.write(res, reportDir.resolve("results.json"));
        Files.deleteIfExists(reportDir.resolve(PARTIAL_RESULTS));
        return res;
    }

    /**
     * One unmeasured run of the app without the agent before everything else. The load driver runs
     * in this JVM: in the first quick run its HTTP client was still being compiled through the
     * first two processes (the probe at 6 served 584 up-to-date pages/s and 3.0 charts/s, the run
     * after the probes 1,194 and 7.8 at the same limit), and 140 client threads on 2 cores starve the
     * JIT's compiler threads; so every measured run must find the driver already compiled.
     */
    private static void warmDriver(AdaptiveParams p, Path dir, Progress progress, ProcessRunner runner)
            throws IOException, InterruptedException {
        if (p.driverWarmupS() <= 0) {
            return;
        }
        RunPlan plan = new RunPlan("driver-warmup", "original", null, null, false, p.driverWarmupS(), 0, null,
                List.of(), null);
        try {
            runner.run(plan, p, dir.resolve("app-driver-warmup.log"));
        } catch (IOException e) {
            progress.update("[driver-warmup] failed (" + e.getMessage() + "); the runs go on with a colder driver");
        }
    }

    private static RunPlan probe(int limit) {
        return new RunPlan("limit-" + limit, "probe", null, limit, false, 0, 0, null, null, null);
    }

    private static RunPlan targetPlan(AdaptiveParams p, String name, String kind, double target, boolean collector,
                                      double window) {
        return new RunPlan(name, kind, target, null, collector, window, p.settleS(), null, null, null);
    }

    /** The targets: as given, or the paper's sweep scaled into the range (and the Fig. 25 target among them). */
    static List<AdaptiveResult.Target> targets(AdaptiveParams p, List<Double> explicit,
                                               AdaptiveResult.FeasibleRange range) {
        List<AdaptiveResult.Target> out = new ArrayList<>();
        if (explicit != null && !explicit.isEmpty()) {
            explicit.forEach(t -> out.add(new AdaptiveResult.Target(t, null)));
            return out;
        }
        if (range.low() == null || range.high() == null) {
            return out;
        }
        List<Double> paper = new ArrayList<>(p.paperTargets());
        if (!paper.contains(p.paperFig25Target())) {
            paper.add(p.paperFig25Target());
        }
        paper.sort(Double::compare);
        for (double pt : paper) {
            out.add(new AdaptiveResult.Target(round(scale(pt, range), 1), pt));
        }
        return out;
    }

    /**
     * The changes of target (from, to): from the Fig. 25 target up to the paper's 175 and from there
     * down to its 125, scaled like the sweep (given targets: from the middle one to the highest and
     * from the highest to the lowest). None without a range or targets.
     */
    static List<double[]> steps(AdaptiveParams p, List<Double> explicit, AdaptiveResult.FeasibleRange range) {
        Double from = fig25Target(p, explicit, range);
        if (from == null) {
            return List.of();
        }
        double hi;
        double lo;
        if (explicit != null && !explicit.isEmpty()) {
            hi = explicit.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            lo = explicit.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        } else {
            hi = round(scale(AdaptiveParams.PAPER_STEP_UP, range), 1);
            lo = round(scale(AdaptiveParams.PAPER_STEP_DOWN, range), 1);
        }
        List<double[]> out = new ArrayList<>();
        if (from != hi) {
            out.add(new double[] {from, hi});
        }
        if (hi != lo) {
            out.add(new double[] {hi, lo});
        }
        return out;
    }

    static Double fig25Target(AdaptiveParams p, List<Double> explicit, AdaptiveResult.FeasibleRange range) {
        if (explicit != null && !explicit.isEmpty()) {
            List<Double> sorted = explicit.stream().sorted().toList();
            return sorted.get(sorted.size() / 2);
        }
        return range.low() == null || range.high() == null ? null : round(scale(p.paperFig25Target(), range), 1);
    }

    private static double scale(double paperTarget, AdaptiveResult.FeasibleRange range) {
        return AdaptiveAnalysis.scaleTarget(paperTarget, AdaptiveParams.PAPER_TRACKED_LOW,
                AdaptiveParams.PAPER_TRACKED_HIGH, range.low(), range.high());
    }

    /**
     * The policy of one run: the template's {@code policy:} section with the run's target, and for
     * a probe lowMin = lowMax = lowInitial = its fixed limit. During a collection the up-to-date
     * pages are held to at most the target, as the paper did (15 threads x one page per 100 ms =
     * its 150 pages/s): middleCap threads each paced middleCap / target seconds.
     */
    static String policyText(String template, AdaptiveParams p, RunPlan plan) {
        Map<String, String> set = new LinkedHashMap<>();
        double target = plan.fromTarget() != null ? plan.fromTarget() : plan.target() != null ? plan.target() : 1000;
        set.put("target", Format.number(round(target, 3)));
        int lo = plan.fixedLowLimit() != null ? plan.fixedLowLimit() : p.lowMin();
        int hi = plan.fixedLowLimit() != null ? plan.fixedLowLimit() : p.lowMax();
        set.put("lowMin", Integer.toString(lo));
        set.put("lowMax", Integer.toString(hi));
        set.put("lowInitial", Integer.toString(hi));
        set.put("middleCap", Integer.toString(p.middleCap()));
        set.put("middlePacing", pacingMs(p, target) + "ms");
        if (plan.fixedLowLimit() == null) {
            set.putAll(p.policyParams());
        }
        return PolicyParams.apply(template, set);
    }

    /** The up-to-date pages' pacing during a collection: middleCap threads x one page each per pacing = the target. */
    static long pacingMs(AdaptiveParams p, double target) {
        return Math.max(1, Math.round(p.middleCap() * 1000.0 / target));
    }

    /** One run analysed: its steady-state figures, settling and the per-second series. */
    static AdaptiveResult.Run analyse(RunPlan plan, Measured m, String policyFile, Path log) {
        int n = (int) Math.floor(plan.windowS() + 1e-6);
        long[] middle = AdaptiveAnalysis.perSecond(m.levels(), "levels", plan.windowS());
        long[] chart = AdaptiveAnalysis.perSecond(m.charts(), "chart", plan.windowS());
        double[] ma = AdaptiveAnalysis.movingAverage(middle, AdaptiveAnalysis.MA_WIDTH);
        Double[] limit = AdaptiveAnalysis.gaugePerSecond(m.lowLimit(), n);
        Double[] running = AdaptiveAnalysis.gaugePerSecond(m.runningCharts(), n);
        boolean[] during = AdaptiveAnalysis.during(m.collections(), n);
        int from = (int) Math.round(plan.settleS());
        Double middlePerS = AdaptiveAnalysis.mean(middle, from, n);
        Double target = plan.target();
        Double error = target == null ? null : AdaptiveAnalysis.errorPct(middlePerS, target);
        Double settling = target == null || plan.collector() ? null
                : AdaptiveAnalysis.settlingTimeS(middle, target, AdaptiveAnalysis.TOLERANCE);
        Double settling5 = target == null || plan.collector() ? null
                : AdaptiveAnalysis.settlingTimeS(middle, target, AdaptiveAnalysis.TOLERANCE, AdaptiveAnalysis.BLOCK_S);
        List<Double> blocks = AdaptiveAnalysis.blockMeans(middle, from, AdaptiveAnalysis.BLOCK_S);
        Integer within = target == null ? null
                : AdaptiveAnalysis.countWithin(blocks, target, AdaptiveAnalysis.TOLERANCE);
        double lmin = Double.NaN, lmax = Double.NaN, lsum = 0;
        int ln = 0;
        List<AdaptiveResult.Second> series = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            series.add(new AdaptiveResult.Second(i, middle[i], chart[i], round(ma[i]), round(limit[i]),
                    round(running[i]), during[i]));
            if (i >= from && limit[i] != null) {
                lmin = ln == 0 ? limit[i] : Math.min(lmin, limit[i]);
                lmax = ln == 0 ? limit[i] : Math.max(lmax, limit[i]);
                lsum += limit[i];
                ln++;
            }
        }
        List<AdaptiveAnalysis.Span> started = m.collections().stream()
                .filter(AdaptiveAnalysis.Span::startedInWindow).toList();
        Double collectionMean = started.stream().filter(s -> s.durationMs() != null)
                .mapToDouble(AdaptiveAnalysis.Span::durationMs).average().stream().boxed().findFirst().orElse(null);
        ClassResult lv = m.levels() == null ? null : m.levels().get("levels");
        ClassResult ch = m.charts() == null ? null : m.charts().get("chart");
        return new AdaptiveResult.Run(plan.name(), plan.kind(), target, plan.fixedLowLimit(), plan.collector(),
                plan.jvmFlags(), policyFile, log.toString(), null, plan.windowS(), plan.settleS(), round(middlePerS),
                round(error), settling, settling5, blocks.size(), within, round(AdaptiveAnalysis.mean(chart, from, n)),
                lv == null ? null : lv.meanMs(), lv == null ? null : lv.p99Ms(), ch == null ? null : ch.meanMs(),
                ln == 0 ? null : lmin, ln == 0 ? null : lmax, ln == 0 ? null : round(lsum / ln),
                plan.collector() ? started.size() : null, round(collectionMean),
                plan.collector() ? round(AdaptiveAnalysis.meanWhere(middle, during, false, from)) : null,
                plan.collector() ? round(AdaptiveAnalysis.meanWhere(middle, during, true, from)) : null,
                lv, ch, m.appFirstError(), series);
    }

    private static AdaptiveResult.Run failed(RunPlan plan, String policyFile, Path log, String error) {
        return new AdaptiveResult.Run(plan.name(), plan.kind(), plan.target(), plan.fixedLowLimit(), plan.collector(),
                plan.jvmFlags(), policyFile, log.toString(), error, plan.windowS(), plan.settleS(), null, null, null,
                null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
                List.of());
    }

    /** The state of one invocation. */
    private static final class Context {
        final AdaptiveParams p;
        final boolean quick;
        final String template;
        final Map<String, Object> params;
        final Map<String, Object> machine;
        final Path dir;
        final String command;
        final Progress progress;
        final ProcessRunner runner;
        final Function<Path, List<String>> agentFlags;
        final Map<String, AdaptiveResult.Run> runs;
        final Map<String, String> errors;
        AdaptiveResult.FeasibleRange range;
        List<AdaptiveResult.Target> targets = List.of();
        Double fig25;

        Context(AdaptiveParams p, boolean quick, String template, Map<String, Object> params,
                Map<String, Object> machine, Path dir, String command, Progress progress, ProcessRunner runner,
                Function<Path, List<String>> agentFlags, Map<String, AdaptiveResult.Run> runs,
                Map<String, String> errors) {
            this.p = p;
            this.quick = quick;
            this.template = template;
            this.params = params;
            this.machine = machine;
            this.dir = dir;
            this.command = command;
            this.progress = progress;
            this.runner = runner;
            this.agentFlags = agentFlags;
            this.runs = runs;
            this.errors = errors;
        }

        /** Runs a plan (a probe gets the normal window), keeps it, and writes the partial results. */
        AdaptiveResult.Run run(RunPlan raw) throws IOException, InterruptedException {
            double window = raw.kind().equals("probe") ? p.windowS() : raw.windowS();
            double settle = raw.kind().equals("probe") ? p.settleS() : raw.settleS();
            RunPlan plan = new RunPlan(raw.name(), raw.kind(), raw.target(), raw.fixedLowLimit(), raw.collector(),
                    window, settle, null, List.of(), raw.fromTarget());
            Path policyFile = null;
            if (!plan.kind().equals("original")) {
                policyFile = policyFile(dir, plan.name());
                String text = policyText(template, p, plan);
                Files.writeString(policyFile, text);
                plan = new RunPlan(plan.name(), plan.kind(), plan.target(), plan.fixedLowLimit(), plan.collector(),
                        window, settle, text, agentFlags.apply(policyFile.toAbsolutePath()), plan.fromTarget());
            }
            Path log = dir.resolve("app-" + plan.name() + ".log");
            String policyName = policyFile == null ? null : dir.relativize(policyFile).toString();
            AdaptiveResult.Run r;
            try {
                r = analyse(plan, runner.run(plan, p, log), policyName, log);
                progress.update("[" + plan.name() + "] up-to-date " + Format.cell(r.middlePerS()) + " pages/s"
                        + (r.target() == null ? "" : " (target " + Format.cell(r.target()) + ", error "
                        + Format.cell(r.errorPct()) + " %, settled " + (r.settlingS() == null ? "never"
                        : "after " + Format.number(r.settlingS()) + " s") + ")")
                        + ", charts " + Format.cell(r.chartPerS()) + "/s"
                        + (r.lowLimitMin() == null ? "" : ", low limit " + Format.number(r.lowLimitMin()) + "-"
                        + Format.number(r.lowLimitMax())));
            } catch (IOException | RuntimeException e) {
                progress.update("[" + plan.name() + "] FAILED: " + e.getMessage());
                errors.put(plan.name(), String.valueOf(e.getMessage()));
                r = failed(plan, policyName, log, String.valueOf(e.getMessage()));
            }
            runs.put(plan.name(), r);
            JsonWriter.write(result(), dir.resolve(PARTIAL_RESULTS));
            return r;
        }

        AdaptiveResult result() {
            return assemble(command, quick, params, machine, range, targets, fig25, runs, errors,
                    Instant.now().toString());
        }
    }

    /**
     * Reads a report directory's {@code results.json} and derives again everything that is computed
     * from its runs (the sweep, the noise floor, the goals, the paper's rows, the summary), then
     * writes it and the report again: an analysis changed after a run applies to the runs it has,
     * without running them again. The runs themselves (every measured figure and series) are kept as
     * they are; {@code parameters.reanalysed_at} says when.
     */
    public static AdaptiveResult reanalyse(Path reportDir, Progress progress) throws IOException {
        Path file = reportDir.resolve("results.json");
        AdaptiveResult old = JsonWriter.MAPPER.copy()
                .configure(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .readValue(file.toFile(), AdaptiveResult.class);
        Map<String, Object> params = new LinkedHashMap<>(old.parameters());
        params.put("reanalysed_at", Instant.now().toString());
        AdaptiveResult r = assemble(old.command(), old.quick(), params, old.machine(), old.feasible(), old.targets(),
                old.fig25Target(), old.runs(), old.errors(), old.generatedAt());
        JsonWriter.write(r, file);
        Reports.draw(reportDir, progress, () -> AdaptiveReport.write(reportDir, r));
        return r;
    }

    private static AdaptiveResult assemble(String command, boolean quick, Map<String, Object> params,
                                           Map<String, Object> machine, AdaptiveResult.FeasibleRange range,
                                           List<AdaptiveResult.Target> targets, Double fig25,
                                           Map<String, AdaptiveResult.Run> runs, Map<String, String> errors,
                                           String generatedAt) {
        List<AdaptiveResult.SweepPoint> sweep = new ArrayList<>();
        for (AdaptiveResult.Target t : targets) {
            AdaptiveResult.Run r = runs.get("target-" + Format.number(round(t.target(), 1)));
            if (r != null) {
                sweep.add(new AdaptiveResult.SweepPoint(t.target(), t.paperTarget(),
                        range != null && range.contains(t.target()), r.middlePerS(), r.errorPct(), r.settlingS(),
                        r.settling5S(), r.lowLimitMean(), r.lowLimitMin(), r.lowLimitMax()));
            }
        }
        AdaptiveResult.NoiseFloor noise = AdaptiveSummary.noise(runs, range);
        List<AdaptiveResult.Goal> goals = AdaptiveSummary.goals(range, sweep, runs.values().stream()
                .filter(r -> r.kind().equals("step")).toList(), noise);
        List<AdaptiveResult.PaperRow> paper = AdaptiveSummary.paperRows(runs, range, fig25, sweep);
        return new AdaptiveResult("adaptive", generatedAt, command, quick, params, machine, range,
                targets, fig25, new LinkedHashMap<>(runs), sweep, noise, goals, paper,
                AdaptiveSummary.summary(range, fig25, runs, sweep, goals), new LinkedHashMap<>(errors));
    }
}
