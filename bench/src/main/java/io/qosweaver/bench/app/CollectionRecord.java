package io.qosweaver.bench.app;

/**
 * One collection of the river monitor, as served by {@code GET /status/collections}.
 *
 * @param startMs        wall-clock start (epoch ms)
 * @param durationMs     how long it took; null while still running
 * @param readings       readings stored, or null when not reported
 * @param missedDeadline as reported by the app; null when not reported
 * @param periodMs       the collector's period, or null when not reported
 */
public record CollectionRecord(long startMs, Long durationMs, Integer readings, Boolean missedDeadline,
                               Long periodMs) {

    /** Missed when the app says so; otherwise when it ran longer than its period. */
    public boolean missed(long defaultPeriodMs) {
        if (missedDeadline != null) {
            return missedDeadline;
        }
        long period = periodMs != null ? periodMs : defaultPeriodMs;
        return durationMs != null && durationMs > period;
    }

    public boolean finished() {
        return durationMs != null;
    }
}
