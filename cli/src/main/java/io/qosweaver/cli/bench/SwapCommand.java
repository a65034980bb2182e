package io.qosweaver.cli.bench;

import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.swap.Swap;
import io.qosweaver.bench.swap.SwapParams;
import io.qosweaver.bench.swap.SwapResult;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code qosweaver bench swap}: policies changed at run time under the flash crowd (issue 15). */
@Command(name = "swap", mixinStandardHelpOptions = true,
        description = "The river monitor with the agent under the flash crowd, its policy changed through the agent's "
                + "control socket every interval (swap to admission, unweave, swap to importance, set "
                + "policy.lowLimit=2, =1, ...): every request counted (none lost, none failed, none left parked), the "
                + "latency of every change (goal: p99 under 1 s), the deadline figures of every phase. Exit 1 when a "
                + "goal is not met or the run failed.")
final class SwapCommand implements Callable<Integer> {
    @Mixin
    ReportOptions report = new ReportOptions();

    @Mixin
    LoadOptions load = new LoadOptions();

    @Option(names = "--interval", paramLabel = "S",
            description = "seconds between two changes (default 10; --quick: 3)")
    Double interval;

    @Option(names = "--hours", paramLabel = "H", description = "chart window in hours (default 12; --quick: 3)")
    Integer hours;

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/swap)")
    Path reportDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The flash crowd of {@link LoadOptions}; its {@code --duration} is the changing load's length (default 180 s; --quick: 30 s). */
    SwapParams params() {
        FlashCrowdParams d = load.defaults();
        int h = hours != null ? hours : d.chartHours();
        // history covering the chart window, as bench deadlock has it
        FlashCrowdParams fp = load.params(h, 0, 0.0, java.util.List.of("--history-hours", Integer.toString(h)));
        if (!fp.appJvmArgs().isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--jvm-arg is not supported by bench swap "
                    + "(deadline, lowcost, suspension, deadlock, demo and flashcrowd take it)");
        }
        double i = interval != null ? interval : load.quick ? SwapParams.QUICK_INTERVAL_S : SwapParams.DEFAULT_INTERVAL_S;
        double dur = load.duration != null ? load.duration
                : load.quick ? SwapParams.QUICK_DURATION_S : SwapParams.DEFAULT_DURATION_S;
        try {
            return SwapParams.from(fp, i, dur);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    @Override
    public Integer call() throws Exception {
        SwapParams p = params();
        Layout layout = Layout.find();
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/swap");
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        SwapResult r = Swap.run(layout, p, load.quick, dir, ReportOptions.commandLine(args), report.progress());
        int rc = report.finish("bench swap", r, r.summary(), r.errors(), dir);
        if (rc == 0 && r.goals().stream().anyMatch(g -> !Boolean.TRUE.equals(g.met()))) {
            System.err.println("qosweaver bench swap: a goal is not met (see the summary)");
            return 1;
        }
        return rc;
    }
}
