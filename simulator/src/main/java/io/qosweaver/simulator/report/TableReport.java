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
        if (w.lockUs() > 0 || w.middleClients() > 0) {
            b.append(String.format(Locale.ROOT, "with: %d progress points per collection; a lock for the first %d us of"
                    + " each chart and %d us of each collection; %d middle clients x %d us CPU%n", w.progressPoints(),
                    w.lockUs(), w.lockUs(), w.middleClients(), w.middleCostUs()));
        }
        b.append(String.format(Locale.ROOT, "bound: a high task alone on a core completes in %d ms%n", w.highCostMs()));
        boolean lock = w.lockUs() > 0, middle = w.middleClients() > 0;
        String fmt = "%-22s %9s %10s %10s %10s %14s %12s";
        String lockFmt = " %12s", middleFmt = " %10s %10s %9s";
        b.append(String.format(Locale.ROOT, fmt, "version", "misses", "high mean", "high max", "low req/s",
                "susp. time", "low susp."));
        b.append(lock ? String.format(Locale.ROOT, lockFmt, "lock wait") : "");
        b.append(middle ? String.format(Locale.ROOT, middleFmt, "mid/s", "mid/s", "low lim.") : "").append('\n');
        b.append(String.format(Locale.ROOT, fmt, "", "", "ms", "ms", "", "mean ms", "s total"));
        b.append(lock ? String.format(Locale.ROOT, lockFmt, "max ms") : "");
        b.append(middle ? String.format(Locale.ROOT, middleFmt, "outside", "in high", "mean") : "").append('\n');
        for (Result r : rows) {
            String susp = r.suspensionEpisodes() == 0 ? "-"
                    : r.suspensionNever() == r.suspensionEpisodes() ? "never"
                    : one(r.suspensionMeanMs()) + (r.suspensionNever() > 0 ? " (" + r.suspensionNever() + " never)" : "");
            b.append(String.format(Locale.ROOT, fmt, r.version(), r.deadlineMisses() + "/" + r.periods(),
                    one(r.highMeanMs()), one(r.highMaxMs()), one(r.lowPerSecond()), susp, one(r.lowSuspendedSeconds())));
            b.append(lock ? String.format(Locale.ROOT, lockFmt, one(r.highLockWaitMaxMs())) : "");
            b.append(middle ? String.format(Locale.ROOT, middleFmt, one(r.middlePerSecond()),
                    one(r.middleDuringHighPerSecond()), one(r.lowLimitMean())) : "").append('\n');
        }
        b.append("susp. time: from a high task's arrival until at most 1 low thread executes"
                + " (\"never\": not before the high task ended)\n");
        if (lock) {
            b.append("lock wait: the longest a collection waited for the lock (a chart thread suspended while holding"
                    + " it holds the collection hostage)\n");
        }
        if (middle) {
            b.append("mid/s: middle requests per second outside and during collections; low lim.: the mean limit on"
                    + " running low threads outside collections\n");
        }
        rows.stream().flatMap(r -> r.warnings().stream().map(m -> r.version() + ": " + m)).distinct()
                .forEach(m -> b.append("note: ").append(m).append('\n'));
        return b.toString();
    }

    private static String one(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
