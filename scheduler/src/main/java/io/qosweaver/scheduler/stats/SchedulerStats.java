package io.qosweaver.scheduler.stats;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A snapshot of the installed scheduler's counters. Counters are totals since install.
 *
 * @param policy the policy name
 * @param controlPoints control points passed, fast and slow path (approximate under heavy
 *     concurrency: the fast path counts with plain stores into striped cells, see {@code QoS})
 * @param yields times a thread's yield flag was set
 * @param suspensions times a thread parked (at a control point or at entry)
 * @param resumes times a parked thread went on (released, interrupted, timed out or uninstalled)
 * @param internalErrors Throwables caught inside the scheduler (process-wide)
 * @param runningThreads per task class, threads inside a scope of it and not parked
 * @param suspendedThreads threads parked now
 * @param limit the current limit on controlled threads in permits, -1 when unlimited
 * @param runQueueSize controlled threads holding a running slot
 * @param waitQueueSize controlled threads told to yield (parked or about to park)
 * @param suspensionTimeCount episodes measured: each starts when the limit drops (a high task's
 *     entry for the importance policy) and ends when the controlled threads still executing are at
 *     most the limit (0 when already within it), or when the limit is lifted first
 * @param suspensionTimeSumNanos sum of those times
 * @param suspensionTimeMaxNanos the longest
 * @param suspensionTimeP50Nanos median over the recent (up to 1024) episodes
 * @param suspensionTimeP99Nanos 99th percentile over the recent episodes
 * @param admissionWaits times a thread waited at the entry of its scope to be admitted
 *     (admission control); these waits are also suspensions
 * @param admissionWaitNanos total time spent waiting at entry
 * @param monitorSkips times a flagged thread passed a control point inside a monitor without
 *     parking (never suspended while holding a lock; a virtual thread would pin its carrier)
 * @param interruptedPasses times a flagged thread passed a control point without parking because
 *     its interrupt status was set (it parks again once the application has cleared it)
 * @param waitTimeouts times a timed wait expired and the policy let the thread run on
 * @param priority for policies that work through thread priorities, whether they take effect;
 *     {@code null} for the others
 * @param intervalMeasurement whether control-point intervals are being measured now
 * @param controlPointIntervals per task class, the measured intervals between adjacent control
 *     points of its threads (totals since install, over the periods measurement was on)
 * @param progressPoints per observed task class, the progress points its threads passed
 *     ({@code QoS.progressPoint()}: what the deadlock-aware policy compares)
 * @param caps per observed task class whose policy set a cap on its running threads
 *     ({@code Control.setCap}), that cap now; classes without a cap are absent (the adaptive
 *     policy's low limit is the cap of its low classes)
 * @param shares for a proportional-share policy (MTR-LS), per entity the fraction asked, the
 *     share received over its last window and the lag; empty for the others
 */
public record SchedulerStats(
        String policy,
        long controlPoints,
        long yields,
        long suspensions,
        long resumes,
        long internalErrors,
        Map<String, Integer> runningThreads,
        int suspendedThreads,
        int limit,
        int runQueueSize,
        int waitQueueSize,
        long suspensionTimeCount,
        long suspensionTimeSumNanos,
        long suspensionTimeMaxNanos,
        long suspensionTimeP50Nanos,
        long suspensionTimeP99Nanos,
        long admissionWaits,
        long admissionWaitNanos,
        long monitorSkips,
        long interruptedPasses,
        long waitTimeouts,
        PriorityReport priority,
        boolean intervalMeasurement,
        Map<String, IntervalSnapshot> controlPointIntervals,
        Map<String, Long> progressPoints,
        Map<String, Integer> caps,
        List<EntityShare> shares) {

    public SchedulerStats {
        shares = List.copyOf(shares);
        runningThreads = Collections.unmodifiableMap(new LinkedHashMap<>(runningThreads));
        controlPointIntervals = Collections.unmodifiableMap(new LinkedHashMap<>(controlPointIntervals));
        progressPoints = Collections.unmodifiableMap(new LinkedHashMap<>(progressPoints));
        caps = Collections.unmodifiableMap(new LinkedHashMap<>(caps));
    }

    /** Without shares (snapshots written before they were exported). */
    public SchedulerStats(String policy, long controlPoints, long yields, long suspensions, long resumes,
            long internalErrors, Map<String, Integer> runningThreads, int suspendedThreads, int limit,
            int runQueueSize, int waitQueueSize, long suspensionTimeCount, long suspensionTimeSumNanos,
            long suspensionTimeMaxNanos, long suspensionTimeP50Nanos, long suspensionTimeP99Nanos,
            long admissionWaits, long admissionWaitNanos, long monitorSkips, long interruptedPasses,
            long waitTimeouts, PriorityReport priority, boolean intervalMeasurement,
            Map<String, IntervalSnapshot> controlPointIntervals, Map<String, Long> progressPoints,
            Map<String, Integer> caps) {
        this(policy, controlPoints, yields, suspensions, resumes, internalErrors, runningThreads, suspendedThreads,
                limit, runQueueSize, waitQueueSize, suspensionTimeCount, suspensionTimeSumNanos,
                suspensionTimeMaxNanos, suspensionTimeP50Nanos, suspensionTimeP99Nanos, admissionWaits,
                admissionWaitNanos, monitorSkips, interruptedPasses, waitTimeouts, priority, intervalMeasurement,
                controlPointIntervals, progressPoints, caps, List.of());
    }

    /** Without caps (snapshots written before they were exported). */
    public SchedulerStats(String policy, long controlPoints, long yields, long suspensions, long resumes,
            long internalErrors, Map<String, Integer> runningThreads, int suspendedThreads, int limit,
            int runQueueSize, int waitQueueSize, long suspensionTimeCount, long suspensionTimeSumNanos,
            long suspensionTimeMaxNanos, long suspensionTimeP50Nanos, long suspensionTimeP99Nanos,
            long admissionWaits, long admissionWaitNanos, long monitorSkips, long interruptedPasses,
            long waitTimeouts, PriorityReport priority, boolean intervalMeasurement,
            Map<String, IntervalSnapshot> controlPointIntervals, Map<String, Long> progressPoints) {
        this(policy, controlPoints, yields, suspensions, resumes, internalErrors, runningThreads, suspendedThreads,
                limit, runQueueSize, waitQueueSize, suspensionTimeCount, suspensionTimeSumNanos,
                suspensionTimeMaxNanos, suspensionTimeP50Nanos, suspensionTimeP99Nanos, admissionWaits,
                admissionWaitNanos, monitorSkips, interruptedPasses, waitTimeouts, priority, intervalMeasurement,
                controlPointIntervals, progressPoints, Map.of());
    }

    /** Without progress points (snapshots written before they were counted here). */
    public SchedulerStats(String policy, long controlPoints, long yields, long suspensions, long resumes,
            long internalErrors, Map<String, Integer> runningThreads, int suspendedThreads, int limit,
            int runQueueSize, int waitQueueSize, long suspensionTimeCount, long suspensionTimeSumNanos,
            long suspensionTimeMaxNanos, long suspensionTimeP50Nanos, long suspensionTimeP99Nanos,
            long admissionWaits, long admissionWaitNanos, long monitorSkips, long interruptedPasses,
            long waitTimeouts, PriorityReport priority, boolean intervalMeasurement,
            Map<String, IntervalSnapshot> controlPointIntervals) {
        this(policy, controlPoints, yields, suspensions, resumes, internalErrors, runningThreads, suspendedThreads,
                limit, runQueueSize, waitQueueSize, suspensionTimeCount, suspensionTimeSumNanos,
                suspensionTimeMaxNanos, suspensionTimeP50Nanos, suspensionTimeP99Nanos, admissionWaits,
                admissionWaitNanos, monitorSkips, interruptedPasses, waitTimeouts, priority, intervalMeasurement,
                controlPointIntervals, Map.of());
    }
}
