package io.qosweaver.bench.racetest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qosweaver.bench.racetest.RaceTestResult.RunResult;
import io.qosweaver.bench.racetest.RaceTestResult.RunnerResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tables and goals from recorded samples, without processes; and the report drawn from them. */
class RaceTestAnalysisTest {

    private static RunnerResult runner(String name, double fraction, List<Double> samples, Double capacity) {
        // CPU time in proportion to the loops (a core does 1000 loops/s here)
        return runner(name, fraction, samples, samples, capacity);
    }

    /** With the CPU ms of each second apart from its loops (a hardware thread's speed varies). */
    private static RunnerResult runner(String name, double fraction, List<Double> samples, List<Double> cpuSamples,
                                       Double capacity) {
        long cpuMs = Math.round(cpuSamples.stream().mapToDouble(Double::doubleValue).sum());
        return RaceTestAnalysis.runner(new RunSpec.Runner(name, fraction, 5, "-", null, null), samples, cpuSamples,
                cpuMs, "-", capacity);
    }

    private static RunResult run(String id, String section, String config, String version, Double reserved,
            RunnerResult... rs) {
        double agg = 0;
        for (RunnerResult r : rs) {
            agg += r.meanLoopsPerS();
        }
        double cpu = 0;
        for (RunnerResult r : rs) {
            cpu += r.cpuMs() / (r.samples().size() * 1000.0);
        }
        return new RunResult(id, section, config, version, version.equals("mtr-ls") ? 1 : null, reserved, false,
                false, version.equals("mtr-ls"), agg, cpu, 0.0, List.of(rs), "", Map.of());
    }

    private static List<Double> flat(double v, int n) {
        return new ArrayList<>(Collections.nCopies(n, v));
    }

    @Test
    void jitterIsTheSampleStandardDeviationInPercentOfTheMean() {
        assertThat(RaceTestAnalysis.sdPct(List.of(90.0, 110.0))).isCloseTo(14.142, within(0.001));
        assertThat(RaceTestAnalysis.sdPct(List.of(5.0))).isZero();
    }

    @Test
    void overheadIsAgainstTheMeanOfTheUnmanagedRunsAroundIt() {
        List<RunResult> runs = List.of(
                run("capacity", "capacity", "", "unmanaged", null, runner("r", 0, flat(1000, 3), null)),
                run("overhead-1-config1", "overhead", "", "mtr-ls", 0.0, runner("r", 0.015, flat(990, 3), null)),
                run("overhead-1-config2", "overhead", "", "mtr-ls", 0.0, runner("r", 0.8, flat(1010, 3), null)),
                run("overhead-1-unmanaged-b", "overhead", "", "unmanaged", null, runner("r", 0, flat(1000, 3), null)));
        var rows = RaceTestAnalysis.overhead(runs);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).lossPct()).isEqualTo(1.0);
        assertThat(rows.get(1).lossPct()).isEqualTo(-1.0);
        assertThat(rows.get(0).paperLossPct()).isCloseTo(0.232, within(0.001));
        assertThat(rows.get(0).managedCpuCores()).isEqualTo(0.99);
        assertThat(rows.get(0).lossPerCpuSecondPct()).as("the same work per CPU second: the loss was time").isZero();
        assertThat(rows.get(0).cpuLossPct()).isEqualTo(1.0);
        var goals = RaceTestAnalysis.goals(rows, List.of(), List.of());
        assertThat(goals.get(0).met()).isFalse();
        assertThat(goals.get(1).met()).as("fairness not measured").isNull();
    }

    /**
     * The goal is judged on the runners' CPU time, as fairness is: here the managed process did
     * 20 % fewer loops per CPU second (another process, another speed on this host) but its
     * runners lost 0.2 % of their CPU time.
     */
    @Test
    void overheadIsJudgedOnTheRunnersCpuTimeNotOnLoops() {
        List<RunResult> runs = List.of(
                run("capacity", "capacity", "", "unmanaged", null, runner("r", 0, flat(1000, 10), flat(1000, 10), null)),
                run("overhead-1-config1", "overhead", "", "mtr-ls", 0.0, runner("r", 0.015, flat(800, 10), flat(998, 10), null)),
                run("overhead-1-config2", "overhead", "", "mtr-ls", 0.0, runner("r", 0.8, flat(800, 10), flat(999, 10), null)),
                run("overhead-1-unmanaged-b", "overhead", "", "unmanaged", null, runner("r", 0, flat(1000, 10), flat(1000, 10), null)));
        var rows = RaceTestAnalysis.overhead(runs);
        assertThat(rows.get(0).lossPct()).isEqualTo(20.0);
        assertThat(rows.get(0).cpuLossPct()).isEqualTo(0.2);
        var goal = RaceTestAnalysis.goals(rows, List.of(), List.of()).get(0);
        assertThat(goal.met()).isTrue();
        assertThat(goal.detail()).startsWith("largest loss 0.2% of the runners' CPU time (1 runners")
                .contains("losses in loops: [20%, 20%]");
    }

    @Test
    void fairnessTakesEachWindowsRunnerMeansAgainstTheirMean() {
        List<Double> a = flat(100, 20), b = flat(100, 20);
        b.set(15, 120.0); // second window: b's mean 102, a's 100 -> mean 101, deviation 0.99 %
        var rows = RaceTestAnalysis.fairness(List.of(run("fairness-mtr-ls", "fairness", "", "mtr-ls", 0.05,
                runner("a", 0.09, a, null), runner("b", 0.09, b, null))));
        assertThat(rows).singleElement().satisfies(f -> {
            assertThat(f.windows()).isEqualTo(2);
            assertThat(f.perWindowMaxPct()).containsExactly(0.0, 0.99);
            assertThat(f.maxDeviationPct()).isEqualTo(0.99);
        });
        assertThat(RaceTestAnalysis.goals(List.of(), rows, List.of()).get(1).met()).isTrue();
    }

    @Test
    void fairnessIsJudgedOnCpuTimeWhenLoopsPerCpuSecondDifferBetweenRunners() {
        // the same CPU time each second, but b's hardware thread does 20 % fewer loops per CPU second
        List<Double> cpu = flat(500, 10);
        var rows = RaceTestAnalysis.fairness(List.of(run("fairness-mtr-ls", "fairness", "", "mtr-ls", 0.05,
                runner("a", 0.09, flat(1000, 10), cpu, null), runner("b", 0.09, flat(800, 10), cpu, null))));
        assertThat(rows).singleElement().satisfies(f -> {
            assertThat(f.maxDeviationPct()).as("in loops").isCloseTo(11.111, within(0.001));
            assertThat(f.maxCpuDeviationPct()).as("in CPU time").isZero();
            assertThat(f.perWindowMaxCpuPct()).containsExactly(0.0);
        });
        var goal = RaceTestAnalysis.goals(List.of(), rows, List.of()).get(1);
        assertThat(goal.met()).isTrue();
        assertThat(goal.detail()).contains("0% of the mean in CPU time (11.111% in loops)");
        // and an unequal CPU time is not hidden by equal loops
        List<Double> less = flat(450, 10);
        var unequal = RaceTestAnalysis.fairness(List.of(run("fairness-mtr-ls", "fairness", "", "mtr-ls", 0.05,
                runner("a", 0.09, flat(1000, 10), cpu, null), runner("b", 0.09, flat(1000, 10), less, null))));
        assertThat(RaceTestAnalysis.goals(List.of(), unequal, List.of()).get(1).met()).isFalse();
    }

    @Test
    void withoutCpuSamplesFairnessFallsBackToLoopsAndSaysSo() {
        var rows = RaceTestAnalysis.fairness(List.of(run("fairness-mtr-ls", "fairness", "", "mtr-ls", 0.05,
                runner("a", 0.09, flat(1000, 10), List.of(), null), runner("b", 0.09, flat(1000, 10), List.of(), null))));
        assertThat(rows.get(0).maxCpuDeviationPct()).isNull();
        var goal = RaceTestAnalysis.goals(List.of(), rows, List.of()).get(1);
        assertThat(goal.met()).isTrue();
        assertThat(goal.detail()).contains("no CPU time per second recorded");
    }

    @Test
    void aReservationIsMetWhenTheShareOfACoreIsAtLeastTheFraction(@TempDir Path dir) throws Exception {
        List<RunResult> runs = List.of(
                run("capacity", "capacity", "1 runner alone", "unmanaged", null, runner("r", 0, flat(1000, 3), 1000.0)),
                run("partition-70-20-mtr-ls", "partitioning", "70/20", "mtr-ls", 0.05,
                        runner("r70", 0.7, flat(740, 3), 1000.0), runner("r20", 0.2, flat(190, 3), 1000.0)));
        var rows = RaceTestAnalysis.partitioning(runs);
        assertThat(rows).extracting(RaceTestResult.PartitionRow::reservationMet).containsExactly(true, false);
        assertThat(rows).extracting(RaceTestResult.PartitionRow::cpuShare).containsExactly(0.74, 0.19);
        var goals = RaceTestAnalysis.goals(List.of(), List.of(), rows);
        assertThat(goals.get(2).met()).isFalse();
        assertThat(goals.get(2).detail()).contains("r20: 19.0% < 20.0%");
        RaceTestResult r = RaceTest.assemble(true, Map.of(), Map.of(), "test", 1000.0, Map.of("cgroup", "skipped: x"),
                runs, Map.of());
        RaceTestReport.write(dir, r);
        assertThat(dir.resolve("RESULTS.md")).content().contains("Goal NOT met: every reservation met")
                .contains("Baseline cgroup: skipped: x").contains("442,728 loops/s, 73%");
    }

    @Test
    void baselinesMapFractionsToPrioritiesNiceValuesAndWeights() {
        assertThat(RaceTestPlan.javaPriority(0.7, 0.7)).isEqualTo(10);
        assertThat(RaceTestPlan.javaPriority(0.2, 0.7)).isEqualTo(3);
        assertThat(RaceTestPlan.niceValue(0.7, 0.7)).isZero();
        assertThat(RaceTestPlan.niceValue(0.2, 0.7)).as("1.25^6 = 3.8, nearest to 3.5").isEqualTo(6);
        assertThat(RaceTestPlan.cgroupWeight(0.2)).isEqualTo(200);
        var runs = RaceTestPlan.runs(RaceTestParams.quick(), 2, "none here");
        assertThat(runs.get(0).id()).isEqualTo("capacity");
        assertThat(runs).noneMatch(s -> s.version().equals(RaceTestPlan.CGROUP));
        assertThat(RaceTestPlan.runs(RaceTestParams.quick(), 2, null)).anyMatch(s -> s.version().equals(RaceTestPlan.CGROUP));
        assertThat(runs).filteredOn(s -> s.section().equals("partitioning") && s.managed())
                .allMatch(s -> s.cores() == 1);
    }

    @Test
    void aManagedRunsPolicyCarriesTheExtraParametersUnderItsPolicyAfterTheHarnesssOwn() {
        RunSpec managed = RaceTestPlan.runs(RaceTestParams.quick(), 2, null).stream()
                .filter(RunSpec::managed).findFirst().orElseThrow();
        String plain = RaceTestRunner.policy(managed, java.util.Map.of());
        String tuned = RaceTestRunner.policy(managed, java.util.Map.of("quantum", "200ms", "minSample", "2ms"));
        assertThat(plain).doesNotContain("quantum");
        assertThat(tuned).startsWith(plain).endsWith("  minSample: 2ms\n  quantum: 200ms\n");
        assertThat(tuned.substring(tuned.indexOf("policy:"))).contains("name: mtr-ls").contains("quantum: 200ms");
    }
}
