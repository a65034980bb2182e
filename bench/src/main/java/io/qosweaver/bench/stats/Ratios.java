package io.qosweaver.bench.stats;

import static io.qosweaver.bench.stats.Round.round;

/** A version against its baseline from the same run, in percent (positive = worse), or null without one. */
public final class Ratios {
    private Ratios() {}

    /** Percent lost against the baseline: a throughput that fell. */
    public static Double lossPct(Double x, Double base) {
        return x == null || base == null || base == 0 ? null : round(100.0 * (base - x) / base);
    }

    /** Percent added over the baseline: a time or a cost that grew. */
    public static Double increasePct(Double x, Double base) {
        return x == null || base == null || base == 0 ? null : round(100.0 * (x - base) / base);
    }
}
