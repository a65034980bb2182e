package io.qosweaver.simulator.report;

import io.qosweaver.simulator.stats.Result;
import io.qosweaver.simulator.stats.Workload;
import java.util.List;
import java.util.Locale;

/** The results as a plain-text table, one row per version. */
public final class TableReport {
    private TableReport() {}

    public static String render(Workload w, List<Result> rows) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "workload: %d cores; high %d ms CPU every %d ms; %d clients x low %d ms CPU,"
                + " a control point every %d us; %d s virtual%n", w.cores(), w.highCostMs(), w.periodMs(),
                w.lowClients(), w.lowCostMs(), w.controlPointUs(), w.seconds()));
        b.append(String.format(Locale.ROOT, "bound: a high task alone on a core completes in %d ms%n", w.highCostMs()));
        String fmt = "%-22s %9s %10s %10s %10s %14s %12s%n";
        b.append(String.format(Locale.ROOT, fmt, "version", "misses", "high mean", "high max", "low req/s",
                "susp. time", "low susp."));
        b.append(String.format(Locale.ROOT, fmt, "", "", "ms", "ms", "", "mean ms", "s total"));
        for (Result r : rows) {
            String susp = r.suspensionEpisodes() == 0 ? "-"
                    : r.suspensionNever() == r.suspensionEpisodes() ? "never"
                    : one(r.suspensionMeanMs()) + (r.suspensionNever() > 0 ? " (" + r.suspensionNever() + " never)" : "");
            b.append(String.format(Locale.ROOT, fmt, r.version(), r.deadlineMisses() + "/" + r.periods(),
                    one(r.highMeanMs()), one(r.highMaxMs()), one(r.lowPerSecond()), susp, one(r.lowSuspendedSeconds())));
        }
        b.append("susp. time: from a high task's arrival until at most 1 low thread executes"
                + " (\"never\": not before the high task ended)\n");
        rows.stream().flatMap(r -> r.warnings().stream().map(m -> r.version() + ": " + m)).distinct()
                .forEach(m -> b.append("note: ").append(m).append('\n'));
        return b.toString();
    }

    private static String one(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
