package io.qosweaver.scheduler.event;

import io.qosweaver.scheduler.stats.IntervalSnapshot;

/**
 * An accumulating histogram of control-point intervals in nanoseconds, with the buckets of
 * {@link IntervalSnapshot}. Coarse on purpose: the Prometheus text repeats every bucket, and that
 * resolution is finer than anything the paper's Fig. 19 and 21 resolve.
 *
 * <p>Not thread-safe: an instance is either one thread's private accumulator or a task class's
 * total guarded by a lock of its owner.
 */
public final class IntervalHistogram {
    private final long[] buckets = new long[IntervalSnapshot.bucketCount()];
    private long count;
    private long sumNanos;
    private double sumSquaresNanos;
    private long maxNanos;

    /** Records one interval (negative values, from a clock that went backwards, count as 0). */
    public void add(long nanos) {
        long v = Math.max(0, nanos);
        buckets[IntervalSnapshot.bucket(v)]++;
        count++;
        sumNanos += v;
        sumSquaresNanos += (double) v * v;
        if (v > maxNanos) {
            maxNanos = v;
        }
    }

    public long count() {
        return count;
    }

    /** Adds {@code o} into this one and clears {@code o}. */
    public void drainFrom(IntervalHistogram o) {
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

    public IntervalSnapshot snapshot() {
        return new IntervalSnapshot(count, sumNanos, sumSquaresNanos, maxNanos, buckets);
    }
}
