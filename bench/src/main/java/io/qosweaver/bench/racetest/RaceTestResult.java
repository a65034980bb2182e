package io.qosweaver.bench.racetest;

import java.util.List;
import java.util.Map;

/**
 * What {@code bench racetest} writes to {@code results.json}.
 *
 * @param capacityLoopsPerS one runner alone on the unmanaged JVM: one core's capacity (the paper's
 *                          Table 1, 1 runner), what shares of a core are measured against
 * @param baselines         per baseline (priorities, nice, cgroup): whether it could be applied here, and why not
 */
public record RaceTestResult(String experiment, String generatedAt, String command, boolean quick,
        Map<String, Object> parameters, Map<String, Object> machine, Double capacityLoopsPerS,
        Map<String, String> baselines, List<RunResult> runs, List<OverheadRow> overhead,
        List<FairnessRow> fairness, List<PartitionRow> partitioning, List<JitterRow> jitter,
        Map<String, Object> paper, List<Goal> goals, List<String> summary, Map<String, String> errors) {

    /**
     * One run as measured.
     *
     * @param aggregateLoopsPerS the sum of the runners' means (the paper's aggregate average throughput)
     * @param scheduled          the API found a scheduler that takes shares (false: unmanaged)
     * @param runnersCpuCores    the runners' CPU time over the measured part, in cores
     * @param otherCpuCores      the rest of the machine's busy CPUs over it (other processes, the
     *                           JVM's own threads, the competing load): a run disturbed by others
     *                           shows here; null when {@code /proc/stat} could not be read
     * @param jvmThreadsCpuMs    the CPU time (ms, from each thread's schedstat; under 1 ms left out) of the run's JVM's own threads other
     *                           than the runners over the measured part, by kernel thread name, largest
     *                           first (at most 12): the part of {@code otherCpuCores} that is this JVM's
     *                           (a managed run's scheduler tick, the JIT, the GC)
     */
    public record RunResult(String id, String section, String config, String version, Integer cores,
                            Double reserved, boolean oneCpu, boolean competingLoad, boolean scheduled,
                            double aggregateLoopsPerS, double runnersCpuCores, Double otherCpuCores,
                            List<RunnerResult> runners, String log, Map<String, Long> jvmThreadsCpuMs) {
    }

    /**
     * @param applied       what became of the runner's nice value or cgroup weight ("ok", or why not)
     * @param sdPct         standard deviation of its per-second samples, % of its mean (the paper's jitter)
     * @param shareOfCore   its mean over the capacity: the share of a core in work done
     * @param cpuShare      its CPU time over the measured wall time: the share of a core in time,
     *                      what the scheduler hands out (work per CPU second varies with what runs
     *                      on the other hardware thread of the core)
     * @param samples       loops per second, one a second
     * @param cpuSamples    its CPU time in each of those seconds, in ms (empty from a run that did not print it)
     */
    public record RunnerResult(String name, double fraction, String group, int priority, Integer nice,
                               Integer weight, String applied, double meanLoopsPerS, double sdPct,
                               Double shareOfCore, Double cpuShare, long cpuMs, List<Double> samples,
                               List<Double> cpuSamples) {
    }

    /**
     * Aggregate throughput managed against unmanaged (the paper's Table 3), the runners' CPU time
     * managed against unmanaged (the goal's measure: loops per CPU second differ by up to 1.8x
     * between processes on this host), and loops per CPU second of the runners (what the loop and
     * the control points cost, apart from the time the runners did not get).
     *
     * @param cpuLossPct the runners' CPU time lost against unmanaged, in %; null when not recorded
     */
    public record OverheadRow(int runners, String config, double unmanagedLoopsPerS, double managedLoopsPerS,
                              double lossPct, Double paperLossPct, double unmanagedCpuCores, double managedCpuCores,
                              Double cpuLossPct, double lossPerCpuSecondPct) {
    }

    /**
     * Equal fractions: each runner's throughput against the mean, per 10 s window (Fig. 3), in
     * loops (the paper's measure) and in CPU time (what the scheduler hands out; null without it).
     *
     * @param maxDeviationPct    the largest |runner - mean| / mean over runners and windows, in loops
     * @param maxCpuDeviationPct the same in CPU time
     */
    public record FairnessRow(String version, int runners, int windows, double meanLoopsPerS,
                              double maxDeviationPct, double meanDeviationPct, List<Double> perWindowMaxPct,
                              Double maxCpuDeviationPct, Double meanCpuDeviationPct, List<Double> perWindowMaxCpuPct) {
    }

    /** One runner of a partitioning configuration under one version (Table 4). */
    public record PartitionRow(String config, String version, String runner, String group, double fraction,
                               double loopsPerS, Double shareOfCore, Double cpuShare, Boolean reservationMet) {
    }

    /** Per-second jitter of one runner (Table 1's second row, Table 2). */
    public record JitterRow(String load, String version, Double reserved, double loopsPerS, double sdPct,
                            Double shareOfCore) {
    }

    /** A goal of the issue: met, NOT met, or null when not measured. */
    public record Goal(String goal, Boolean met, String detail) {
    }
}
