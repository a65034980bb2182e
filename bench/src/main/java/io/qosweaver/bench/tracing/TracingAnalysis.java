package io.qosweaver.bench.tracing;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.stats.Ratios;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** From the runs to what {@code results.json} says: per configuration, paired overheads, the goal. */
final class TracingAnalysis {
    /** The goal: all levels on at the default sampling cost under 2 %. */
    static final double GOAL_PCT = 2.0;

    /** The thesis' tables 3.2 (Irix system level), 3.4 (Linux system level) and 3.6 (JOMP level). */
    static final List<TracingResult.ThesisRow> THESIS = List.of(
            new TracingResult.ThesisRow("3.2", "Irix, system level (LUAppl)", "128x128", 2795, 2996, 7.19),
            new TracingResult.ThesisRow("3.2", "Irix, system level (LUAppl)", "256x256", 17542, 17975, 2.47),
            new TracingResult.ThesisRow("3.2", "Irix, system level (LUAppl)", "512x512", 109976, 110857, 0.80),
            new TracingResult.ThesisRow("3.4", "Linux, system level (LUAppl)", "250x250", 699, 722, 3.29),
            new TracingResult.ThesisRow("3.4", "Linux, system level (LUAppl)", "500x500", 3434, 3450, 0.47),
            new TracingResult.ThesisRow("3.4", "Linux, system level (LUAppl)", "750x750", 9478, 9492, 0.15),
            new TracingResult.ThesisRow("3.4", "Linux, system level (LUAppl)", "1000x1000", 20662, 20710, 0.23),
            new TracingResult.ThesisRow("3.6", "JOMP level (LUJOMP)", "128x128", 1899, 1949, 2.63),
            new TracingResult.ThesisRow("3.6", "JOMP level (LUJOMP)", "256x256", 15842, 16222, 2.4),
            new TracingResult.ThesisRow("3.6", "JOMP level (LUJOMP)", "512x512", 105962, 108092, 2.0));

    private TracingAnalysis() {
    }

    static TracingResult assemble(boolean quick, Map<String, Object> params, Map<String, Object> machine,
                                  String command, TracingParams p, List<TracingResult.Run> runs,
                                  Map<String, String> errors, String now) {
        List<TracingResult.ConfigSummary> configs = new ArrayList<>();
        for (String name : p.configs()) {
            configs.add(summary(TracingConfig.named(name), runs));
        }
        List<TracingResult.Goal> goals = new ArrayList<>();
        List<String> summary = new ArrayList<>();
        TracingResult.ConfigSummary all = configs.stream().filter(c -> c.config().equals("all")).findFirst().orElse(null);
        if (all == null || all.throughputLossPctMedian() == null) {
            goals.add(new TracingResult.Goal("all levels cost under " + GOAL_PCT + " % of chart throughput", null,
                    "not measured (no paired run of 'all' and 'off')"));
        } else {
            // Traced runs faster than untraced ones by more than the untraced runs' own spread (and than
            // the goal) cannot be the tracer's doing: something else differs, and the goal is not shown.
            TracingResult.ConfigSummary off = configs.stream().filter(c -> c.config().equals("off")).findFirst()
                    .orElse(null);
            double noise = Math.max(GOAL_PCT, off == null || off.runs() < 2 || off.throughputMedianPerS() == null ? 0
                    : 100 * (off.throughputMaxPerS() - off.throughputMinPerS()) / off.throughputMedianPerS());
            Boolean met = all.throughputLossPctMedian() < -noise ? null
                    : all.throughputLossPctMedian() < GOAL_PCT && all.meanIncreasePctMedian() != null
                    && all.meanIncreasePctMedian() < GOAL_PCT;
            String detail = String.format(Locale.ROOT, "throughput loss %s %% (range %s to %s), mean response time %s %%"
                            + " (range %s to %s), median of %d paired runs", pct(all.throughputLossPctMedian()),
                    pct(all.throughputLossPctMin()), pct(all.throughputLossPctMax()), pct(all.meanIncreasePctMedian()),
                    pct(all.meanIncreasePctMin()), pct(all.meanIncreasePctMax()), all.runs());
            if (met == null) {
                detail += String.format(Locale.ROOT, "; NOT RESOLVED: the traced runs were faster than the untraced"
                        + " ones by more than %.2f %% (the untraced runs' own spread, or the goal), which the tracer"
                        + " cannot cause", noise);
            }
            goals.add(new TracingResult.Goal("all levels cost under " + GOAL_PCT + " % (chart throughput and mean "
                    + "response time, at the default sampling)", met, detail));
            summary.add("All levels on: " + detail + (met == null ? "." : met ? ": goal met." : ": goal NOT met."));
        }
        for (TracingResult.ConfigSummary c : configs) {
            if (!c.config().equals("off") && !c.config().equals("all") && c.throughputLossPctMedian() != null) {
                summary.add(String.format(Locale.ROOT, "%s alone: throughput loss %s %% (range %s to %s), mean %s %%",
                        c.config(), pct(c.throughputLossPctMedian()), pct(c.throughputLossPctMin()),
                        pct(c.throughputLossPctMax()), pct(c.meanIncreasePctMedian())));
            }
        }
        configs.stream().filter(c -> c.config().equals("off")).findFirst().ifPresent(off -> {
            if (off.throughputMedianPerS() != null && off.runs() > 1) {
                summary.add(String.format(Locale.ROOT, "Noise: the tracer-off runs alone range from %.2f to %.2f "
                                + "charts/s (%s %% of their median): overheads smaller than that are not resolved.",
                        off.throughputMinPerS(), off.throughputMaxPerS(),
                        pct(100 * (off.throughputMaxPerS() - off.throughputMinPerS()) / off.throughputMedianPerS())));
            }
        });
        return new TracingResult("tracing", now, command, quick, params, machine, runs, configs, THESIS, goals, summary,
                errors);
    }

    private static String pct(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%+.2f", d);
    }

    static TracingResult.ConfigSummary summary(TracingConfig c, List<TracingResult.Run> runs) {
        List<TracingResult.Run> mine = runs.stream().filter(r -> r.config().equals(c.name())).toList();
        List<Double> tput = mine.stream().map(TracingResult.Run::throughputPerS).toList();
        List<Double> loss = new ArrayList<>();
        List<Double> meanUp = new ArrayList<>();
        for (TracingResult.Run r : mine) {
            Optional<TracingResult.Run> off = runs.stream().filter(o -> o.repeat() == r.repeat()
                    && o.config().equals(TracingConfig.OFF.name())).findFirst();
            if (off.isPresent() && !c.name().equals(TracingConfig.OFF.name())) {
                loss.add(Ratios.lossPct(r.throughputPerS(), off.get().throughputPerS()));
                Double up = Ratios.increasePct(r.meanMs(), off.get().meanMs());
                if (up != null) {
                    meanUp.add(up);
                }
            }
        }
        List<Long> bytes = mine.stream().map(TracingResult.Run::traceBytes).filter(b -> b != null).sorted().toList();
        Long lostMax = mine.stream().map(TracingResult.Run::traceLost).filter(b -> b != null).max(Comparator.naturalOrder())
                .orElse(null);
        return new TracingResult.ConfigSummary(c.name(), c.levels(), c.description(), mine.size(), median(tput),
                min(tput), max(tput), median(mine.stream().map(TracingResult.Run::meanMs).toList()),
                median(mine.stream().map(TracingResult.Run::p99Ms).toList()), median(loss), min(loss), max(loss),
                median(meanUp), min(meanUp), max(meanUp), bytes.isEmpty() ? null : bytes.get(bytes.size() / 2), lostMax);
    }

    static Double median(List<Double> xs) {
        List<Double> s = xs.stream().filter(x -> x != null).sorted().toList();
        if (s.isEmpty()) {
            return null;
        }
        int n = s.size();
        return round(n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2);
    }

    private static Double min(List<Double> xs) {
        return xs.stream().filter(x -> x != null).min(Comparator.naturalOrder()).map(x -> round(x)).orElse(null);
    }

    private static Double max(List<Double> xs) {
        return xs.stream().filter(x -> x != null).max(Comparator.naturalOrder()).map(x -> round(x)).orElse(null);
    }
}
