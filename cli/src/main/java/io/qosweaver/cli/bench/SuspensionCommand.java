package io.qosweaver.cli.bench;

import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.suspension.Suspension;
import io.qosweaver.bench.suspension.SuspensionResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code qosweaver bench suspension}: running chart threads over time, time to suspend (issue 4, Fig. 16). */
@Command(name = "suspension", mixinStandardHelpOptions = true,
        description = "Running low-importance (chart) threads over time under the flash crowd, from the scheduler's "
                + "timeline, and the time from each collection's start until at most the allowed ones run "
                + "(paper Fig. 16). Versions run by the agent only (default admission,qosweaver).")
final class SuspensionCommand implements Callable<Integer> {
    @Mixin
    ReportOptions report = new ReportOptions();

    @Option(names = "--versions", split = ",", paramLabel = "V",
            description = "versions to run, in order (default admission,qosweaver)")
    List<String> versions = new ArrayList<>(Suspension.DEFAULT_VERSIONS);

    @Option(names = "--hours", paramLabel = "H", description = "chart window in hours (default 12; --quick: 3)")
    Integer hours;

    @Option(names = "--allowed", paramLabel = "N",
            description = "chart threads allowed to run during a collection (the policies' lowLimit; default 1)")
    int allowed = 1;

    @Mixin
    LoadOptions load = new LoadOptions();

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/suspension)")
    Path reportDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    int hours() {
        int h = hours != null ? hours : load.quick ? 3 : Suspension.DEFAULT_HOURS;
        if (h < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--hours: must be positive, got " + h);
        }
        return h;
    }

    @Override
    public Integer call() throws Exception {
        try {
            Suspension.resolve(versions);
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver bench suspension: " + e.getMessage());
            return 2;
        }
        if (allowed < 0) {
            System.err.println("qosweaver bench suspension: --allowed must be 0 or more, got " + allowed);
            return 2;
        }
        Layout layout = Layout.find();
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/suspension");
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        int h = hours();
        SuspensionResult r = Suspension.run(layout, load.params(h, 0, 0.0,
                        List.of("--history-hours", Integer.toString(h))), h, allowed, load.quick, versions, dir,
                ReportOptions.commandLine(args), report.progress());
        return report.finish("bench suspension", r, r.summary(), r.errors(), dir);
    }
}
