package io.qosweaver.cli.bench;

import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.run.FlashCrowdParams;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The flash crowd's load knobs, shared by every experiment that runs it (flashcrowd, demo,
 * deadline); unset ones take the calibrated full or quick defaults (bench/README.md).
 */
final class LoadOptions {
    @Option(names = "--quick", description = "a short run: period 3 s, 100 rivers (see bench/README.md)")
    boolean quick;

    @Option(names = "--period", paramLabel = "S", description = "collector period in seconds")
    Double period;

    @Option(names = "--rivers", paramLabel = "N", description = "number of rivers")
    Integer rivers;

    @Option(names = "--clients", paramLabel = "N", description = "closed-loop chart clients (default 40)")
    Integer clients;

    @Option(names = "--duration", paramLabel = "S", description = "seconds of a loaded window (default 12 periods)")
    Double duration;

    @Option(names = "--warmup", paramLabel = "S", description = "seconds of each warm-up phase before a window: one client per core, then the full load")
    Double warmup;

    @Option(names = "--app-arg", paramLabel = "ARG", description = "an extra river-monitor argument (repeatable), "
            + "e.g. --app-arg=--jdbc-url --app-arg=jdbc:postgresql://...")
    List<String> appArgs = new ArrayList<>();

    @Option(names = "--jvm-arg", paramLabel = "ARG", description = "an extra JVM flag for every version's app "
            + "(repeatable, before the version's own), e.g. --jvm-arg=-Xmx12g")
    List<String> jvmArgs = new ArrayList<>();

    FlashCrowdParams defaults() {
        return quick ? FlashCrowdParams.quick() : FlashCrowdParams.full();
    }

    /**
     * The parameters: a new period scales the idle and loaded windows (4 and 12 periods) unless
     * they are given; {@code idle} null means "scale or default", {@code defaultAppArgs} null means
     * the calibrated ones.
     */
    FlashCrowdParams params(int chartHours, int levelsClients, Double idle, List<String> defaultAppArgs) {
        FlashCrowdParams d = defaults();
        double p = period != null ? period : d.periodS();
        boolean periodChanged = period != null;
        return new FlashCrowdParams(p, rivers != null ? rivers : d.rivers(),
                clients != null ? clients : d.chartClients(), chartHours, levelsClients,
                idle != null ? idle : periodChanged ? 4 * p : d.idleS(),
                warmup != null ? warmup : d.warmupS(),
                duration != null ? duration : periodChanged ? 12 * p : d.durationS(),
                !appArgs.isEmpty() ? List.copyOf(appArgs) : defaultAppArgs != null ? defaultAppArgs : d.extraAppArgs(),
                List.copyOf(jvmArgs));
    }
}
