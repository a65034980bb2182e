package io.qosweaver.scheduler;

import java.util.Arrays;

/**
 * A histogram of control-point intervals in nanoseconds: count, sum, sum of squares, maximum and
 * counts in fixed buckets with readable upper bounds, 1, 1.5, 2, 3, 5 and 7 times each power of ten
 * from 1 us to 10 s ({@link #BOUNDS_NANOS}; steps of 1.33x to 1.67x), plus one overflow bucket.
 * Coarse on purpose: the Prometheus text repeats every bucket, and that resolution is finer than
 * anything the paper's Fig. 19 and 21 resolve.
 *
 * <p>Not thread-safe: an instance is either one thread's private accumulator or a task class's
 * total guarded by its {@link ControlPointIntervals} lock.
 */
public final class IntervalHistogram {
    private static final int[] STEPS_TENTHS = {10, 15, 20, 30, 50, 70};
    /** Upper bounds (inclusive) of the buckets, in nanoseconds: 1 us, 1.5 us, 2 us, ..., 7 s, 10 s. */
    static final long[] BOUNDS_NANOS = new long[7 * STEPS_TENTHS.length + 1];

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

    final long[] buckets = new long[BOUNDS_NANOS.length + 1];
    long count;
    long sumNanos;
    double sumSquaresNanos;
    long maxNanos;

    /** Records one interval (negative values, from a clock that went backwards, count as 0). */
    void add(long nanos) {
        long v = Math.max(0, nanos);
        buckets[bucket(v)]++;
        count++;
        sumNanos += v;
        sumSquaresNanos += (double) v * v;
        if (v > maxNanos) {
            maxNanos = v;
        }
    }

    static int bucket(long nanos) {
        int i = Arrays.binarySearch(BOUNDS_NANOS, nanos);
        return i >= 0 ? i : -i - 1;
    }

    /** Adds {@code o} into this one and clears {@code o}. */
    void drainFrom(IntervalHistogram o) {
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] += o.buckets[i];
            o.buckets[i] = 0;
        }
        count += o.count;
        sumNanos += o.sumNanos;
        sumSquaresNanos += o.sumSquaresNanos;
        maxNanos = Math.max(maxNanos, o.maxNanos);
        o.count = 0;
        o.sumNanos = 0;
        o.sumSquaresNanos = 0;
        o.maxNanos = 0;
    }

    Snapshot snapshot() {
        return new Snapshot(count, sumNanos, sumSquaresNanos, maxNanos, buckets.clone());
    }

    /**
     * A copy of a histogram.
     *
     * @param count            intervals recorded
     * @param sumNanos         their sum
     * @param sumSquaresNanos  the sum of their squares (ns^2), for the standard deviation
     * @param maxNanos         the longest
     * @param bucketCounts     per bucket (not cumulative); the last one is the overflow
     */
    public record Snapshot(long count, long sumNanos, double sumSquaresNanos, long maxNanos, long[] bucketCounts) {
        /** The buckets' upper bounds in nanoseconds (the overflow bucket has none). */
        public static long[] boundsNanos() {
            return BOUNDS_NANOS.clone();
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
}
