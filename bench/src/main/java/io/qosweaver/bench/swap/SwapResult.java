package io.qosweaver.bench.swap;

import io.qosweaver.bench.app.ScenarioResult;
import java.util.List;
import java.util.Map;

/**
 * What {@code bench swap} writes to {@code results.json}.
 *
 * @param steps         every change, in order
 * @param phases        the load between two changes, labelled with the policy in force
 * @param byPolicy      the phases pooled by the policy in force (the label)
 * @param latency       the round trip of every change (command sent to answer: new policy in force)
 * @param latencyByKind the same per kind of change ({@code swap}, {@code unweave}, {@code set})
 */
public record SwapResult(String experiment, String generatedAt, String command, boolean quick,
        Map<String, Object> parameters, Map<String, Object> machine, List<StepResult> steps,
        List<PhaseResult> phases, Map<String, PolicyResult> byPolicy, LatencyStats latency,
        Map<String, LatencyStats> latencyByKind, Accounting accounting, List<Goal> goals, List<String> summary,
        Map<String, String> errors, String appLog) {

    /**
     * One change.
     *
     * @param offsetS     when it was sent, from the start of the measured load
     * @param roundTripMs from sending the command to its answer: the swap latency
     * @param agentMs     what the agent says the swap took (its answer's {@code in N ms}), or null
     * @param expected    the policy that should be in force after it
     * @param inForce     the policy {@code status} reported right after it (null: status failed)
     * @param verified    the command succeeded and the expected policy is in force
     */
    public record StepResult(int index, double offsetS, String command, String kind, boolean ok, double roundTripMs,
                             Double agentMs, String expected, String inForce, boolean verified, String message) {
    }

    /**
     * A phase's deadline figures, as the deadline experiment has them: the collections that
     * START in it (an unfinished one counts as missed once it has outlived its period), the chart
     * requests that ENDED in it.
     */
    public record Metrics(int collectionCount, int missedCount, Double deadlineMissRatio, Double collectionTimeMeanMs,
                          Double collectionTimeMaxMs, Double collectionTimeStddevMs, long chartCompleted,
                          long chartFailed, double chartThroughputPerS, Double chartP50Ms, Double chartP99Ms) {
    }

    /** The load between change {@code index} (0: the start) and the next one. */
    public record PhaseResult(int index, String policy, double startS, double endS,
                              @com.fasterxml.jackson.annotation.JsonUnwrapped Metrics metrics,
                              List<ScenarioResult.Collection> collections) {
    }

    /** Every phase run under one policy, pooled. */
    public record PolicyResult(int phases, double seconds,
                               @com.fasterxml.jackson.annotation.JsonUnwrapped Metrics metrics) {
    }

    /** A distribution of change latencies in ms (nearest-rank percentiles); null figures when there is none. */
    public record LatencyStats(int count, Double meanMs, Double p50Ms, Double p90Ms, Double p99Ms, Double maxMs) {
    }

    /**
     * Every request the load generator sent, and what became of it; the threads left parked after
     * the load had stopped.
     *
     * @param lost                   sent minus completed minus failed, after the clients had stopped
     * @param drained                every client got the answer of its last request before the time-out
     * @param suspendedThreads       the scheduler's parked threads ({@code status}) at the end of the
     *                               grace period; null when no scheduler was installed (unwoven: nothing
     *                               can be parked)
     * @param parkedInThreadDump     application threads the JVM's own thread dump shows parked in
     *                               QoSWeaver code at the end of the grace period; null when no dump
     * @param waitedS                how long after the load stopped the parked count reached 0 (or the grace)
     * @param policyAtEnd            the policy in force when the load stopped
     * @param appAlive               the app still ran after the check
     */
    public record Accounting(long sent, long completed, long failed, long httpErrors, long exceptions,
                             Map<String, Long> failureKinds, long lost, boolean drained, Integer suspendedThreads,
                             Integer parkedInThreadDump, double waitedS, String policyAtEnd, boolean appAlive) {
    }

    /** A goal of the issue: met, NOT met, or null when not measured. */
    public record Goal(String goal, Boolean met, String detail) {
    }
}
