package io.qosweaver.cli.bench;

import io.qosweaver.bench.app.Postgres;
import io.qosweaver.bench.deadline.Deadline;
import io.qosweaver.bench.deadline.DeadlineResult;
import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Versions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code qosweaver bench deadline}: every version, every chart window, one invocation (issue 4). */
@Command(name = "deadline", mixinStandardHelpOptions = true,
        description = "Collection deadline per version under the flash crowd, for each chart window "
                + "(paper Table 2, Fig. 14, 15, 17): the paper's versions, QoSWeaver's and today's tools "
                + "(--versions lists them).")
final class DeadlineCommand implements Callable<Integer> {
    @Mixin
    ReportOptions report = new ReportOptions();

    @Option(names = "--versions", split = ",", paramLabel = "V",
            description = "versions to run, in order (default: all, original,admission,java-priority,"
                    + "linux-priority,qosweaver,qosweaver-capped,qosweaver-capped-entry,concurrency-limits,jetty-qos); "
                    + "V:KEY=VALUE[:KEY=VALUE] runs V with those keys of its policy section set, e.g. "
                    + "qosweaver-cover-entry:lowCap=1.5x")
    List<String> versions = new ArrayList<>(Versions.ALL_VERSIONS);

    @Option(names = "--hours", split = ",", paramLabel = "H",
            description = "chart windows in hours (default 24,12,6,3; --quick: 3)")
    List<Integer> hours;

    @Mixin
    LoadOptions load = new LoadOptions();

    @Mixin
    DatabaseOptions database = new DatabaseOptions();

    @Option(names = "--repeat", paramLabel = "N", description = "rounds of every chart window, for the spread of "
            + "every figure (default 1; one window here can differ from the next by 13 %%)")
    int repeat = 1;

    @Option(names = "--processes", paramLabel = "P", description = "per-window (default): an app process per "
            + "chart window and version, each from a cold JVM; per-version: one process per version and round "
            + "through every chart window (the later windows settle under their own load for --settle seconds "
            + "first; about half the time with a long --warmup)")
    String processes = Deadline.Processes.PER_WINDOW.label();

    @Option(names = "--settle", paramLabel = "S", description = "with --processes per-version: seconds of full "
            + "load of its own chart window before each later window of a process (default: the --warmup)")
    Double settleS;

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/deadline)")
    Path reportDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    List<Integer> hours() {
        List<Integer> h = hours != null && !hours.isEmpty() ? hours : load.quick ? Deadline.QUICK_HOURS
                : Deadline.DEFAULT_HOURS;
        for (int x : h) {
            if (x < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--hours: must be positive, got " + x);
            }
        }
        return List.copyOf(h);
    }

    /** The flash crowd without an idle window, with history covering the largest chart window. */
    FlashCrowdParams params() {
        FlashCrowdParams d = load.defaults();
        return load.params(d.chartHours(), d.levelsClients(), 0.0,
                List.of("--history-hours", Integer.toString(Collections.max(hours()))));
    }

    @Override
    public Integer call() throws Exception {
        try {
            Versions.resolve(versions);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver bench deadline: " + e.getMessage());
            return 2;
        }
        if (repeat < 1) {
            System.err.println("qosweaver bench deadline: --repeat must be at least 1, got " + repeat);
            return 2;
        }
        Deadline.Processes mode;
        try {
            mode = Deadline.Processes.of(processes);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver bench deadline: --" + e.getMessage());
            return 2;
        }
        if (settleS != null && (settleS < 0 || mode != Deadline.Processes.PER_VERSION)) {
            System.err.println("qosweaver bench deadline: --settle needs --processes per-version and a value of 0 or"
                    + " more, got " + settleS + " with " + processes);
            return 2;
        }
        double settle = settleS != null ? settleS : params().warmupS();
        Layout layout = Layout.find();
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/deadline");
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        final Postgres pg;
        try {
            pg = database.start(layout, report.progress());
        } catch (java.io.IOException e) {
            System.err.println("qosweaver bench deadline: " + e.getMessage());
            return 2;
        }
        try (pg) {
            DeadlineResult r = Deadline.run(layout, DatabaseOptions.on(params(), pg), hours(), repeat, mode, settle,
                    load.quick, versions, dir, ReportOptions.commandLine(args), report.progress());
            return report.finish("bench deadline", r, r.summary(), r.errors(), dir);
        }
    }
}
