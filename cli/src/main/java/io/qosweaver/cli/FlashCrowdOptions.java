package io.qosweaver.cli;

import java.util.ArrayList;
import java.util.List;

import io.qosweaver.bench.experiment.FlashCrowd;
import picocli.CommandLine.Option;

/** The flash crowd's knobs; unset ones take the calibrated full or quick defaults. */
final class FlashCrowdOptions {
    @Option(names = "--quick", description = "a short run: period %s s, %s rivers (see bench/README.md)")
    boolean quick;

    @Option(names = "--period", paramLabel = "S", description = "collector period in seconds")
    Double period;

    @Option(names = "--rivers", paramLabel = "N", description = "number of rivers")
    Integer rivers;

    @Option(names = "--clients", paramLabel = "N", description = "closed-loop chart clients (default 40)")
    Integer clients;

    @Option(names = "--hours", paramLabel = "H", description = "chart window: 3, 6, 12 or 24 (default 12)")
    Integer hours;

    @Option(names = "--levels-clients", paramLabel = "N", description = "closed-loop /levels clients (default 0)")
    Integer levelsClients;

    @Option(names = "--duration", paramLabel = "S", description = "seconds of the loaded window (default 12 periods)")
    Double duration;

    @Option(names = "--warmup", paramLabel = "S", description = "seconds of load before the window")
    Double warmup;

    @Option(names = "--idle", paramLabel = "S", description = "seconds of the idle window (default 4 periods)")
    Double idle;

    @Option(names = "--app-arg", paramLabel = "ARG", description = "an extra river-monitor argument (repeatable), "
            + "e.g. --app-arg=--jdbc-url --app-arg=jdbc:postgresql://...")
    List<String> appArgs = new ArrayList<>();

    FlashCrowd.Params params() {
        FlashCrowd.Params d = quick ? FlashCrowd.Params.quick() : FlashCrowd.Params.full();
        double p = period != null ? period : d.periodS();
        boolean periodChanged = period != null;
        return new FlashCrowd.Params(p, rivers != null ? rivers : d.rivers(),
                clients != null ? clients : d.chartClients(), hours != null ? hours : d.chartHours(),
                levelsClients != null ? levelsClients : d.levelsClients(),
                idle != null ? idle : periodChanged ? 4 * p : d.idleS(),
                warmup != null ? warmup : d.warmupS(),
                duration != null ? duration : periodChanged ? 12 * p : d.durationS(),
                appArgs.isEmpty() ? d.extraAppArgs() : List.copyOf(appArgs));
    }
}
