package io.qosweaver.cli.bench;

import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.pointcuts.Pointcuts;
import io.qosweaver.bench.pointcuts.PointcutsResult;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/** {@code qosweaver bench pointcuts}: the pointcut generator's parameters on the running app (issue 5). */
@Command(name = "pointcuts", mixinStandardHelpOptions = true,
        description = "Profiles a chart request, generates control points for each parameter set (paper Table 3: "
                + "t in {10, 100} ms x m in {1, 50, 100, 200}, ours, random 15, all, hand-written) and runs each "
                + "on the river monitor: observed intervals with 1, 10, 20, 40 clients (Fig. 19, 21), overhead "
                + "without collection, suspension and collection time under the flash crowd (Fig. 22).")
final class PointcutsBenchCommand implements Callable<Integer> {
    @Mixin
    ReportOptions report = new ReportOptions();

    @Option(names = "--quick", description = "3 h charts, short windows, the quick flash crowd (about 15 minutes)")
    boolean quick;

    @Option(names = "--sets", split = ",", paramLabel = "SET",
            description = "parameter sets, in order: t<ms>ms-m<m>[-cover][-cap], random<k>, all, handwritten (default: the paper's "
                    + "eight, t10ms-m3000, random15, all, handwritten)")
    List<String> sets;

    @Option(names = "--profile", split = ",", paramLabel = "FILE",
            description = "use these profiles instead of recording one (binary or text)")
    List<Path> profiles = new ArrayList<>();

    @Option(names = "--profile-slowdown", paramLabel = "X",
            description = "how many times slower the profiled charts ran than unprofiled ones (default 1: the agent's"
                    + " profiles are in the application's time; the stretch that remains is measured and reported)")
    Double profileSlowdown;

    @Option(names = "--charts", paramLabel = "N", description = "charts to profile, one file each (default 1, as the paper)")
    Integer charts;

    @Option(names = "--clients", split = ",", paramLabel = "N",
            description = "concurrency levels of the interval windows (default 1,10,20,40)")
    List<Integer> clients;

    @Option(names = "--overhead-window", paramLabel = "S", description = "seconds of the overhead window (default 60; --quick 15)")
    Double overheadWindow;

    @Option(names = "--interval-window", paramLabel = "S", description = "seconds of each interval window (default 20; --quick 6)")
    Double intervalWindow;

    @Option(names = "--no-collection", description = "skip the flash crowd runs (no suspension or collection numbers)")
    boolean noCollection;

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/pointcuts)")
    Path reportDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    Pointcuts.Params params() {
        Pointcuts.Params d = quick ? Pointcuts.Params.quick() : Pointcuts.Params.full();
        int n = charts != null ? charts : d.profiledCharts();
        if (n < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--charts: must be at least 1, got " + n);
        }
        List<Integer> c = clients != null && !clients.isEmpty() ? List.copyOf(clients) : d.intervalClients();
        for (int x : c) {
            if (x < 1) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--clients: must be positive, got " + x);
            }
        }
        double ow = overheadWindow != null ? overheadWindow : d.overheadWindowS();
        double iw = intervalWindow != null ? intervalWindow : d.intervalWindowS();
        if (ow <= 0 || iw <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "windows must be positive");
        }
        FlashCrowdParams flash = noCollection ? null : d.flash();
        try {
            return new Pointcuts.Params(d.chartHours(), d.rivers(), n, d.include(), d.overheadClients(),
                    d.overheadWarmupS(), ow, c, d.intervalWarmupS(), iw, flash, d.randomSeed(), profileSlowdown);
        } catch (IllegalArgumentException e) { // Params checks the slowdown, its only option-borne check
            throw new CommandLine.ParameterException(spec.commandLine(), "--profile-slowdown: " + e.getMessage());
        }
    }

    List<Pointcuts.ParamSet> sets(int charts) {
        if (sets == null || sets.isEmpty()) {
            return Pointcuts.defaultSets(charts);
        }
        List<Pointcuts.ParamSet> out = new ArrayList<>();
        for (String s : sets) {
            Pointcuts.ParamSet p = Pointcuts.ParamSet.parse(s);
            if (out.stream().anyMatch(x -> x.name().equals(p.name()))) {
                throw new IllegalArgumentException("parameter set '" + p.name() + "' is named twice");
            }
            out.add(p);
        }
        return out;
    }

    @Override
    public Integer call() throws Exception {
        Pointcuts.Params p = params();
        List<Pointcuts.ParamSet> s;
        try {
            s = sets(p.profiledCharts());
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver bench pointcuts: " + e.getMessage());
            return 2;
        }
        for (Path f : profiles) {
            if (!Files.isRegularFile(f)) {
                System.err.println("qosweaver bench pointcuts: profile not found: " + f);
                return 2;
            }
        }
        Layout layout = Layout.find();
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/pointcuts");
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        PointcutsResult r = Pointcuts.run(layout, p, s, profiles, quick, dir, ReportOptions.commandLine(args),
                report.progress());
        return report.finish("bench pointcuts", r, r.summary(), r.errors(), dir);
    }
}
