package io.qosweaver.bench.app;

import io.qosweaver.bench.load.ClassResult;
import java.util.List;

/**
 * Whether a window's chart tail sits at its start: more than half of its slowest 1 % of charts (at
 * least {@value #MIN_SLOWEST}) started in the window's first {@value #START_PERCENT} %. A closed
 * loop's p99 is then the app still warming up as the window began, not its steady state: on
 * PostgreSQL the woven river monitor's JIT settles about a minute later than the unwoven app's, and
 * with a 30 + 30 s warm-up every capped-entry window's p99 was such an episode
 * ({@code bench/results/deadline/postgres-rounds-3-2026-12-02/}). A heuristic for the summary, which
 * names such windows; it changes no figure.
 */
public final class TailAtStart {
    /** The share of the window counted as its start, in percent. */
    public static final int START_PERCENT = 5;
    /** Fewer slowest requests than this are too few to say where a tail is. */
    public static final int MIN_SLOWEST = 3;

    private TailAtStart() {}

    /** For a window's chart class; false when it recorded too few slow requests to tell. */
    public static boolean of(ScenarioResult w) {
        if (w == null || w.load() == null) {
            return false;
        }
        return w.load().stream().filter(c -> c.name().equals("chart")).findFirst()
                .map(c -> of(c, w.windowStartMs(), w.windowSeconds())).orElse(false);
    }

    static boolean of(ClassResult chart, long windowStartMs, double windowSeconds) {
        List<ClassResult.Slow> slowest = chart.slowest() == null ? List.of() : chart.slowest();
        int n = (int) Math.min(slowest.size(), Math.max(MIN_SLOWEST, chart.requests() / 100));
        if (n < MIN_SLOWEST) {
            return false;
        }
        long startEnd = windowStartMs + Math.round(windowSeconds * 1000 * START_PERCENT / 100.0);
        long atStart = slowest.stream().limit(n).filter(s -> s.startMs() < startEnd).count();
        return 2 * atStart > n;
    }
}
