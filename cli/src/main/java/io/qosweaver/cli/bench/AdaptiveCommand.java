package io.qosweaver.cli.bench;

import io.qosweaver.bench.adaptive.Adaptive;
import io.qosweaver.bench.adaptive.AdaptiveParams;
import io.qosweaver.bench.adaptive.AdaptiveResult;
import io.qosweaver.bench.run.Layout;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code qosweaver bench adaptive}: the adaptive target-throughput policy (issue 14, paper 5.5). */
@Command(name = "adaptive", mixinStandardHelpOptions = true,
        description = "The up-to-date page held at a target throughput under 40 chart clients by the adaptive "
                + "policy (paper 5.5, Fig. 24-27): the feasible range here, a sweep of targets, settling after a "
                + "change of load, and the throughput during collections.")
final class AdaptiveCommand implements Callable<Integer> {
    @Mixin
    ReportOptions report = new ReportOptions();

    @Option(names = "--quick", description = "CI-sized: the two range probes and one target, 25 s windows, 3 h "
            + "charts; no baseline, no collector (a few minutes)")
    boolean quick;

    @Option(names = "--targets", split = ",", paramLabel = "T",
            description = "targets in up-to-date pages/s on this machine (default: the paper's 25..250 scaled "
                    + "into the feasible range measured by the probes)")
    List<Double> targets;

    @Option(names = "--window", paramLabel = "S", description = "seconds measured per run (default 70; quick 25)")
    Double window;

    @Option(names = "--settle", paramLabel = "S",
            description = "seconds at a window's start left out of the steady-state figures (default 10; quick 8)")
    Double settle;

    @Option(names = "--low-max", paramLabel = "N", description = "the largest adaptive low limit, also the lower "
            + "probe's fixed limit (default 6, the paper's Fig. 25); a larger one widens the feasible range")
    Integer lowMax;

    @Option(names = "--policy-param", paramLabel = "KEY=VALUE", description = "an extra parameter of the adaptive "
            + "policy in every target run, e.g. dither=true or gain=0.5 (repeatable; scheduler/README.md)")
    java.util.Map<String, String> policyParams;

    @Option(names = "--per-process", description = "each run in its own app process (default: every run without "
            + "the collector in one process, its policy swapped in, unwoven for the baseline)")
    boolean perProcess;

    @Option(names = "--reanalyse", description = "run nothing: derive the sweep, noise floor, goals and summary again"
            + " from the runs in --report DIR's results.json, and write it and the report again")
    boolean reanalyse;

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/adaptive)")
    Path reportDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    AdaptiveParams params() {
        AdaptiveParams p = quick ? AdaptiveParams.quick() : AdaptiveParams.full();
        if (window != null || settle != null) {
            p = p.withWindows(window != null ? window : p.windowS(), settle != null ? settle : p.settleS());
        }
        p = lowMax == null ? p : p.withLowMax(lowMax);
        p = perProcess ? p.withOneProcess(false) : p;
        try {
            return policyParams == null ? p : p.withPolicyParams(policyParams);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--policy-param: " + e.getMessage());
        }
    }

    List<Double> targets() {
        if (targets == null || targets.isEmpty()) {
            return null;
        }
        for (double t : targets) {
            if (!(t > 0)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--targets: must be positive, got " + t);
            }
        }
        return List.copyOf(targets);
    }

    @Override
    public Integer call() throws Exception {
        Layout layout = Layout.find();
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/adaptive");
        if (reanalyse) {
            if (!java.nio.file.Files.isRegularFile(dir.resolve("results.json"))) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--reanalyse: no results.json in " + dir);
            }
            AdaptiveResult r = Adaptive.reanalyse(dir, report.progress());
            return report.finish("bench adaptive --reanalyse", r, r.summary(), r.errors(), dir);
        }
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        AdaptiveResult r = Adaptive.run(layout, params(), targets(), quick, dir, ReportOptions.commandLine(args),
                report.progress());
        return report.finish("bench adaptive", r, r.summary(), r.errors(), dir);
    }
}
