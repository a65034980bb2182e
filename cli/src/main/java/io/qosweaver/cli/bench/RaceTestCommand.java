package io.qosweaver.cli.bench;

import io.qosweaver.bench.racetest.RaceTest;
import io.qosweaver.bench.racetest.RaceTestParams;
import io.qosweaver.bench.racetest.RaceTestResult;
import io.qosweaver.bench.run.Layout;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code qosweaver bench racetest}: MTR-LS shares through the Java API (issue 16, Q-JVM paper 4.2-4.6). */
@Command(name = "racetest", mixinStandardHelpOptions = true,
        description = "RaceTest: CPU-bound runners (a Dhrystone-like loop) asking CPU shares through the Java API "
                + "under the agent's mtr-ls policy, against the unmanaged JVM (Java priorities, nice per thread, "
                + "cgroup v2 weights where available): overhead (1, 4, 10 runners), fairness (10 at 9%%), "
                + "partitioning (70/20, 50/30/10, a group of three in a 40%% group) and jitter (idle and under a "
                + "competing load, with and without the reserved share), the paper's numbers beside ours. Exit 1 "
                + "when a run failed or a goal is not met.")
final class RaceTestCommand implements Callable<Integer> {
    @Mixin
    ReportOptions report = new ReportOptions();

    @Option(names = "--quick", description = "5 s runs and one 10 s fairness window (about 4 minutes) instead of "
            + "30 s runs and six windows (about 20 minutes)")
    boolean quick;

    @Option(names = "--sections", split = ",", paramLabel = "S",
            description = "which parts to run: overhead, fairness, partitioning, jitter (default: all)")
    List<String> sections;

    @Option(names = "--duration", paramLabel = "S", description = "measured seconds per run (default 30; quick 5)")
    Double duration;

    @Option(names = "--warmup", paramLabel = "S", description = "seconds each run's JVM runs before its first sample "
            + "(default 5; quick 2); the same for every version: about 30 lets the scheduler's own code reach C2 "
            + "in managed runs (bench/results/racetest/overhead-threads-2026-11-27/)")
    Double warmup;

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/racetest)")
    Path reportDir;

    @Option(names = "--policy-param", paramLabel = "KEY=VALUE",
            description = "a parameter of the managed runs' mtr-ls policy (quantum, sample, minSample, ...; "
                    + "scheduler/README.md), for comparing settings; repeatable; none by default")
    java.util.Map<String, String> policyParams;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    RaceTestParams params() {
        RaceTestParams p = quick ? RaceTestParams.quick() : RaceTestParams.full();
        try {
            if (duration != null || warmup != null) {
                p = new RaceTestParams(duration != null ? duration : p.durationS(),
                        warmup != null ? warmup : p.warmupS(), p.fairnessDurationS(), p.sections());
            }
            p = sections == null || sections.isEmpty() ? p : p.withSections(sections);
            return policyParams == null ? p : p.withPolicyParams(policyParams);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    @Override
    public Integer call() throws Exception {
        RaceTestParams p = params();
        Layout layout = Layout.find();
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/racetest");
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        RaceTestResult r = RaceTest.run(layout, p, quick, dir, ReportOptions.commandLine(args), report.progress());
        int rc = report.finish("bench racetest", r, r.summary(), r.errors(), dir);
        if (rc == 0 && r.goals().stream().anyMatch(g -> Boolean.FALSE.equals(g.met()))) {
            System.err.println("qosweaver bench racetest: a goal is not met (see the summary)");
            return 1;
        }
        return rc;
    }
}
