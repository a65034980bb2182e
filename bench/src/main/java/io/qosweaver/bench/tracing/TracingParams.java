package io.qosweaver.bench.tracing;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The knobs of {@code bench tracing}. The app runs without its collector ({@code --no-collector}):
 * what is measured is the chart load alone, under the river monitor's policy, with and without the
 * tracer. The period (3 s, as the quick flash crowd) is the step of the seeded history, so that a
 * chart reads as many rows as in the other experiments.
 *
 * @param configs the configurations, by name ({@link TracingConfig})
 * @param repeats how many times each configuration runs; every repeat runs all of them once, in an order
 *                rotated from one repeat to the next, so that a drift of the machine spreads over all
 * @param osHz the OS level's sampling rate (the tracer's default: 100)
 */
public record TracingParams(int rivers, int chartClients, int chartHours, double warmupS, double windowS, int repeats,
                            int osHz, List<String> configs, List<String> extraAppArgs) {

    /** The history's step (with no collector, no collection ever runs). */
    public static final double PERIOD_S = 3;
    static final List<String> HOURS = List.of("3", "6", "12", "24");

    public TracingParams {
        configs = List.copyOf(configs);
        extraAppArgs = List.copyOf(extraAppArgs);
        if (rivers < 1 || chartClients < 1 || chartHours < 1 || warmupS < 0 || windowS <= 0 || repeats < 1 || osHz < 1) {
            throw new IllegalArgumentException("rivers, clients, hours, window, repeats and osHz must be positive,"
                    + " warm-up not negative");
        }
        if (configs.isEmpty() || !configs.get(0).equals(TracingConfig.OFF.name())) {
            throw new IllegalArgumentException("the configurations must start with '" + TracingConfig.OFF.name()
                    + "' (the baseline of every pair)");
        }
        configs.forEach(TracingConfig::named);
        if (!HOURS.contains(Integer.toString(chartHours))) {
            throw new IllegalArgumentException("chart hours must be one of " + HOURS + " (the app's own choice)");
        }
    }

    /** The run: 5 repeats of 6 configurations, 40 s windows (about 40 minutes). */
    public static TracingParams full() {
        return new TracingParams(20, 4, 3, 15, 40, 5, 100, TracingConfig.names(), List.of("--history-hours", "3"));
    }

    /** 2 repeats of 6 configurations, 15 s windows (about 8 minutes). */
    public static TracingParams quick() {
        return new TracingParams(20, 4, 3, 8, 15, 2, 100, TracingConfig.names(), List.of("--history-hours", "3"));
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("period_s", PERIOD_S);
        m.put("collector", "off (--no-collector): charts alone");
        m.put("rivers", rivers);
        m.put("chart_clients", chartClients);
        m.put("chart_hours", chartHours);
        m.put("warmup_s", warmupS);
        m.put("warmup", "warmup_s with one chart client per core, then warmup_s with the full load; then the window");
        m.put("window_s", windowS);
        m.put("repeats", repeats);
        m.put("os_hz", osHz);
        m.put("configs", configs);
        m.put("extra_app_args", extraAppArgs);
        return m;
    }
}
