package io.qosweaver.bench.stats;

import java.util.Arrays;
import java.util.Collection;

/**
 * A summary of a sample of values, as the experiments report them: count, mean, maximum, the
 * population standard deviation (the spread of the values measured, not an estimate of a larger
 * population's) and nearest-rank quantiles (with few values the p99 is the largest, never an
 * interpolation below it). Every figure is null for an empty sample: nothing was measured, which
 * is not zero.
 */
public final class Samples {
    private final double[] sorted;
    private final double mean;

    private Samples(double[] sorted) {
        this.sorted = sorted;
        double sum = 0;
        for (double v : sorted) {
            sum += v;
        }
        this.mean = sorted.length == 0 ? Double.NaN : sum / sorted.length;
    }

    public static Samples of(double... values) {
        double[] s = values.clone();
        Arrays.sort(s);
        return new Samples(s);
    }

    public static Samples of(Collection<? extends Number> values) {
        return new Samples(values.stream().mapToDouble(Number::doubleValue).sorted().toArray());
    }

    public int count() {
        return sorted.length;
    }

    public Double mean() {
        return sorted.length == 0 ? null : mean;
    }

    public Double max() {
        return sorted.length == 0 ? null : sorted[sorted.length - 1];
    }

    /** The population standard deviation: the root of the mean squared distance to the mean. */
    public Double stddev() {
        if (sorted.length == 0) {
            return null;
        }
        double sq = 0;
        for (double v : sorted) {
            sq += (v - mean) * (v - mean);
        }
        return Math.sqrt(sq / sorted.length);
    }

    /** The nearest-rank quantile, {@code q} in [0, 1]: the smallest value with at least q of the sample at or below it. */
    public Double quantile(double q) {
        if (q < 0 || q > 1) {
            throw new IllegalArgumentException("a quantile is in [0, 1], got " + q);
        }
        if (sorted.length == 0) {
            return null;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
