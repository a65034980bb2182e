package io.qosweaver.bench.adaptive;

import io.qosweaver.bench.app.ScenarioResult.GaugeSample;
import io.qosweaver.bench.load.LoadResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The numbers of {@code bench adaptive}, from what one run measured and nothing else (no process):
 * per-second buckets, the moving average, the settling time, the error against the target, and the
 * split of the seconds into outside and during collections.
 */
public final class AdaptiveAnalysis {
    /** The band the goal is stated in: within 2 % of the target. */
    public static final double TOLERANCE = 0.02;
    /**
     * The width of the moving average the settling time is read on: 3 one-second buckets,
     * centred (t-1, t, t+1). A trailing window of w seconds would lag a step by w-1 seconds by
     * construction; a centred one of 3 s smooths the 1 s noise of the closed-loop counts (a few
     * percent at these rates) without pushing the settling time past the 3 s goal.
     */
    public static final int MA_WIDTH = 3;
    /** The paper's averaging in Fig. 24/25: one mean per 5 s. */
    public static final int BLOCK_S = 5;

    private AdaptiveAnalysis() {
    }

    /**
     * Completions of {@code name} per 1 s bucket of a window of {@code windowS} seconds. The load
     * driver's sampler reports the second that ends at each sample's offset, so the sample at
     * offset k (rounded) fills bucket k-1; a missing second stays 0, a sample after the window is
     * dropped.
     */
    public static long[] perSecond(LoadResult load, String name, double windowS) {
        long[] out = new long[Math.max(0, (int) Math.floor(windowS + 1e-6))];
        if (load == null) {
            return out;
        }
        for (LoadResult.Sample s : load.timeSeries()) {
            int i = (int) Math.round(s.offsetS()) - 1;
            if (s.name().equals(name) && i >= 0 && i < out.length) {
                out[i] += s.requests();
            }
        }
        return out;
    }

    /**
     * A gauge per 1 s bucket: the mean of the samples taken in it, or the last value before it
     * when none was (a gauge holds its value between samples); null before the first sample.
     */
    public static Double[] gaugePerSecond(List<GaugeSample> samples, int seconds) {
        Double[] out = new Double[seconds];
        Double last = null;
        int k = 0;
        for (int i = 0; i < seconds; i++) {
            double sum = 0;
            int n = 0;
            while (k < samples.size() && samples.get(k).offsetS() < i + 1) {
                if (samples.get(k).offsetS() >= i) {
                    sum += samples.get(k).value();
                    n++;
                }
                last = samples.get(k).value();
                k++;
            }
            out[i] = n > 0 ? Double.valueOf(sum / n) : last;
        }
        return out;
    }

    /** The centred moving average of width {@code width} (odd); shorter at both ends. */
    public static double[] movingAverage(long[] x, int width) {
        int half = width / 2;
        double[] out = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            int from = Math.max(0, i - half);
            int to = Math.min(x.length - 1, i + half);
            double sum = 0;
            for (int j = from; j <= to; j++) {
                sum += x[j];
            }
            out[i] = sum / (to - from + 1);
        }
        return out;
    }

    /**
     * Seconds from the window's start (the change of load) until the moving average of
     * {@link #MA_WIDTH} s enters the band of {@code tolerance} around {@code target} and stays in
     * it to the window's end: the start of the first bucket of that last run of in-band buckets.
     * 0 when it never left; null when the last bucket is out of the band (not settled).
     */
    public static Double settlingTimeS(long[] perSecond, double target, double tolerance) {
        return settlingTimeS(perSecond, target, tolerance, MA_WIDTH);
    }

    /** As {@link #settlingTimeS(long[], double, double)} on a centred moving average of {@code width} seconds. */
    public static Double settlingTimeS(long[] perSecond, double target, double tolerance, int width) {
        double[] ma = movingAverage(perSecond, width);
        if (ma.length == 0 || !within(ma[ma.length - 1], target, tolerance)) {
            return null;
        }
        int i = ma.length - 1;
        while (i > 0 && within(ma[i - 1], target, tolerance)) {
            i--;
        }
        return (double) i;
    }

    /**
     * The noise of a steady series: the largest |MA - mean| / mean over the steady part (buckets
     * {@code [from, n)}), MA being the same centred moving average of {@code width} s the settling
     * measure uses (from the first one wholly in the steady part; shorter at the window's end), in
     * percent; null when the steady part holds no such average. Run on a probe (a fixed limit, nothing to
     * settle), it is the band the settling measure's average stays in with no controller at all: so
     * the settling measure, applied to a probe against its own mean in that band, finds it settled
     * from {@code from} on (the property that makes it a floor; the 95th percentile used in the first
     * full run did not have it).
     */
    public static Double noisePct(long[] perSecond, int from, int width) {
        Double mean = mean(perSecond, from, perSecond.length);
        if (mean == null || mean <= 0) {
            return null;
        }
        double[] ma = movingAverage(perSecond, width);
        Double worst = null;
        // from the first average wholly inside the steady part to the last (shorter) one
        for (int i = Math.max(0, from) + width / 2; i < perSecond.length; i++) {
            double d = Math.abs(ma[i] - mean) / mean * 100;
            worst = worst == null ? d : Math.max(worst, d);
        }
        return worst;
    }

    static boolean within(double v, double target, double tolerance) {
        return Math.abs(v - target) <= tolerance * target + 1e-9;
    }

    /** The mean per second over buckets {@code [from, to)}; null when empty. */
    public static Double mean(long[] perSecond, int from, int to) {
        from = Math.max(0, from);
        to = Math.min(perSecond.length, to);
        if (to <= from) {
            return null;
        }
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += perSecond[i];
        }
        return sum / (to - from);
    }

    /** (achieved - target) / target in percent. */
    public static Double errorPct(Double achieved, double target) {
        return achieved == null ? null : (achieved - target) / target * 100;
    }

    /**
     * Means of consecutive blocks of {@code block} seconds from {@code from} (the paper's 5 s
     * averages); a trailing partial block is left out.
     */
    public static List<Double> blockMeans(long[] perSecond, int from, int block) {
        List<Double> out = new ArrayList<>();
        for (int i = Math.max(0, from); i + block <= perSecond.length; i += block) {
            out.add(mean(perSecond, i, i + block));
        }
        return out;
    }

    /** How many of {@code values} are within {@code tolerance} of {@code target}. */
    public static int countWithin(List<Double> values, double target, double tolerance) {
        return (int) values.stream().filter(v -> v != null && within(v, target, tolerance)).count();
    }

    /**
     * A collection as an interval of the window, in seconds from its start (negative: it began
     * before the window), and its duration when it finished (null: still running at the end).
     */
    public record Span(double startS, double endS, Double durationMs) {
        /** Collections are counted in the window they start in. */
        public boolean startedInWindow() {
            return startS >= 0;
        }
    }

    /**
     * Which 1 s buckets lie mostly (at least half) inside a collection: the paper's Fig. 27 marks
     * the seconds "C" in which the collector ran.
     */
    public static boolean[] during(List<Span> collections, int seconds) {
        boolean[] out = new boolean[seconds];
        for (int i = 0; i < seconds; i++) {
            double covered = 0;
            for (Span c : collections) {
                covered += Math.max(0, Math.min(i + 1, c.endS()) - Math.max(i, c.startS()));
            }
            out[i] = covered >= 0.5;
        }
        return out;
    }

    /** The mean per second over the buckets from {@code from} whose flag equals {@code which}; null when none. */
    public static Double meanWhere(long[] perSecond, boolean[] flags, boolean which, int from) {
        double sum = 0;
        int n = 0;
        for (int i = Math.max(0, from); i < perSecond.length; i++) {
            if (flags[i] == which) {
                sum += perSecond[i];
                n++;
            }
        }
        return n == 0 ? null : sum / n;
    }

    /**
     * A paper target mapped into this machine's feasible range: the paper's tracked range
     * [{@code paperLow}, {@code paperHigh}] (125-200 pages/s) onto the range measured here
     * [{@code low}, {@code high}] (the middle throughput at lowMax and at lowMin chart threads),
     * linearly, so a paper target below or above its tracked range lands as far below or above
     * ours; never below 5 % of {@code low} (a target must be positive).
     */
    public static double scaleTarget(double paperTarget, double paperLow, double paperHigh, double low, double high) {
        double t = low + (paperTarget - paperLow) * (high - low) / (paperHigh - paperLow);
        return Math.max(0.05 * low, t);
    }
}
