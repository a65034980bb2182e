package io.qosweaver.bench.swap;

import io.qosweaver.bench.run.FlashCrowdParams;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The knobs of {@code bench swap}: the flash crowd (period, rivers, chart clients and window,
 * warm-up) and the changes: one step every {@code intervalS} over {@code durationS} of load.
 *
 * @param graceS how long after the load has stopped a thread may still be parked before it counts
 *               as left parked
 */
public record SwapParams(double periodS, int rivers, int chartClients, int chartHours, double warmupS,
                         double intervalS, double durationS, double graceS, List<String> extraAppArgs) {

    public static final double DEFAULT_INTERVAL_S = 10;
    public static final double DEFAULT_DURATION_S = 180;
    public static final double QUICK_INTERVAL_S = 3;
    public static final double QUICK_DURATION_S = 30;
    public static final double DEFAULT_GRACE_S = 5;

    public SwapParams {
        extraAppArgs = List.copyOf(extraAppArgs);
        if (periodS <= 0 || rivers < 1 || chartClients < 1 || warmupS < 0) {
            throw new IllegalArgumentException("period, rivers and chart clients must be positive, warm-up not negative");
        }
        if (intervalS <= 0 || durationS < intervalS) {
            throw new IllegalArgumentException("the interval must be positive and the duration at least one interval"
                    + " (interval " + intervalS + " s, duration " + durationS + " s)");
        }
    }

    /** The run: the full flash crowd (bench/README.md, "Calibration"), a change every 10 s for 3 minutes. */
    public static SwapParams full() {
        return from(FlashCrowdParams.full(), DEFAULT_INTERVAL_S, DEFAULT_DURATION_S);
    }

    /** The quick flash crowd (3 s period, 100 rivers), a change every 3 s for 30 s. */
    public static SwapParams quick() {
        return from(FlashCrowdParams.quick(), QUICK_INTERVAL_S, QUICK_DURATION_S);
    }

    public static SwapParams from(FlashCrowdParams p, double intervalS, double durationS) {
        return new SwapParams(p.periodS(), p.rivers(), p.chartClients(), p.chartHours(), p.warmupS(), intervalS,
                durationS, DEFAULT_GRACE_S, p.extraAppArgs());
    }

    public long periodMs() {
        return Math.round(periodS * 1000);
    }

    /** Steps applied during the load: one at every whole interval strictly inside the duration. */
    public int steps() {
        return (int) Math.ceil(durationS / intervalS - 1e-9) - 1;
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("period_s", periodS);
        m.put("rivers", rivers);
        m.put("chart_clients", chartClients);
        m.put("chart_hours", chartHours);
        m.put("warmup_s", warmupS);
        m.put("warmup", "warmup_s with one chart client per core, then warmup_s with the full load, under the "
                + "importance policy; then the measured load");
        m.put("interval_s", intervalS);
        m.put("duration_s", durationS);
        m.put("steps", steps());
        m.put("grace_s", graceS);
        m.put("extra_app_args", extraAppArgs);
        return m;
    }
}
