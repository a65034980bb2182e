package io.qosweaver.bench.pointcuts;

import io.qosweaver.bench.report.Table;
import java.util.List;
import java.util.Map;

/** What {@code bench pointcuts} writes to {@code results.json}: the profile, every parameter set's generated control points and what they did. */
public record PointcutsResult(String experiment, String generatedAt, String command, boolean quick,
        Map<String, Object> parameters, Map<String, Object> machine, ProfileInfo profile,
        long joinPoints, Double generationTimeMs, Baseline original,
        Map<String, SetResult> parameterSets, List<String> summary, Map<String, String> errors) {
    public boolean complete() {
        return errors.isEmpty();
    }

    /**
     * The profile the sets were generated from.
     *
     * @param unprofiledChartMs     the same charts timed on the app without the agent
     * @param profileSlowdown       1 (the profile's own time base) or as given: the generator's slots
     *                              are t times this in profile time, and its predicted intervals
     *                              are real time
     * @param profileSlowdownSource {@code given}, or {@code none: the profile's time base}
     * @param profiledSpanMs        per profile file, its longest timeline's span in the profile's time
     * @param timeBaseStretch       median span over median unprofiled chart (1: the profile's time is
     *                              real time); null without both
     * @param probeCostNanos        per file, the probe cost per join point the agent took out
     */
    public record ProfileInfo(List<String> files, long joinPoints, int timelines, int signatures,
                              List<Double> chartMsWhileRecorded, List<Double> unprofiledChartMs,
                              double profileSlowdown, String profileSlowdownSource, double readMs,
                              List<Double> profiledSpanMs, Double timeBaseStretch, List<Long> probeCostNanos) {
    }

    /** Observed intervals with {@code clients} concurrent chart requests (Fig. 19: 1; Fig. 21: 10, 20, 40). */
    public record Observed(int clients, long intervals, Double meanMs, Double sdMs, Double p50Ms, Double p90Ms,
                           Double p99Ms, Double chartThroughputPerS, Double controlPointsPerChart) {
    }

    /**
     * {@code parameter_sets.<name>}: Table 3's columns and the profile's prediction, the observed
     * intervals, the overhead without collection and the flash crowd with it.
     *
     * @param observedIntervalMeanMs the single-client mean (Fig. 19); per concurrency in {@code observed}
     * @param overheadPct            chart throughput lost without collection against original (mean of its runs)
     * @param cpuOverheadPct         CPU time per chart added without collection against original
     */
    public record SetResult(String kind, Double targetIntervalMs, Integer maxOccurrence, String policy,
                            int pointcuts, Long selectedJoinPoints, Double predictedIntervalMeanMs,
                            Double predictedIntervalSdMs, Double predictedLongestGapMs, Integer slots,
                            Integer uncoveredSlots,
                            Double generationTimeMs, Double observedIntervalMeanMs, Double observedIntervalSdMs,
                            Map<String, Observed> observed, Double controlPointsPerChart,
                            Double chartThroughputPerS, Double appCpuMsPerChart, Double overheadPct,
                            Double cpuOverheadPct, Double suspensionTimeMeanMs, Double suspensionTimeP99Ms,
                            Double collectionTimeMeanMs, Double collectionTimeMaxMs, Double deadlineMissRatio,
                            Double chartThroughputWithCollectionPerS, Double chartP50WithCollectionMs,
                            String error) {
    }

    /** {@code original}: the app without the agent, the overhead window run before and after all sets. */
    public record Baseline(List<Double> chartThroughputPerS, Double chartThroughputMeanPerS,
                           List<Double> appCpuMsPerChart, Double appCpuMsPerChartMean, Double collectionTimeMeanMs,
                           Double collectionTimeMaxMs, Double deadlineMissRatio,
                           Double chartThroughputWithCollectionPerS, Double chartP50WithCollectionMs) {
    }
}
