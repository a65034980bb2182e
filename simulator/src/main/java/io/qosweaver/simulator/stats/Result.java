package io.qosweaver.simulator.stats;

/**
 * One row of the table: one version (a policy, or "original") under one CPU model.
 *
 * @param version the policy name, "original", plus the CPU model's label in brackets when it is
 *     not the default one
 * @param periods collections due
 * @param deadlineMisses collections that overran their period, plus periods skipped for that
 * @param highMeanMs mean collection time
 * @param highMaxMs longest collection time
 * @param lowPerSecond completed low requests per second
 * @param suspensionMeanMs mean time from a collection's arrival until at most one low thread
 *     executes, over the episodes where that happened
 * @param suspensionEpisodes collections with such an episode
 * @param suspensionNever of those, episodes that ended with the collection, never converged
 * @param lowSuspendedSeconds total time low threads spent suspended
 * @param warnings what the policies warned about (priorities that do not reach the model's OS)
 * @param highDone collections completed
 * @param highLockWaitMaxMs the longest time a collection waited for the lock (0 without one)
 * @param middlePerSecond middle requests completed per second while no collection ran
 * @param middleDuringHighPerSecond middle requests completed per second while a collection ran
 * @param lowLimitMean the mean of the limit a policy put on running low threads while no collection
 *     ran (the smaller of its limit and the low class's cap; the clients' number when unlimited)
 */
public record Result(String version, int periods, int deadlineMisses, double highMeanMs, double highMaxMs,
        double lowPerSecond, double suspensionMeanMs, int suspensionEpisodes, int suspensionNever,
        double lowSuspendedSeconds, java.util.List<String> warnings, int highDone, double highLockWaitMaxMs,
        double middlePerSecond, double middleDuringHighPerSecond, double lowLimitMean) {

    public Result {
        warnings = java.util.List.copyOf(warnings);
    }

    /** The same measurements (warnings and version aside). */
    public boolean sameMeasurements(Result o) {
        return periods == o.periods && deadlineMisses == o.deadlineMisses && highMeanMs == o.highMeanMs
                && highMaxMs == o.highMaxMs && lowPerSecond == o.lowPerSecond
                && suspensionMeanMs == o.suspensionMeanMs && suspensionEpisodes == o.suspensionEpisodes
                && suspensionNever == o.suspensionNever && lowSuspendedSeconds == o.lowSuspendedSeconds
                && highDone == o.highDone && highLockWaitMaxMs == o.highLockWaitMaxMs
                && middlePerSecond == o.middlePerSecond && middleDuringHighPerSecond == o.middleDuringHighPerSecond
                && lowLimitMean == o.lowLimitMean;
    }
}
