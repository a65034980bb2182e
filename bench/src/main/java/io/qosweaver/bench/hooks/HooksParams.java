package io.qosweaver.bench.hooks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The knobs of {@code bench hooks}. The app runs without its collector ({@code --no-collector}):
 * the policy's hooks are idle, and the light page ({@code /levels}, the up-to-date levels from
 * memory) is the only load, at a fixed open-loop rate.
 *
 * @param ratePerS requests started per second (open loop: whatever the server does)
 * @param warmupS seconds of the same load before each measured window (also after an unweave)
 * @param repeats every repeat runs each process once, in an order rotated from one repeat to the next
 * @param driverWarmupS seconds of the load against an unmeasured app without the agent before the
 *     first repeat (0: none), so that the load driver, in the bench's JVM, is compiled before any
 *     window: without it the first processes measured the driver's own warm-up (a first full
 *     run's response times fell from 1.13 ms to 0.83 ms over its first four processes, whatever
 *     their version)
 * @param phaseS seconds of each phase after a process's window, at the same load: the CPU phase
 *     (every process) and the counting phase (the hooks versions); 0: neither (the cost is then
 *     not computed)
 */
public record HooksParams(int rivers, double ratePerS, double warmupS, double windowS, int repeats,
                          double driverWarmupS, double phaseS, List<String> extraAppArgs) {
    /** The application's packages, hooked by the {@code execution} and {@code all} versions. */
    public static final String APP_PACKAGES = "org.rivermonitor";
    /** At most this many requests in flight; more would mean the server is not serving a light load. */
    static final int MAX_IN_FLIGHT = 32;

    public HooksParams {
        extraAppArgs = List.copyOf(extraAppArgs);
        if (rivers < 1 || !(ratePerS > 0) || warmupS < 0 || !(windowS > 0) || repeats < 1 || driverWarmupS < 0
                || phaseS < 0) {
            throw new IllegalArgumentException("rivers, rate, window and repeats must be positive, warm-ups not negative");
        }
    }

    /** 5 repeats, 20 s warm-ups, 60 s windows at 100 requests/s, 60 s of driver warm-up, 20 s phases (about 45 minutes). */
    public static HooksParams full() {
        return new HooksParams(20, 100, 20, 60, 5, 60, 20, List.of("--history-hours", "1"));
    }

    /** 2 repeats, 6 s warm-ups, 10 s windows, 20 s of driver warm-up, 5 s phases (about 5 minutes). */
    public static HooksParams quick() {
        return new HooksParams(20, 100, 6, 10, 2, 20, 5, List.of("--history-hours", "1"));
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("page", "/levels (every river's latest level, an HTML table from memory)");
        m.put("collector", "off (--no-collector): the policy's hooks stay idle");
        m.put("rivers", rivers);
        m.put("rate_per_s", ratePerS);
        m.put("max_in_flight", MAX_IN_FLIGHT);
        m.put("warmup_s", warmupS);
        m.put("window_s", windowS);
        m.put("repeats", repeats);
        m.put("driver_warmup_s", driverWarmupS);
        m.put("phase_s", phaseS);
        m.put("hooked_packages", APP_PACKAGES);
        m.put("extra_app_args", extraAppArgs);
        return m;
    }
}
