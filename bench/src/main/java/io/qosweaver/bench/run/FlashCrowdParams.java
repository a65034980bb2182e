package io.qosweaver.bench.run;

import io.qosweaver.bench.app.FlashCrowdConfig;
import io.qosweaver.bench.app.Warmup;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run of the river monitor under the flash crowd asks for, shared by every experiment;
 * {@link #quick} and {@link #full} are the calibrated defaults (bench/README.md, "Calibration").
 * {@code appJvmArgs} go to every version's app JVM before the version's own flags (e.g. a heap
 * size: the same for every version, recorded with the parameters).
 */
public record FlashCrowdParams(double periodS, int rivers, int chartClients, int chartHours, int levelsClients,
        double idleS, double warmupS, double durationS, List<String> extraAppArgs, List<String> appJvmArgs) {

    public FlashCrowdParams {
        extraAppArgs = List.copyOf(extraAppArgs);
        appJvmArgs = List.copyOf(appJvmArgs);
    }

    public FlashCrowdParams(double periodS, int rivers, int chartClients, int chartHours, int levelsClients,
            double idleS, double warmupS, double durationS, List<String> extraAppArgs) {
        this(periodS, rivers, chartClients, chartHours, levelsClients, idleS, warmupS, durationS, extraAppArgs,
                List.of());
    }

    /** The JVM flags of a version's app: {@link #appJvmArgs}, then the version's own. */
    public List<String> jvm(List<String> versionFlags) {
        List<String> jvm = new java.util.ArrayList<>(appJvmArgs);
        jvm.addAll(versionFlags);
        return jvm;
    }

    /** The same with these river-monitor arguments after its own (e.g. a database's {@code --jdbc-url}). */
    public FlashCrowdParams withMoreAppArgs(List<String> more) {
        List<String> args = new java.util.ArrayList<>(extraAppArgs);
        args.addAll(more);
        return new FlashCrowdParams(periodS, rivers, chartClients, chartHours, levelsClients, idleS, warmupS,
                durationS, args, appJvmArgs);
    }

    /** The same with another idle window (0: none). */
    public FlashCrowdParams withIdle(double idle) {
        return new FlashCrowdParams(periodS, rivers, chartClients, chartHours, levelsClients, idle, warmupS,
                durationS, extraAppArgs, appJvmArgs);
    }

    /**
     * The full run: the paper's 15 s period and 180 s (12 periods) under load, with 900 rivers
     * so that a loaded collection takes well over the period on a 2-core machine, and 12 h of
     * history (what a 12 h chart reads) so that seeding stays under half a minute
     * (calibration in bench/README.md).
     */
    public static FlashCrowdParams full() {
        return new FlashCrowdParams(DEFAULT_PERIOD_S, DEFAULT_RIVERS, 40, 12, 0, 4 * DEFAULT_PERIOD_S, 15,
                12 * DEFAULT_PERIOD_S, List.of("--history-hours", "12"));
    }

    /**
     * About a minute per app process: a 3 s period, 100 rivers, 12 periods loaded. Charts are
     * capped at 3,000 points by the app, so a 3 h chart costs about what a 12 h one does; 3 h of
     * history (not 24) keeps the start-up seeding to a few seconds.
     */
    public static FlashCrowdParams quick() {
        return new FlashCrowdParams(QUICK_PERIOD_S, QUICK_RIVERS, 40, 3, 0, 4 * QUICK_PERIOD_S, 6,
                12 * QUICK_PERIOD_S, List.of("--history-hours", "3"));
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("period_s", periodS);
        m.put("rivers", rivers);
        m.put("chart_clients", chartClients);
        m.put("chart_hours", chartHours);
        m.put("levels_clients", levelsClients);
        m.put("idle_s", idleS);
        m.put("warmup_s", warmupS);
        m.put("warmup", "warmup_s with light_warmup_clients chart clients, then warmup_s with the full load");
        m.put("light_warmup_clients", Warmup.lightClients());
        m.put("duration_s", durationS);
        m.put("extra_app_args", extraAppArgs);
        m.put("app_jvm_args", appJvmArgs);
        return m;
    }

    public FlashCrowdConfig config(String version, List<String> jvmArgs, Path riverMonitorJar, Path log) {
        return new FlashCrowdConfig(version, periodS, rivers, chartClients, chartHours, levelsClients, idleS,
                warmupS, durationS, jvm(jvmArgs), List.of("-jar", riverMonitorJar.toString()),
                extraAppArgs, log);
    }

    /** The paper's period; the rivers are scaled for a 2-core machine (bench/README.md, "Calibration"). */
    public static final double DEFAULT_PERIOD_S = 15;
    public static final int DEFAULT_RIVERS = 900;
    public static final double QUICK_PERIOD_S = 3;
    public static final int QUICK_RIVERS = 100;
}
