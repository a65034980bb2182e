package io.qosweaver.scheduler.stats;

import java.util.Arrays;

/**
 * A copy of a control-point interval histogram: count, sum, sum of squares, maximum and counts in
 * fixed buckets with readable upper bounds, 1, 1.5, 2, 3, 5 and 7 times each power of ten from
 * 1 us to 10 s ({@link #boundsNanos()}; steps of 1.33x to 1.67x), plus one overflow bucket.
 *
 * @param count            intervals recorded
 * @param sumNanos         their sum
 * @param sumSquaresNanos  the sum of their squares (ns^2), for the standard deviation
 * @param maxNanos         the longest
 * @param bucketCounts     per bucket (not cumulative); the last one is the overflow
 */
public record IntervalSnapshot(long count, long sumNanos, double sumSquaresNanos, long maxNanos, long[] bucketCounts) {
    private static final int[] STEPS_TENTHS = {10, 15, 20, 30, 50, 70};
    private static final long[] BOUNDS_NANOS = new long[7 * STEPS_TENTHS.length + 1];

    static {
        long decade = 1_000; // 1 us
        int k = 0;
        for (int d = 0; d < 7; d++, decade *= 10) {
            for (int step : STEPS_TENTHS) {
                BOUNDS_NANOS[k++] = decade * step / 10;
            }
        }
        BOUNDS_NANOS[k] = decade; // 10 s
    }

    public IntervalSnapshot {
        bucketCounts = bucketCounts.clone();
    }

    /** The buckets' upper bounds (inclusive) in nanoseconds: 1 us, 1.5 us, ..., 7 s, 10 s. */
    public static long[] boundsNanos() {
        return BOUNDS_NANOS.clone();
    }

    /** Buckets including the overflow one. */
    public static int bucketCount() {
        return BOUNDS_NANOS.length + 1;
    }

    /** The bucket of an interval. */
    public static int bucket(long nanos) {
        int i = Arrays.binarySearch(BOUNDS_NANOS, nanos);
        return i >= 0 ? i : -i - 1;
    }

    @Override
    public long[] bucketCounts() {
        return bucketCounts.clone();
    }

    public double meanNanos() {
        return count == 0 ? 0 : (double) sumNanos / count;
    }

    /** Population standard deviation. */
    public double stddevNanos() {
        if (count == 0) {
            return 0;
        }
        double m = meanNanos();
        return Math.sqrt(Math.max(0, sumSquaresNanos / count - m * m));
    }
}
