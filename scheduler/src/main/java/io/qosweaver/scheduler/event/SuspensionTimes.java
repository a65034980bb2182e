package io.qosweaver.scheduler.event;

import java.util.Arrays;

/**
 * Summary of limit-convergence times in nanos: total count, sum and max since install, and p50/p99
 * over the most recent {@code capacity} episodes (a ring). Episodes are rare (one per high task),
 * so this is written under the controller lock and copied on read; no hot path touches it.
 */
public final class SuspensionTimes {
    private final long[] ring;
    private long count, sum, max;

    public SuspensionTimes(int capacity) {
        ring = new long[capacity];
    }

    public void record(long nanos) {
        if (nanos < 0) {
            nanos = 0;
        }
        ring[(int) (count % ring.length)] = nanos;
        count++;
        sum += nanos;
        max = Math.max(max, nanos);
    }

    /** {count, sum, max, p50, p99}; quantiles by nearest rank over the recent ring. */
    public long[] snapshot() {
        int n = (int) Math.min(count, ring.length);
        long[] recent = Arrays.copyOf(ring, n);
        Arrays.sort(recent);
        return new long[] {count, sum, max, quantile(recent, 0.5), quantile(recent, 0.99)};
    }

    static long quantile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
