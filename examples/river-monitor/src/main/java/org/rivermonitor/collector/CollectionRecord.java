package org.rivermonitor.collector;

/**
 * What one collection did. {@code missedDeadline} is {@code durationMs > periodMs}: the collection
 * overran its period, so the next one starts late.
 *
 * @param startMs      epoch millis when the collection started
 * @param durationMs   wall-clock duration in milliseconds
 * @param readings     readings obtained from the generator
 * @param errors       rivers whose reading could not be fetched or parsed
 * @param stored       whether the readings were written to the database
 * @param missedDeadline whether the duration exceeded the period
 * @param periodMs     the collection period in milliseconds
 * @param lateMs       how long after its slot in the timer's fixed-rate schedule it started (0 when
 *                     on time, or when no schedule is known): above zero, the timer was catching up
 *                     on collections an earlier overrun delayed
 */
public record CollectionRecord(long startMs, long durationMs, int readings, int errors, boolean stored,
                               boolean missedDeadline, long periodMs, long lateMs) {

    /** A collection outside any schedule (called directly, not by the timer). */
    public CollectionRecord(long startMs, long durationMs, int readings, int errors, boolean stored,
                            boolean missedDeadline, long periodMs) {
        this(startMs, durationMs, readings, errors, stored, missedDeadline, periodMs, 0);
    }
}
