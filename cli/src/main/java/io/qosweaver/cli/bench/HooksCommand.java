package io.qosweaver.cli.bench;

import io.qosweaver.bench.hooks.Hooks;
import io.qosweaver.bench.hooks.HooksParams;
import io.qosweaver.bench.hooks.HooksResult;
import io.qosweaver.bench.run.Layout;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code qosweaver bench hooks}: what idle hooks cost a light page, per hooking policy (issue 15). */
@Command(name = "hooks", mixinStandardHelpOptions = true,
        description = "The river monitor's light page (/levels) at a fixed open-loop rate with no agent, idle hooks at "
                + "every execution join point of its packages, at every call and execution join point, the filtered "
                + "hooks of its policy, and after unweave, in runs alternating over repeats: response time against "
                + "no agent (goal: under 1 %% for the policy and after unweave), bytes of code and metaspace per hook, "
                + "byte identity after unweave; beside the dynamic-weaving paper's Fig. 7. Exit 1 when a goal is not "
                + "met or a run failed.")
final class HooksCommand implements Callable<Integer> {
    @Mixin
    ReportOptions report = new ReportOptions();

    @Option(names = "--quick", description = "2 repeats, 6 s warm-ups, 10 s windows, 5 s phases (about 5 minutes)")
    boolean quick;

    @Option(names = "--repeats", paramLabel = "N", description = "runs of every version (default 5; --quick: 2)")
    Integer repeats;

    @Option(names = "--window", paramLabel = "S", description = "measured seconds per run (default 60; --quick: 10)")
    Double window;

    @Option(names = "--warmup", paramLabel = "S", description = "seconds of load before each window (default 20; --quick: 6)")
    Double warmup;

    @Option(names = "--rate", paramLabel = "N", description = "pages started per second (default 100)")
    Double rate;

    @Option(names = "--rivers", paramLabel = "N", description = "rivers (default 20)")
    Integer rivers;

    @Option(names = "--phase", paramLabel = "S", description = "seconds of the CPU phase and of the hook-counting phase"
            + " after each window (default 20; --quick: 5; 0: none, the cost is then not computed)")
    Double phase;

    @Option(names = "--hook-cost", paramLabel = "FILE", description = "JMH JSON of HooksBenchmark (jmh/RESULTS.md):"
            + " the cost of one idle hook, to compute the hooks' cost per request; without it the report gives the"
            + " formula with the counts")
    Path hookCost;

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/hooks)")
    Path reportDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    HooksParams params() {
        HooksParams d = quick ? HooksParams.quick() : HooksParams.full();
        try {
            return new HooksParams(rivers != null ? rivers : d.rivers(), rate != null ? rate : d.ratePerS(),
                    warmup != null ? warmup : d.warmupS(), window != null ? window : d.windowS(),
                    repeats != null ? repeats : d.repeats(), d.driverWarmupS(), phase != null ? phase : d.phaseS(),
                    d.extraAppArgs());
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    @Override
    public Integer call() throws Exception {
        HooksParams p = params();
        Layout layout = Layout.find();
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/hooks");
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        if (hookCost != null && !java.nio.file.Files.isReadable(hookCost)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--hook-cost " + hookCost + ": no such readable file");
        }
        HooksResult r = Hooks.run(layout, p, quick, dir, ReportOptions.commandLine(args), report.progress(), hookCost);
        int rc = report.finish("bench hooks", r, r.summary(), r.errors(), dir);
        if (rc == 0 && r.goals().stream().anyMatch(g -> Boolean.FALSE.equals(g.met()))) {
            System.err.println("qosweaver bench hooks: a goal is not met (see the summary)");
            return 1;
        }
        return rc;
    }
}
