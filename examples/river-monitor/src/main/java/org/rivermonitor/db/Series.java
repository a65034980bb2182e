package org.rivermonitor.db;

import java.util.Arrays;

/** A time series read from the database: parallel arrays of epoch millis and levels, oldest first. */
public final class Series {

    private final long[] ts;
    private final double[] levels;

    public Series(long[] ts, double[] levels) {
        this.ts = ts;
        this.levels = levels;
    }

    public int size() {
        return ts.length;
    }

    public long ts(int i) {
        return ts[i];
    }

    public double level(int i) {
        return levels[i];
    }

    /**
     * At most maxPoints points: consecutive readings are averaged in equal buckets. A chart a
     * thousand pixels wide shows nothing more, and this keeps a short collection period from
     * making the charts heavier.
     */
    public Series downsample(int maxPoints) {
        int n = size();
        if (n <= maxPoints) {
            return this;
        }
        long[] t = new long[maxPoints];
        double[] v = new double[maxPoints];
        for (int b = 0; b < maxPoints; b++) {
            int from = (int) ((long) b * n / maxPoints);
            int to = (int) ((long) (b + 1) * n / maxPoints);
            double sum = 0;
            for (int i = from; i < to; i++) {
                sum += levels[i];
            }
            t[b] = ts[(from + to - 1) / 2];
            v[b] = sum / (to - from);
        }
        return new Series(t, v);
    }

    static final class Builder {
        private long[] ts = new long[1024];
        private double[] levels = new double[1024];
        private int n;

        void add(long t, double level) {
            if (n == ts.length) {
                ts = Arrays.copyOf(ts, n * 2);
                levels = Arrays.copyOf(levels, n * 2);
            }
            ts[n] = t;
            levels[n] = level;
            n++;
        }

        Series build() {
            return new Series(Arrays.copyOf(ts, n), Arrays.copyOf(levels, n));
        }
    }
}
