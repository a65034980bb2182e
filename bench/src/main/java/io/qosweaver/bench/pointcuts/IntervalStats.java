package io.qosweaver.bench.pointcuts;

import io.qosweaver.bench.app.PrometheusScrape;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The control-point intervals a task class's threads showed during a window (paper 5.3, Fig. 19
 * and 21): the difference of the agent's histogram {@code qosweaver_control_point_interval_seconds}
 * between two scrapes. Mean and standard deviation are exact (from the sums); percentiles are read
 * off the cumulative buckets, interpolated geometrically inside the bucket they fall in, so they are
 * as good as the buckets' 1.33-1.67x steps.
 *
 * @param count intervals measured in the window
 */
public record IntervalStats(long count, Double meanMs, Double sdMs, Double p50Ms, Double p90Ms, Double p99Ms) {
    static final String NAME = "qosweaver_control_point_interval_seconds";

    /** The window between {@code before} and {@code after} for {@code taskClass}; null when either is missing. */
    public static IntervalStats between(PrometheusScrape before, PrometheusScrape after, String taskClass) {
        if (before == null || after == null) {
            return null;
        }
        Histogram b = Histogram.of(before, taskClass);
        Histogram a = Histogram.of(after, taskClass);
        long n = a.count - b.count;
        if (n <= 0) {
            return new IntervalStats(0, null, null, null, null, null);
        }
        double sum = a.sum - b.sum;
        double squares = a.squares - b.squares;
        double mean = sum / n;
        double sd = Math.sqrt(Math.max(0, squares / n - mean * mean));
        List<double[]> buckets = new ArrayList<>(); // upper bound s, cumulative count in the window
        for (Map.Entry<Double, Double> e : a.cumulative.entrySet()) {
            double c = e.getValue() - b.cumulative.getOrDefault(e.getKey(), 0.0);
            buckets.add(new double[] {e.getKey(), c});
        }
        return new IntervalStats(n, mean * 1e3, sd * 1e3, quantile(buckets, n, 0.5), quantile(buckets, n, 0.9),
                quantile(buckets, n, 0.99));
    }

    /** In ms; the bucket's geometric interpolation, its upper bound for the first bucket. */
    static Double quantile(List<double[]> buckets, long n, double q) {
        double rank = q * n;
        double lowerBound = 0;
        double lowerCount = 0;
        for (double[] b : buckets) {
            if (b[1] >= rank && b[1] > lowerCount) {
                if (Double.isInfinite(b[0])) {
                    return lowerBound * 1e3; // beyond the last bound: say the last bound
                }
                if (lowerBound == 0) {
                    return b[0] * 1e3;
                }
                double f = (rank - lowerCount) / (b[1] - lowerCount);
                return lowerBound * Math.pow(b[0] / lowerBound, f) * 1e3;
            }
            lowerBound = b[0];
            lowerCount = b[1];
        }
        return null;
    }

    private record Histogram(long count, double sum, double squares, TreeMap<Double, Double> cumulative) {
        static Histogram of(PrometheusScrape p, String taskClass) {
            Double count = p.value(NAME + "_count", "task_class", taskClass);
            Double sum = p.value(NAME + "_sum", "task_class", taskClass);
            Double squares = p.value(NAME + "_squares", "task_class", taskClass);
            TreeMap<Double, Double> cumulative = new TreeMap<>();
            for (PrometheusScrape.Sample s : p.samples()) {
                if (s.name().equals(NAME + "_bucket") && taskClass.equals(s.labels().get("task_class"))) {
                    String le = s.labels().get("le");
                    cumulative.put(le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le), s.value());
                }
            }
            return new Histogram(count == null ? 0 : Math.round(count), sum == null ? 0 : sum,
                    squares == null ? 0 : squares, cumulative);
        }
    }
}
