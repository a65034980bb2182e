package io.qosweaver.bench.racetest;

import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.racetest.RaceTestResult.RunResult;
import io.qosweaver.bench.racetest.RaceTestResult.RunnerResult;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Reports;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.stats.Format;
import io.qosweaver.bench.stats.Round;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Experiment {@code racetest} (issue 16, the Q-JVM paper's 4.2-4.6): every run of {@link
 * RaceTestPlan} in a JVM of its own, one after the other, then the tables, the goals and the
 * report. The runner JVMs use this JVM's class path (the bench and the Java API) and a private
 * copy of the agent jar, so that a rebuild during the run changes nothing under it.
 */
public final class RaceTest {
    private RaceTest() {}

    public static RaceTestResult run(Layout layout, RaceTestParams p, boolean quick, Path reportDir, String command,
            Progress progress) throws IOException, InterruptedException {
        layout.ensureBuilt(false, true, false);
        Files.createDirectories(reportDir);
        Path work = Files.createDirectories(reportDir.resolve("runs"));
        Path agent = Files.copy(layout.agentJar(), work.resolve("qosweaver-agent.jar"),
                StandardCopyOption.REPLACE_EXISTING);
        String classPath = System.getProperty("java.class.path");
        Cgroups cgroups = Cgroups.detect();
        Map<String, String> baselines = new LinkedHashMap<>();
        baselines.put("java priorities", "ok (applied with Thread.setPriority; on Linux they reach the OS only with"
                + " -XX:ThreadPriorityPolicy=1 as root, so they are expected to change nothing)");
        baselines.put("nice", Tools.hasRenice() ? "ok" : "renice not found: nice values are not applied");
        baselines.put("one CPU for the baselines", Tools.hasTaskset() ? "ok" : "taskset not found: the baselines run on"
                + " every CPU, so their shares are not of one core");
        baselines.put("cgroup", cgroups.unavailableReason() == null ? "ok"
                : "skipped: " + cgroups.unavailableReason());
        int machineCores = Runtime.getRuntime().availableProcessors();
        List<RunSpec> plan = RaceTestPlan.runs(p, machineCores, cgroups.unavailableReason());
        Map<String, Object> params = p.asMap();
        params.put("runs", plan.size());
        params.put("p_overhead_fairness", machineCores);
        params.put("p_partitioning_jitter", 1);
        params.put("dhrystone_iterations_per_loop", Dhrystone.ITERATIONS);
        params.putAll(layout.jarDates(true));
        Map<String, Object> machine = Machine.describe(); // its load average at the start
        Map<String, String> errors = new LinkedHashMap<>();
        List<RunResult> runs = new ArrayList<>();
        Double capacity = null;
        int k = 0;
        for (RunSpec s : plan) {
            k++;
            progress.update("[racetest] " + k + "/" + plan.size() + " " + s.id() + " (" + s.version() + ", "
                    + Format.number(s.durationS()) + " s)");
            try {
                RaceTestRunner.Output out = RaceTestRunner.run(s, agent, work, classPath, p.warmupS(), p.policyParams(), cgroups);
                List<RunnerResult> rs = new ArrayList<>();
                double aggregate = 0;
                for (int i = 0; i < s.runners().size(); i++) {
                    RunSpec.Runner r = s.runners().get(i);
                    RunnerResult x = RaceTestAnalysis.runner(r, out.samples().get(i), out.cpuSamples().get(i),
                            out.cpuMs()[i], out.applied().getOrDefault(r.name(), "-"), capacity);
                    rs.add(x);
                    aggregate += x.meanLoopsPerS();
                }
                if (s.id().equals("capacity")) {
                    capacity = aggregate;
                    rs = List.of(RaceTestAnalysis.runner(s.runners().get(0), out.samples().get(0),
                            out.cpuSamples().get(0), out.cpuMs()[0], "-", capacity));
                }
                if (s.managed() && !out.scheduled()) {
                    errors.put(s.id(), "the Java API found no scheduler under the agent: the run is unmanaged");
                }
                double cpuCores = 0;
                for (long ms : out.cpuMs()) {
                    cpuCores += ms / (s.durationS() * 1000);
                }
                Double others = out.machineBusyCores() == null ? null
                        : Round.round(Math.max(0, out.machineBusyCores() - cpuCores), 3);
                runs.add(new RunResult(s.id(), s.section(), s.config(), s.version(), s.cores(), s.reserved(),
                        s.oneCpu(), s.competingLoad(), out.scheduled(), Round.round(aggregate), Round.round(cpuCores, 3),
                        others, rs, work.resolve(s.id() + ".log").toString(), out.jvmThreadsCpuMs()));
                progress.update("[racetest]   aggregate " + Math.round(aggregate) + " loops/s, runners "
                        + Format.number(Round.round(cpuCores, 2)) + " cores, others "
                        + (others == null ? "?" : Format.number(Round.round(others, 2))) + " cores"
                        + (out.jvmThreadsCpuMs().isEmpty() ? "" : " (this JVM's own threads: "
                                + out.jvmThreadsCpuMs().entrySet().stream().limit(3)
                                        .map(e -> e.getKey() + " " + e.getValue() + " ms").toList() + ")")
                        + (rs.size() <= 4 ? ": " + rs.stream().map(x -> x.name() + " " + Math.round(x.meanLoopsPerS())
                        + (x.shareOfCore() == null ? "" : " (" + pct(x.shareOfCore()) + "% of a core)")).toList()
                        : ""));
            } catch (IOException e) {
                errors.put(s.id(), e.getMessage());
                progress.update("[racetest]   FAILED: " + e.getMessage());
            }
        }
        Files.deleteIfExists(agent); // a private copy for the run, not a result
        RaceTestResult r = assemble(quick, params, machine, command, capacity, baselines, runs, errors);
        JsonWriter.write(r, reportDir.resolve("results.json"));
        Reports.draw(reportDir, progress, () -> RaceTestReport.write(reportDir, r));
        return r;
    }

    /** Results from the runs (a seam: tests assemble them without processes). */
    static RaceTestResult assemble(boolean quick, Map<String, Object> params, Map<String, Object> machine,
            String command, Double capacity, Map<String, String> baselines, List<RunResult> runs,
            Map<String, String> errors) {
        var overhead = RaceTestAnalysis.overhead(runs);
        var fairness = RaceTestAnalysis.fairness(runs);
        var partitioning = RaceTestAnalysis.partitioning(runs);
        var jitter = RaceTestAnalysis.jitter(runs);
        var goals = RaceTestAnalysis.goals(overhead, fairness, partitioning);
        var summary = RaceTestAnalysis.summary(capacity, overhead, fairness, partitioning, jitter, goals);
        return new RaceTestResult("racetest", Instant.now().toString(), command, quick, params, machine, capacity,
                baselines, List.copyOf(runs), overhead, fairness, partitioning, jitter, Paper.asMap(), goals, summary,
                new LinkedHashMap<>(errors));
    }

    /** A fraction as a percentage with one decimal (no binary noise in progress and summaries). */
    static String pct(double f) {
        return String.format(java.util.Locale.ROOT, "%.1f", f * 100);
    }
}
