package io.qosweaver.bench.stats;

import java.util.Locale;

/** How numbers read in reports and progress lines. */
public final class Format {
    private Format() {}

    /** A table cell: "-" for none, no decimals from 100 on, else two. */
    public static String cell(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, Math.abs(d) >= 100 ? "%.0f" : "%.2f", d);
    }

    /** As {@link #cell}, with four decimals below 1 (ratios, small intervals). */
    public static String precise(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, Math.abs(d) >= 100 ? "%.0f" : Math.abs(d) >= 1 ? "%.2f"
                : "%.4f", d);
    }

    /** A parameter: a whole number without decimals, else as Java prints it. */
    public static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
