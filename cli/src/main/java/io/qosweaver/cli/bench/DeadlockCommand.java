package io.qosweaver.cli.bench;

import io.qosweaver.bench.deadlock.Deadlock;
import io.qosweaver.bench.deadlock.DeadlockResult;
import io.qosweaver.bench.deadlock.DeadlockVersions;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code qosweaver bench deadlock}: the synchronized logger's hidden lock, every version (issue 14, paper 5.4). */
@Command(name = "deadlock", mixinStandardHelpOptions = true,
        description = "The river monitor with a synchronized logger (--sync-log) under the flash crowd, one process "
                + "per version (paper 5.4, Fig. 23): the importance policy with a control point inside the logger "
                + "deadlocks (detected, the app killed), the deadlock-aware policy must not. Versions: importance, "
                + "deadlock-aware, importance-no-log (the baseline, without the logger), original, admission, "
                + "java-priority, linux-priority, jetty-qos, concurrency-limits.")
final class DeadlockCommand implements Callable<Integer> {
    @Mixin
    ReportOptions report = new ReportOptions();

    @Option(names = "--versions", split = ",", paramLabel = "V",
            description = "versions to run, in order (default: all, importance,deadlock-aware,importance-no-log,"
                    + "original,admission,java-priority,linux-priority,jetty-qos,concurrency-limits)")
    List<String> versions = new ArrayList<>(DeadlockVersions.DEFAULT);

    @Option(names = "--hours", paramLabel = "H", description = "chart window in hours (default 12; --quick: 3)")
    Integer hours;

    @Option(names = "--deadlock-periods", paramLabel = "N",
            description = "a deadlock is no collection ending for N periods while a thread is suspended (default 3)")
    int deadlockPeriods = Deadlock.DEFAULT_DEADLOCK_PERIODS;

    @Mixin
    LoadOptions load = new LoadOptions();

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/deadlock)")
    Path reportDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    int hours() {
        int h = hours != null ? hours : load.quick ? Deadlock.QUICK_HOURS : Deadlock.DEFAULT_HOURS;
        if (h < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--hours: must be positive, got " + h);
        }
        return h;
    }

    /** The flash crowd without an idle window, with history covering the chart window. */
    FlashCrowdParams params() {
        int h = hours();
        return load.params(h, 0, 0.0, List.of("--history-hours", Integer.toString(h)));
    }

    @Override
    public Integer call() throws Exception {
        try {
            DeadlockVersions.resolve(versions);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver bench deadlock: " + e.getMessage());
            return 2;
        }
        if (deadlockPeriods < 1) {
            System.err.println("qosweaver bench deadlock: --deadlock-periods must be at least 1, got " + deadlockPeriods);
            return 2;
        }
        Layout layout = Layout.find();
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/deadlock");
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        DeadlockResult r = Deadlock.run(layout, params(), hours(), deadlockPeriods, load.quick, versions, dir, ReportOptions.commandLine(args), report.progress());
        return report.finish("bench deadlock", r, r.summary(), r.errors(), dir);
    }
}
