package io.qosweaver.cli.bench;

import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.tracing.Tracing;
import io.qosweaver.bench.tracing.TracingParams;
import io.qosweaver.bench.tracing.TracingResult;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code qosweaver bench tracing}: what {@code qosweaver trace} costs, per level and with all on (issue 17). */
@Command(name = "tracing", mixinStandardHelpOptions = true,
        description = "The river monitor's chart load with the agent and its policy, the tracer off, each level alone "
                + "and all levels on, in paired runs alternating over repeats: chart throughput and response time, "
                + "overhead against the tracer off (goal: under 2 %% with all levels at the default sampling), beside "
                + "the thesis' table. Exit 1 when the goal is not met or a run failed.")
final class TracingCommand implements Callable<Integer> {
    @Mixin
    ReportOptions report = new ReportOptions();

    @Option(names = "--quick", description = "2 repeats, 8 s warm-ups, 15 s windows (about 8 minutes)")
    boolean quick;

    @Option(names = "--repeats", paramLabel = "N", description = "runs of every configuration (default 5; --quick: 2)")
    Integer repeats;

    @Option(names = "--window", paramLabel = "S", description = "measured seconds per run (default 40; --quick: 15)")
    Double window;

    @Option(names = "--warmup", paramLabel = "S",
            description = "seconds of light, then of full warm-up per run (default 15; --quick: 8)")
    Double warmup;

    @Option(names = "--clients", paramLabel = "N", description = "closed-loop chart clients (default 4)")
    Integer clients;

    @Option(names = "--rivers", paramLabel = "N", description = "rivers (default 20)")
    Integer rivers;

    @Option(names = "--os-hz", paramLabel = "N", description = "the OS level's sampling rate (default 100)")
    Integer osHz;

    @Option(names = "--configs", paramLabel = "LIST", split = ",",
            description = "configurations, off first (default off,os,jvm,scheduler,app,all)")
    List<String> configs;

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/tracing)")
    Path reportDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    TracingParams params() {
        TracingParams d = quick ? TracingParams.quick() : TracingParams.full();
        try {
            return new TracingParams(rivers != null ? rivers : d.rivers(), clients != null ? clients : d.chartClients(),
                    d.chartHours(), warmup != null ? warmup : d.warmupS(), window != null ? window : d.windowS(),
                    repeats != null ? repeats : d.repeats(), osHz != null ? osHz : d.osHz(),
                    configs != null ? configs : d.configs(), d.extraAppArgs());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    @Override
    public Integer call() throws Exception {
        TracingParams p = params();
        Layout layout = Layout.find();
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/tracing");
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        TracingResult r = Tracing.run(layout, p, quick, dir, ReportOptions.commandLine(args), report.progress());
        int rc = report.finish("bench tracing", r, r.summary(), r.errors(), dir);
        if (rc == 0 && r.goals().stream().anyMatch(g -> !Boolean.TRUE.equals(g.met()))) {
            System.err.println("qosweaver bench tracing: the goal is not met (see the summary)");
            return 1;
        }
        return rc;
    }
}
