package io.qosweaver.bench.app;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.stats.Samples;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Turns a window's collections, load and metrics into a {@link ScenarioResult}. */
public final class ScenarioStats {
    private ScenarioStats() {
    }

    public static ScenarioResult scenario(FlashCrowdConfig c, String name, long startMs, double seconds,
                                   List<ScenarioResult.Collection> in, LoadResult load,
                                   PrometheusScrape before, PrometheusScrape after,
                                   List<ScenarioResult.GaugeSample> gauge, Double appCpuS,
                                   List<ScenarioResult.TimelinePoint> timeline, List<String> notes,
                                   List<ThreadCpu.Group> threadCpu) {
        int count = in.size();
        int missed = (int) in.stream().filter(ScenarioResult.Collection::missed).count();
        Samples d = Samples.of(in.stream().map(ScenarioResult.Collection::durationMs).filter(Objects::nonNull).toList());
        Double mean = d.mean(), max = d.max(), sd = d.stddev(), p50 = d.quantile(0.5);
        ClassResult chart = load == null ? null : load.get("chart");
        ClassResult levels = load == null ? null : load.get("levels");

        Double sP50 = null;
        Double sP99 = null;
        Double sMax = null;
        Double sMean = null;
        Long sCount = null;
        if (after != null) {
            String m = "qosweaver_suspension_time_seconds";
            sP50 = ms(after.value(m, "quantile", "0.5"));
            sP99 = ms(after.value(m, "quantile", "0.99"));
            sMax = ms(after.value(m + "_max"));
            Double cnt = after.value(m + "_count");
            Double sum = after.value(m + "_sum");
            if (cnt != null) {
                double c0 = before == null || before.value(m + "_count") == null ? 0 : before.value(m + "_count");
                double s0 = before == null || before.value(m + "_sum") == null ? 0 : before.value(m + "_sum");
                sCount = Math.round(cnt - c0);
                if (sum != null && cnt - c0 > 0) {
                    sMean = ms((sum - s0) / (cnt - c0));
                }
            }
            if (cnt == null || cnt == 0) {
                // no episode at all: the scheduler's quantiles of nothing read 0, which is not a time
                sP50 = sP99 = sMax = null;
            }
        }
        List<ClassResult> classes = load == null ? List.of() : new ArrayList<>(load.classes().values());
        return new ScenarioResult(c.version(), name, c.periodS(), c.rivers(),
                load == null ? 0 : c.chartClients(), load == null ? 0 : c.levelsClients(), c.chartHours(),
                startMs, round(seconds), count, missed, count == 0 ? null : round((double) missed / count, 4),
                round(mean), round(max), round(sd), round(p50),
                chart == null ? 0 : round(chart.throughputPerS()), chart == null ? null : chart.p50Ms(),
                chart == null ? null : chart.p99Ms(), chart == null ? 0 : chart.errors(),
                levels == null ? null : round(levels.throughputPerS()), levels == null ? null : levels.p50Ms(),
                levels == null ? null : levels.p99Ms(),
                round(sP50), round(sP99), round(sMax), round(sMean), sCount,
                List.copyOf(in), classes, load == null ? List.of() : load.timeSeries(),
                gauge == null ? List.of() : List.copyOf(gauge), round(appCpuS),
                appCpuS == null || chart == null || chart.requests() == 0 ? null
                        : round(appCpuS * 1000.0 / chart.requests()),
                timeline == null ? List.of() : List.copyOf(timeline), List.copyOf(notes),
                threadCpu == null ? List.of() : List.copyOf(threadCpu));
    }

    private static Double ms(Double seconds) {
        return seconds == null ? null : seconds * 1000.0;
    }



}
