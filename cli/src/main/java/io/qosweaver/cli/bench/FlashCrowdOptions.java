package io.qosweaver.cli.bench;

import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.run.FlashCrowdParams;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The flash crowd's knobs; unset ones take the calibrated full or quick defaults. */
final class FlashCrowdOptions {
    @Mixin
    LoadOptions load = new LoadOptions();

    @Option(names = "--hours", paramLabel = "H", description = "chart window: 3, 6, 12 or 24 (default 12)")
    Integer hours;

    @Option(names = "--levels-clients", paramLabel = "N", description = "closed-loop /levels clients (default 0)")
    Integer levelsClients;

    @Option(names = "--idle", paramLabel = "S", description = "seconds of the idle window (default 4 periods)")
    Double idle;

    boolean quick() {
        return load.quick;
    }

    FlashCrowdParams params() {
        FlashCrowdParams d = load.defaults();
        return load.params(hours != null ? hours : d.chartHours(),
                levelsClients != null ? levelsClients : d.levelsClients(), idle, null);
    }
}
