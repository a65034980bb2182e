package io.qosweaver.cli.bench;

import io.qosweaver.bench.load.LoadSpec;
import io.qosweaver.bench.mixed.Mixed;
import io.qosweaver.bench.mixed.MixedApp;
import io.qosweaver.bench.mixed.MixedPaired;
import io.qosweaver.bench.mixed.MixedPairedResult;
import io.qosweaver.bench.mixed.MixedParams;
import io.qosweaver.bench.mixed.MixedResult;
import io.qosweaver.bench.mixed.MixedRounds;
import io.qosweaver.bench.mixed.MixedVersions;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Versions.Version;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code qosweaver bench mixed --app NAME}: a third-party app under heavy and light load (issue 13). */
@Command(name = "mixed", mixinStandardHelpOptions = true,
        description = "A third-party server application from Maven Central, unmodified, under 8 x cores heavy "
                + "closed-loop clients and an open-loop stream of light requests: unscheduled, QoSWeaver "
                + "(hand-written and generated policies), Jetty's QoSHandler and Netflix concurrency-limits, "
                + "in one invocation.")
final class MixedCommand implements Callable<Integer> {
    @Mixin
    ReportOptions report = new ReportOptions();

    @Option(names = "--app", required = true, paramLabel = "NAME",
            description = "the application (known: fuseki, tika); fetched by examples/third-party/NAME/fetch.sh")
    String app;

    @Option(names = "--quick", description = "short windows: 10 s warm-ups and idle, 30 s loaded (full: 30 and 120 s)")
    boolean quick;

    @Option(names = "--versions", split = ",", paramLabel = "V",
            description = "versions to run (default: all that the app's server allows)")
    List<String> versions;

    @Option(names = "--heavy-clients", paramLabel = "N", description = "heavy closed-loop clients (default 8 x cores)")
    Integer heavyClients;

    @Option(names = "--light-rate", paramLabel = "R", description = "light requests per second (default 20)")
    Double lightRate;

    @Option(names = "--warmup", paramLabel = "S", description = "seconds of each warm-up phase")
    Double warmup;

    @Option(names = "--idle", paramLabel = "S", description = "seconds of the idle window (light stream alone)")
    Double idle;

    @Option(names = "--duration", paramLabel = "S", description = "seconds of the loaded window")
    Double duration;

    @Option(names = "--heavy-nice", paramLabel = "N", description = "nice value of the heavy driver JVM (default 10)")
    Integer heavyNice;

    @Option(names = "--light-client", paramLabel = "socket|jdk", description = "the light driver's HTTP client: "
            + "socket (default: one blocking keep-alive connection per sending thread, nothing handed between threads, "
            + "so the latency is the server's) or jdk (the JDK's asynchronous HttpClient, every run before 2026-11-28; "
            + "its hand-offs between threads added 1.3-2.3 ms at the median and 4-6 ms at the p99 of an idle Tika)")
    String lightClient;

    @Option(names = "--light-fifo", paramLabel = "P", description = "SCHED_FIFO priority of the light driver's sending "
            + "threads, idle and loaded windows alike (default 1; 0: the fair class, every run before 2026-12-05, where "
            + "a light client's wake-up waited up to a tick behind the heavy driver's running thread). Without the "
            + "privilege for it the run says so and goes on in the fair class")
    Integer lightFifo;

    @Option(names = "--app-jvm-flags", paramLabel = "'OPTS'", description = "JVM options added to the app's own in "
            + "every process of the run, on and off (the operator's choice of collector or heap, e.g. "
            + "'-XX:+UseZGC'), after the app's -Xmx2g and -Xlog:gc; separated by spaces; no agent")
    String appJvmFlags;

    @Option(names = "--repeat", paramLabel = "N", description = "rounds: every version N times, the order rotated by "
            + "one per round, each round in DIR/round-K and the spread over rounds in DIR (default 1)")
    int repeat = 1;

    @Option(names = "--paired", paramLabel = "N", description = "N pairs of loaded windows per version, each version in "
            + "one process switched off (the unscheduled app: QoSWeaver unwoven, a peer bypassed) and on, off-on then "
            + "on-off: every ratio inside one process (the unscheduled versions are not run; each process measures it)")
    Integer paired;

    @Option(names = "--rewrite-report", description = "run nothing: read the rounds of an earlier --repeat run in the "
            + "--report directory (round-K/results.json) and write its spread over the rounds again")
    boolean rewriteReport;

    @Option(names = "--prepare", paramLabel = "DIR",
            description = "only write the app's data and configuration into DIR (for profiling it by hand) and exit")
    Path prepare;

    @Option(names = "--report", paramLabel = "DIR", description = "where results go (default target/mixed-NAME)")
    Path reportDir;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    MixedParams params() {
        MixedParams d = quick ? MixedParams.quick() : MixedParams.full();
        return new MixedParams(heavyClients != null ? heavyClients : d.heavyClients(),
                lightRate != null ? lightRate : d.lightRate(), d.lightMaxInFlight(),
                warmup != null ? warmup : d.warmupS(), idle != null ? idle : d.idleS(),
                duration != null ? duration : d.durationS(), heavyNice != null ? heavyNice : d.heavyNice(),
                lightClient == null ? d.lightClient() : switch (lightClient) {
                    case "socket" -> LoadSpec.Transport.SOCKET;
                    case "jdk" -> LoadSpec.Transport.JDK;
                    default -> throw new IllegalArgumentException("--light-client: socket or jdk, got '" + lightClient + "'");
                },
                appJvmFlags == null || appJvmFlags.isBlank() ? List.of() : List.of(appJvmFlags.trim().split("\\s+")),
                lightFifo != null ? lightFifo : d.lightFifo());
    }

    /** The versions named, or every version the app's server allows. */
    List<String> versionNames(MixedApp a) {
        return versions != null ? versions : paired != null ? MixedPaired.defaults(a) : MixedVersions.defaults(a);
    }

    @Override
    public Integer call() throws Exception {
        MixedApp a;
        List<Version> vs;
        MixedParams p;
        try {
            a = MixedApp.named(app);
            vs = MixedVersions.resolve(a, versionNames(a));
            p = params();
            if (repeat < 1) {
                throw new IllegalArgumentException("--repeat must be at least 1, got " + repeat);
            }
            if (paired != null) {
                if (repeat > 1 || rewriteReport) {
                    throw new IllegalArgumentException("--paired runs every version once, pairing inside its process; "
                            + "it does not go with --repeat or --rewrite-report");
                }
                MixedPaired.check(vs, paired);
            }
        } catch (IllegalArgumentException e) {
            System.err.println("qosweaver bench mixed: " + e.getMessage());
            return 2;
        }
        Layout layout = Layout.find();
        if (prepare != null) {
            a.prepare(layout.root(), prepare);
            System.out.println("wrote " + a.name() + "'s data and configuration into " + prepare);
            return 0;
        }
        Path dir = reportDir != null ? reportDir : layout.root().resolve("target/mixed-" + a.name());
        if (rewriteReport) {
            MixedRounds r;
            try {
                r = Mixed.reportRounds(dir, report.progress());
            } catch (IllegalArgumentException e) {
                System.err.println("qosweaver bench mixed: " + e.getMessage());
                return 2;
            }
            return report.finish("bench mixed", r, r.summary(), r.errors(), dir);
        }
        String[] args = spec.commandLine().getParseResult().originalArgs().toArray(new String[0]);
        p = p.runnableHere(line -> report.progress().update("[mixed] " + line));
        if (paired != null) {
            MixedPairedResult r = MixedPaired.run(layout, a, p, vs, paired, quick, dir, ReportOptions.commandLine(args),
                    report.progress());
            return report.finish("bench mixed", r, r.summary(), r.errors(), dir);
        }
        if (repeat > 1) {
            MixedRounds r = Mixed.runRounds(layout, a, p, vs, repeat, quick, dir, ReportOptions.commandLine(args),
                    report.progress());
            return report.finish("bench mixed", r, r.summary(), r.errors(), dir);
        }
        MixedResult r = Mixed.run(layout, a, p, vs, quick, dir, ReportOptions.commandLine(args), report.progress());
        return report.finish("bench mixed", r, r.summary(), r.errors(), dir);
    }
}
