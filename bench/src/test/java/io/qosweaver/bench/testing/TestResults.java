package io.qosweaver.bench.testing;

import io.qosweaver.bench.app.FlashCrowdConfig;
import io.qosweaver.bench.app.PrometheusScrape;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.app.ScenarioStats;
import io.qosweaver.bench.app.ThreadCpu;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Builds results the way the runner does, from made-up collections and load. */
public final class TestResults {
    private TestResults() {
    }

    private static List<ClassResult.Slow> slowest(double[] startsS) {
        List<ClassResult.Slow> out = new ArrayList<>();
        for (int i = 0; i < startsS.length; i++) {
            out.add(new ClassResult.Slow(1000 + Math.round(startsS[i] * 1000), 1000.0 - i));
        }
        return out;
    }

    public static ScenarioResult scenario(String version, long periodMs, long[] durations, Double suspensionP50S) {
        return scenario(version, periodMs, durations, suspensionP50S, 280.0, 0);
    }

    /** As above, with the chart median and the chart requests refused or failed. */
    public static ScenarioResult scenario(String version, long periodMs, long[] durations, Double suspensionP50S,
                                          double chartP50Ms, long chartErrors) {
        return scenario(version, periodMs, durations, suspensionP50S, chartP50Ms, chartErrors, List.of());
    }

    /** As above, with the window's notes (as the runner writes them). */
    public static ScenarioResult scenario(String version, long periodMs, long[] durations, Double suspensionP50S,
                                          double chartP50Ms, long chartErrors, List<String> notes) {
        return scenario(version, periodMs, durations, suspensionP50S, chartP50Ms, chartErrors, notes, new double[0]);
    }

    /**
     * As above, with the slowest charts (slowest first) starting at these offsets (s) into the
     * window, which begins at 1000 ms (epoch) and lasts 10 s; the class counts 100 requests.
     */
    public static ScenarioResult scenario(String version, long periodMs, long[] durations, Double suspensionP50S,
                                          double chartP50Ms, long chartErrors, List<String> notes,
                                          double[] slowestStartsS) {
        FlashCrowdConfig c = new FlashCrowdConfig(version, periodMs / 1000.0, 5, 40, 12, 0, 0, 0, 10,
                List.of(), List.of("-jar", "x.jar"), List.of(), java.nio.file.Path.of("app.log"));
        List<ScenarioResult.Collection> cs = new ArrayList<>();
        for (int i = 0; i < durations.length; i++) {
            cs.add(new ScenarioResult.Collection(i * periodMs / 1000.0, 1000 + i * periodMs, durations[i], 5,
                    durations[i] > periodMs, false));
        }
        ClassResult chart = new ClassResult("chart", "closed", 40, null, 100, chartErrors,
                chartErrors == 0 ? Map.of() : Map.of("status 429", chartErrors), 10, 300.0, 50.0, chartP50Ms,
                400.0, 900.0, 950.0, 1000.0, 0, slowest(slowestStartsS));
        LoadResult load = new LoadResult(1000, 10, Map.of("chart", chart), List.of());
        PrometheusScrape after = suspensionP50S == null ? null : PrometheusScrape.parse(
                "qosweaver_suspension_time_seconds{quantile=\"0.5\"} " + suspensionP50S + "\n"
                        + "qosweaver_suspension_time_seconds{quantile=\"0.99\"} " + 2 * suspensionP50S + "\n"
                        + "qosweaver_suspension_time_seconds_count 4\nqosweaver_suspension_time_seconds_sum 0.02\n");
        return ScenarioStats.scenario(c, "overloaded", 1000, 10, cs, load, null, after, List.of(), 12.0, List.of(),
                new ArrayList<>(notes), List.of(new ThreadCpu.Group("qtp", 1.2, List.of(1.0, 1.4)),
                        new ThreadCpu.Group(ThreadCpu.GC, 0.3, List.of(0.6, 0.0))));
    }
}
