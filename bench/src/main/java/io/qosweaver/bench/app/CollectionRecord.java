package io.qosweaver.bench.app;

/**
 * One collection of the river monitor, as served by {@code GET /status/collections}.
 *
 * @param startMs        wall-clock start (epoch ms)
 * @param durationMs     how long it took; null while still running
 * @param readings       readings stored, or null when not reported
 * @param missedDeadline as reported by the app; null when not reported
 * @param periodMs       the collector's period, or null when not reported
 * @param lateMs         how long after its slot in the collector's fixed-rate schedule it started
 *                       (above zero: the timer was catching up on collections an overrun delayed);
 *                       null when not reported
 */
public record CollectionRecord(long startMs, Long durationMs, Integer readings, Boolean missedDeadline,
                               Long periodMs, Long lateMs) {

    /** A record of an app that does not report its schedule. */
    public CollectionRecord(long startMs, Long durationMs, Integer readings, Boolean missedDeadline, Long periodMs) {
        this(startMs, durationMs, readings, missedDeadline, periodMs, null);
    }

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
