package io.qosweaver.bench.stats;

/** Rounding for results files: three decimals unless said otherwise, null-safe where asked. */
public final class Round {
    private Round() {}

    public static double round(double v) {
        return round(v, 3);
    }

    public static double round(double v, int digits) {
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    /** Null stays null (a metric with no sample). */
    public static Double round(Double v) {
        return v == null ? null : round(v.doubleValue(), 3);
    }

    public static Double round(Double v, int digits) {
        return v == null ? null : round(v.doubleValue(), digits);
    }
}
