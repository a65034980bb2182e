package io.qosweaver.bench.deadline;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.ScenarioResult;
import java.util.List;
import java.util.Map;

/** What {@code bench deadline} writes to {@code results.json}: every version's aggregate and per-window metrics. */
public record DeadlineResult(String experiment, String generatedAt, String command, boolean quick,
        Map<String, Object> parameters, Map<String, Object> machine, List<List<String>> order,
        Map<String, VersionResult> versions, List<String> summary, Map<String, String> errors) {
    public boolean complete() {
        return errors.isEmpty();
    }

    /** One version's numbers in one chart window (or aggregated over all of them). */
    public record Metrics(int collectionCount, int missedCount, Double deadlineMissRatio, Double collectionTimeMeanMs,
                          Double collectionTimeMaxMs, Double collectionTimeStddevMs, Double chartThroughputPerS,
                          Double chartP50Ms, Double chartP99Ms, long chartErrors, Double suspensionTimeMeanMs,
                          Double suspensionTimeP99Ms) {

        Object get(String metric) {
            return switch (metric) {
                case "deadline_miss_ratio" -> deadlineMissRatio;
                case "collection_time_mean_ms" -> collectionTimeMeanMs;
                case "collection_time_max_ms" -> collectionTimeMaxMs;
                case "collection_time_stddev_ms" -> collectionTimeStddevMs;
                case "chart_throughput_per_s" -> chartThroughputPerS;
                case "chart_p50_ms" -> chartP50Ms;
                case "chart_p99_ms" -> chartP99Ms;
                case "suspension_time_mean_ms" -> suspensionTimeMeanMs;
                case "suspension_time_p99_ms" -> suspensionTimeP99Ms;
                default -> throw new IllegalArgumentException(metric);
            };
        }
    }

    /**
     * {@code by_hours.<h>}: the window's metrics (unwrapped: {@code by_hours.<h>.deadline_miss_ratio}
     * etc.; absent when the run failed, see {@code error}), the priority gauge, and the full window
     * result ({@code detail}: every collection, the load; no running-threads gauge: the deadline
     * runs ask the agent nothing inside a window, as they cannot ask a peer).
     */
    public record Window(int hours, int orderInWindow,
                         @com.fasterxml.jackson.annotation.JsonUnwrapped Metrics metrics, Boolean mechanismEffective,
                         String mechanismReason, String appLog, String error, ScenarioResult detail) {
    }

    /**
     * {@code versions.<name>}. The top-level metric fields aggregate the windows: collections are
     * pooled (miss ratio = missed / all, mean, max and stddev over all durations); chart
     * throughput, p50 and p99 are the means of the windows' values; the suspension mean is
     * weighted by suspension count, its p99 the largest window p99. {@code spread} (with more
     * than one round only, else null): per main metric, the smallest and the largest of the
     * rounds' aggregates. {@code by_hours} keys: the window's hours, {@code "12#2"} for round 2.
     */
    public record VersionResult(String description, List<String> jvmFlags, String policy,
                                int collectionCount, int missedCount, Double deadlineMissRatio,
                                Double collectionTimeMeanMs, Double collectionTimeMaxMs,
                                Double collectionTimeStddevMs, Double chartThroughputPerS, Double chartP50Ms,
                                Double chartP99Ms, long chartErrors, Double suspensionTimeMeanMs,
                                Double suspensionTimeP99Ms, Boolean mechanismEffective, String mechanismReason,
                                Map<String, Double> ratioToOriginal, Map<String, List<Double>> spread,
                                Map<String, Window> byHours) {
        Metrics metrics() {
            return new Metrics(collectionCount, missedCount, deadlineMissRatio, collectionTimeMeanMs,
                    collectionTimeMaxMs, collectionTimeStddevMs, chartThroughputPerS, chartP50Ms, chartP99Ms,
                    chartErrors, suspensionTimeMeanMs, suspensionTimeP99Ms);
        }
    }
}
