package io.qosweaver.bench.lowcost;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.ScenarioResult;
import java.util.List;
import java.util.Map;

/** What {@code bench lowcost} writes to {@code results.json}: per version, the charts' throughput, latency and CPU with and without the collector. */
public record LowCostResult(String experiment, String generatedAt, String command, boolean quick,
        Map<String, Object> parameters, Map<String, Object> machine, List<List<String>> order,
        Map<String, VersionResult> versions, List<String> summary, Map<String, String> errors) {
    public boolean complete() {
        return errors.isEmpty();
    }

    /** Spread of a repeated measurement. */
    public record Spread(Double mean, Double min, Double max, Double stddev, int n) {
        static Spread of(List<Double> xs) {
            List<Double> v = xs.stream().filter(x -> x != null).toList();
            if (v.isEmpty()) {
                return new Spread(null, null, null, null, 0);
            }
            double m = v.stream().mapToDouble(d -> d).average().orElse(0);
            double sq = v.stream().mapToDouble(d -> (d - m) * (d - m)).sum();
            return new Spread(round(m), round(v.stream().mapToDouble(d -> d).min().orElse(0)),
                    round(v.stream().mapToDouble(d -> d).max().orElse(0)),
                    round(v.size() < 2 ? 0 : Math.sqrt(sq / (v.size() - 1))), v.size());
        }
    }

    /**
     * One condition of one version. {@code chart_mean_ci95_ms}: the 95 % confidence interval of
     * the mean chart response time (normal approximation over the requests of the runs, as the
     * paper gives for Fig. 18 b).
     */
    public record Condition(Spread chartThroughputPerS, Spread chartMeanMs, List<Double> chartMeanCi95Ms,
                            Spread chartP50Ms, Spread chartP99Ms, Spread appCpuMsPerChart, long chartErrors,
                            Map<String, Long> chartErrorKinds, List<ScenarioResult> runs) {
    }

    /**
     * {@code versions.<name>}: the common fields from the runs with collection, both
     * conditions in full, and the ratios to {@code original} of the same invocation:
     * {@code throughput_loss_with_collection_pct} (Fig. 18 a), {@code response_time_increase_pct}
     * (Fig. 18 b), {@code overhead_pct} (throughput lost without collection) and
     * {@code cpu_per_chart_overhead_pct}.
     */
    public record VersionResult(String description, String policy, String peer, Double deadlineMissRatio,
                                Double collectionTimeMeanMs, Double collectionTimeMaxMs,
                                Double collectionTimeStddevMs, Double chartThroughputPerS, Double chartP50Ms,
                                Double chartP99Ms, Double suspensionTimeMeanMs, Double suspensionTimeP99Ms,
                                Condition withCollection, Condition withoutCollection,
                                Double throughputLossWithCollectionPct, Double responseTimeIncreasePct,
                                Double overheadPct, Double cpuPerChartOverheadPct) {
    }
}
