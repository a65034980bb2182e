package io.qosweaver.bench.suspension;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.ScenarioResult;
import java.util.List;
import java.util.Map;

/** What {@code bench suspension} writes to {@code results.json}: per version, every collection's suspension episode. */
public record SuspensionResult(String experiment, String generatedAt, String command, boolean quick,
        Map<String, Object> parameters, Map<String, Object> machine, List<String> order,
        Map<String, VersionResult> versions, List<String> summary, Map<String, String> errors) {
    /** The river monitor's task classes whose threads the timeline follows. */
    public static final String HIGH = "collector";
    public static final String LOW = "chart";

    public boolean complete() {
        return errors.isEmpty();
    }

    /**
     * One collection seen on the timeline.
     *
     * @param startOffsetS   when the collector entered its scope, from the window start
     * @param runningAtStart chart threads running at that moment
     * @param suspendMs      time until at most {@code allowed} chart threads ran; 0 when already so;
     *                       null when the collection ended first
     * @param minRunning     the fewest chart threads running while the collection ran
     */
    public record Episode(double startOffsetS, int runningAtStart, Double suspendMs, int minRunning) {
    }

    /**
     * {@code versions.<name>}: the common fields (from the window), the timeline's
     * suspension statistics (mean, p50, p99, max over the episodes that converged; how many did
     * not), the scheduler's own convergence statistics for comparison, the episodes and the
     * timeline itself.
     */
    public record VersionResult(String description, String policy, Double deadlineMissRatio,
                                Double collectionTimeMeanMs, Double collectionTimeMaxMs,
                                Double collectionTimeStddevMs, Double chartThroughputPerS, Double chartP50Ms,
                                Double chartP99Ms, Double suspensionTimeMeanMs, Double suspensionTimeP50Ms,
                                Double suspensionTimeP99Ms, Double suspensionTimeMaxMs, int episodes,
                                int episodesNotConverged, Double schedulerSuspensionTimeMeanMs,
                                Double schedulerSuspensionTimeP99Ms, List<Episode> episodeList, String appLog,
                                String error, ScenarioResult detail) {
    }
}
