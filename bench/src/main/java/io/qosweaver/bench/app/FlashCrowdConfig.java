package io.qosweaver.bench.app;

import java.nio.file.Path;
import java.util.List;

/**
 * One run of the river monitor under the flash crowd.
 *
 * @param version       label in results and progress, e.g. {@code original}, {@code qosweaver}
 * @param periodS       the collector's period in seconds (paper: 15)
 * @param rivers        rivers collected every period (paper's Kasendas: about 100)
 * @param chartClients  closed-loop clients of {@code /chart} (paper: 40)
 * @param chartHours    chart window, 3, 6, 12 or 24 (hours)
 * @param levelsClients closed-loop clients of {@code /levels} and {@code /levels.png}; 0 for none
 * @param idleS         seconds measured with no load first (0: no idle phase)
 * @param warmupS       seconds of each warm-up phase before the loaded window: first one client
 *                      per core ({@link Warmup}), then the full load
 * @param durationS     seconds of the loaded window (0: no loaded phase)
 * @param jvmArgs       flags for the app's JVM (e.g. {@code -javaagent:...})
 * @param appCommand    how to start the app after the flags, e.g. {@code -jar river-monitor.jar}
 * @param extraAppArgs  more app arguments, e.g. {@code --jdbc-url URL}
 * @param logFile       where the app's stdout and stderr go
 */
public record FlashCrowdConfig(String version, double periodS, int rivers, int chartClients, int chartHours,
                               int levelsClients, double idleS, double warmupS, double durationS,
                               List<String> jvmArgs, List<String> appCommand, List<String> extraAppArgs,
                               Path logFile) {

    public FlashCrowdConfig {
        jvmArgs = List.copyOf(jvmArgs);
        appCommand = List.copyOf(appCommand);
        extraAppArgs = List.copyOf(extraAppArgs);
        if (periodS <= 0 || rivers < 1 || chartClients < 0 || levelsClients < 0) {
            throw new IllegalArgumentException("period and rivers must be positive, clients not negative");
        }
    }

    public long periodMs() {
        return Math.round(periodS * 1000);
    }

    public FlashCrowdConfig withVersion(String v, List<String> jvm, Path log) {
        return new FlashCrowdConfig(v, periodS, rivers, chartClients, chartHours, levelsClients, idleS, warmupS,
                durationS, jvm, appCommand, extraAppArgs, log);
    }

    /** The same run with another chart window (the windows of one process, {@link RiverMonitorRunner#runWindows}). */
    public FlashCrowdConfig withChartHours(int hours) {
        return new FlashCrowdConfig(version, periodS, rivers, chartClients, hours, levelsClients, idleS, warmupS,
                durationS, jvmArgs, appCommand, extraAppArgs, logFile);
    }

    public FlashCrowdConfig withPhases(double idle, double warmup, double duration) {
        return new FlashCrowdConfig(version, periodS, rivers, chartClients, chartHours, levelsClients, idle, warmup,
                duration, jvmArgs, appCommand, extraAppArgs, logFile);
    }
}
