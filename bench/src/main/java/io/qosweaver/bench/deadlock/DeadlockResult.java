package io.qosweaver.bench.deadlock;

import io.qosweaver.bench.app.ScenarioResult;
import java.util.List;
import java.util.Map;

/** What {@code bench deadlock} writes to {@code results.json}. */
public record DeadlockResult(String experiment, String generatedAt, String command, boolean quick,
        Map<String, Object> parameters, Map<String, Object> machine, List<String> order,
        Map<String, VersionResult> versions, List<String> summary, List<Goal> goals, List<PaperRow> paper,
        Map<String, String> errors) {
    /** The task classes of the river-monitor policies: the periodic job and the heavy request. */
    public static final String COLLECTOR = "collector";
    public static final String CHART = "chart";

    /**
     * {@code versions.<name>}: one app process. A deadlocked one was killed when the deadlock was
     * detected: its collection figures are those completed before, its chart figures null.
     *
     * @param deadlocked             the watcher saw no collection end for the limit while a thread was suspended
     * @param deadlockDetectedAtS    seconds from the app's start (ready line) to the detection
     * @param deadlockEvidence       from the thread dump taken then: the collector's frames, the logger's holder
     * @param permanentSuspension    a thread still suspended {@code end_check_limit_s} after the run's end
     *                               (null: no agent, or not reached)
     * @param runOnEpisodes          the agent's {@code qosweaver_wait_timeouts_total} at the end (whole run,
     *                               warm-up included): timed waits after which a thread ran on
     * @param collectorProgressPoints the collector's progress points at the end (whole run)
     * @param monitorSkips           flagged threads passing an in-monitor control point (whole run)
     * @param collectionTimeDeltaMs  mean collection time minus {@code importance-no-log}'s
     * @param chartThroughputChangePct and {@code chartMeanChangePct}: against {@code original}'s, in percent
     */
    public record VersionResult(String description, boolean syncLog, List<String> jvmFlags, String policy,
                                boolean deadlocked, Double deadlockDetectedAtS, Integer collectionsBeforeDeadlock,
                                List<String> deadlockEvidence, String threadDump,
                                Boolean permanentSuspension, Integer suspendedAtEnd, Double endCheckWaitedS,
                                int collectionCount, int missedCount, Double deadlineMissRatio,
                                Double collectionTimeMeanMs, Double collectionTimeMaxMs, Double chartThroughputPerS,
                                Double chartMeanMs, Double chartP50Ms, Double chartP99Ms, Long chartErrors,
                                Long runOnEpisodes, Long collectorProgressPoints, Long monitorSkips,
                                Double collectionTimeDeltaMs, Double chartThroughputChangePct,
                                Double chartMeanChangePct, String appLog, String error, ScenarioResult detail) {
    }

    /** A goal of issue 14 and whether this run met it ({@code met} null: not measured). */
    public record Goal(String goal, Boolean met, String detail) {
    }

    /** The paper's figure beside ours. */
    public record PaperRow(String figure, String paper, String ours) {
    }
}
