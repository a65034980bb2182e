package io.qosweaver.cli.bench;

import io.qosweaver.bench.lowcost.LowCost;
import io.qosweaver.bench.lowcost.LowCostResult;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Versions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code qosweaver bench lowcost}: what each version costs the chart requests (issue 4, Fig. 18, overhead). */
@Command(name = "lowcost", mixinStandardHelpOptions = true,
        description = "Chart throughput and response time per version with the collector (paper Fig. 18) and "
                + "without it (scheduling overhead), in one invocation, runs without collection repeated in "
                + "rotated order.")
final class LowCostCommand implements Callable<Integer> {
    static final double FULL_WITHOUT_S = 60;
    static final int FULL_REPEATS = 2;

    @Mixin
    ReportOptions report = new ReportOptions();

    @Option(names = "--versions", split = ",", paramLabel = "V", description = "versions to run (default: all)")
    List<String> versions = new ArrayList<>(Versions.ALL_VERSIONS);

    @Option(names = "--hours", paramLabel = "H", description = "chart window in hours (default 12; --quick: 3)")
    Integer hours;

    @Option(names = "--without-duration", paramLabel = "S",
            description = "seconds of a window without collection (default 60; --quick: the quick duration)")
    Double withoutS;

    @Option(names = "--repeats", paramLabel = "N",
            description = "runs without collection per version (default 2; --quick: 1)")
    Integer repeats;

    @Mixin
    LoadOptions load = new LoadOptions();

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/lowcost)")
    Path reportDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    int hours() {
        int h = hours != null ? hours : load.quick ? 3 : 12;
        if (h < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--hours: must be positive, got " + h);
        }
        return h;
    }

    @Override
    public Integer call() throws Exception {
        try {
            Versions.resolve(versions);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver bench lowcost: " + e.getMessage());
            return 2;
        }
        int n = repeats != null ? repeats : load.quick ? 1 : FULL_REPEATS;
        if (n < 1) {
            System.err.println("qosweaver bench lowcost: --repeats must be at least 1, got " + n);
            return 2;
        }
        Layout layout = Layout.find();
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/lowcost");
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        int h = hours();
        var p = load.params(h, 0, 0.0, List.of("--history-hours", Integer.toString(h)));
        double without = withoutS != null ? withoutS : load.quick ? p.durationS() : FULL_WITHOUT_S;
        LowCostResult r = LowCost.run(layout, p, h, without, n, load.quick, versions, dir,
                ReportOptions.commandLine(args), report.progress());
        return report.finish("bench lowcost", r, r.summary(), r.errors(), dir);
    }
}
