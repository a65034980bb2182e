package io.qosweaver.pointcuts;

/**
 * The predicted intervals between adjacent selected join points of each timeline (mean and
 * population standard deviation, by Welford's method) and the longest stretch without one, from
 * a timeline's first join point to its first selected one, between two, and from the last to the
 * timeline's end (a timeline with none selected: its whole length).
 */
final class IntervalStats {
    private long intervals;
    private double mean;
    private double m2;
    private long longestGap;
    private long start;
    private long previous;
    private boolean any;

    void startTimeline(long firstJoinPoint) {
        start = firstJoinPoint;
        any = false;
    }

    /** A selected join point at {@code time}, not before the previous one. */
    void point(long time) {
        gapTo(time);
        previous = time;
    }

    /**
     * {@code count} selected join points from {@code first} to {@code last}, taken as evenly
     * spaced (what a slot summary knows of them).
     */
    void points(long first, long last, long count) {
        gapTo(first);
        if (count > 1) {
            double d = (double) (last - first) / (count - 1);
            add(count - 1, d);
            longestGap = Math.max(longestGap, (long) Math.ceil(d));
        }
        previous = last;
    }

    void endTimeline(long lastJoinPoint) {
        longestGap = Math.max(longestGap, lastJoinPoint - (any ? previous : start));
    }

    private void gapTo(long time) {
        if (any) {
            add(1, time - previous);
            longestGap = Math.max(longestGap, time - previous);
        } else {
            longestGap = Math.max(longestGap, time - start);
            any = true;
        }
    }

    /** {@code n} intervals of length {@code d}: Chan et al.'s merge of a group without spread. */
    private void add(long n, double d) {
        long total = intervals + n;
        double delta = d - mean;
        mean += delta * n / total;
        m2 += delta * delta * ((double) intervals * n / total);
        intervals = total;
    }

    long intervals() {
        return intervals;
    }

    double mean() {
        return mean;
    }

    double stdDev() {
        return intervals == 0 ? Double.NaN : Math.sqrt(m2 / intervals);
    }

    long longestGap() {
        return longestGap;
    }
}
