package io.qosweaver.cli.bench;

import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.flashcrowd.FlashCrowdResult;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.Layout;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code qosweaver bench <experiment>}. */
@Command(name = "bench", mixinStandardHelpOptions = true, description = "Run an experiment of the papers.",
        subcommands = {BenchCommand.FlashCrowdCommand.class, DeadlineCommand.class, SuspensionCommand.class,
                LowCostCommand.class, PointcutsBenchCommand.class, MixedCommand.class, DeadlockCommand.class,
                AdaptiveCommand.class, SwapCommand.class, RaceTestCommand.class, TracingCommand.class,
                HooksCommand.class})
public final class BenchCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.err);
    }

    @Command(name = "flashcrowd", mixinStandardHelpOptions = true,
            description = "The river monitor idle and under a flash crowd of chart clients (issue 2): "
                    + "reproduces the missed collection deadlines.")
    static final class FlashCrowdCommand implements Callable<Integer> {
        @Mixin
        FlashCrowdOptions options = new FlashCrowdOptions();
        @Mixin
        ReportOptions report = new ReportOptions();

        @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/flashcrowd)")
        Path reportDir;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            Layout layout = Layout.find();
            Path dir = reportDir != null ? reportDir : layout.root().resolve("target/flashcrowd");
            String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
            FlashCrowdResult r = FlashCrowd.run(layout, options.params(), dir,
                    ReportOptions.commandLine(args), report.quiet ? Progress.NONE : Progress.stderr());
            if (report.json) {
                System.out.println(JsonWriter.write(r));
            } else {
                System.out.print(Table.text(r.scenarios()));
                System.out.println("failure reproduced: " + r.reproduced() + " (" + r.criterion() + ")");
                System.out.println("report: " + dir.resolve("index.html"));
            }
            return 0;
        }
    }

}
