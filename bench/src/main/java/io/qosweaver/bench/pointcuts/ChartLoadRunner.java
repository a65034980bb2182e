package io.qosweaver.bench.pointcuts;

import io.qosweaver.bench.app.AppProcess;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.PrometheusScrape;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.Warmup;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadDriver;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.load.LoadRun;
import io.qosweaver.bench.load.LoadSpec;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The river monitor without its collector ({@code --no-collector}), under chart requests only,
 * in one app process: first a light warm-up as long as the overhead window's ({@link Warmup}),
 * then an overhead window (many clients; nothing is ever suspended, so what
 * a version costs shows as throughput and CPU time per chart), then, when the agent runs and
 * intervals are asked for, one window per concurrency level with the agent measuring the intervals
 * between control points (paper 5.3, Fig. 19: one client, "single-thread execution"; Fig. 21: 10,
 * 20 and 40). Interval measurement reads the clock at every control point, so it is switched on
 * only after the overhead window ({@code POST /intervals/start} on the agent's port).
 */
public final class ChartLoadRunner {
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(240);

    /**
     * One process's plan.
     *
     * @param jvmArgs         flags of the app's JVM (the agent, or none for the baseline)
     * @param appArgs         river-monitor arguments besides ports and {@code --no-collector}
     * @param overheadClients closed-loop chart clients of the overhead window
     * @param intervalClients concurrency levels of the interval windows (empty: none)
     */
    public record Plan(String version, List<String> jvmArgs, List<String> appCommand, List<String> appArgs,
                       int chartHours, int overheadClients, double overheadWarmupS, double overheadWindowS,
                       List<Integer> intervalClients, double intervalWarmupS, double intervalWindowS, Path logFile) {
        public Plan {
            jvmArgs = List.copyOf(jvmArgs);
            appCommand = List.copyOf(appCommand);
            appArgs = List.copyOf(appArgs);
            intervalClients = List.copyOf(intervalClients);
        }
    }

    /**
     * One measured window.
     *
     * @param controlPointsPerChart the agent's control points passed in the window per chart served
     *     (null without the agent)
     * @param appCpuMsPerChart the app process's CPU time in the window per chart served
     * @param intervals the control-point intervals of the chart threads (null when not measured)
     */
    public record Window(int clients, double seconds, long charts, double throughputPerS, Double meanMs,
                         Double p50Ms, Double p99Ms, long errors, Double controlPointsPerChart,
                         Double appCpuMsPerChart, IntervalStats intervals) {
    }

    public record Result(String version, Window overhead, List<Window> intervals, String appLog) {
    }

    private final HttpClient http = LoadDriver.defaultClient();
    private final Progress progress;

    public ChartLoadRunner(Progress progress) {
        this.progress = progress;
    }

    public Result run(Plan plan) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--generator-port", "0", "--no-collector"));
        args.addAll(plan.appArgs());
        progress.update("[" + plan.version() + "] starting the river monitor without collector; log " + plan.logFile());
        try (AppProcess app = AppProcess.start(plan.jvmArgs(), plan.appCommand(), args, plan.logFile())) {
            URI base = app.awaitReady(STARTUP_TIMEOUT);
            boolean agent = plan.jvmArgs().stream().anyMatch(a -> a.startsWith("-javaagent:"));
            URI metrics = app.metrics(agent ? Duration.ofSeconds(5) : Duration.ZERO);
            if (agent && metrics == null) {
                throw new IOException("the agent announced no metrics endpoint; last lines:\n" + app.tail());
            }
            int firstRiver = RiverMonitorRunner.firstRiverId(http, base);
            Warmup.light(http, app, List.of(chartSpec(base, firstRiver, plan, plan.overheadClients())),
                    plan.overheadWarmupS(), progress, plan.version());
            progress.update("[" + plan.version() + "] overhead window: " + plan.overheadClients() + " chart clients, "
                    + Format.number(plan.overheadWarmupS()) + " s warm-up + " + Format.number(plan.overheadWindowS()) + " s");
            Window overhead = window(app, base, metrics, firstRiver, plan, plan.overheadClients(),
                    plan.overheadWarmupS(), plan.overheadWindowS(), false);
            List<Window> intervals = new ArrayList<>();
            if (agent && !plan.intervalClients().isEmpty()) {
                switchIntervals(metrics, "start");
                for (int c : plan.intervalClients()) {
                    progress.update("[" + plan.version() + "] intervals with " + c + " chart client(s), "
                            + Format.number(plan.intervalWarmupS()) + " s warm-up + " + Format.number(plan.intervalWindowS()) + " s");
                    intervals.add(window(app, base, metrics, firstRiver, plan, c, plan.intervalWarmupS(),
                            plan.intervalWindowS(), true));
                }
                switchIntervals(metrics, "stop");
            }
            return new Result(plan.version(), overhead, intervals, plan.logFile().toString());
        }
    }

    private static LoadSpec chartSpec(URI base, int firstRiver, Plan plan, int clients) {
        int rivers = riversOf(plan.appArgs());
        return LoadSpec.closed("chart", clients, seq -> base.resolve(
                "/chart?river=" + (firstRiver + seq % rivers) + "&hours=" + plan.chartHours()));
    }

    private Window window(AppProcess app, URI base, URI metrics, int firstRiver, Plan plan, int clients,
                          double warmupS, double windowS, boolean intervals) throws IOException, InterruptedException {
        LoadSpec spec = chartSpec(base, firstRiver, plan, clients);
        LoadResult load;
        PrometheusScrape before;
        PrometheusScrape after;
        java.time.Duration cpuBefore;
        java.time.Duration cpuAfter;
        try (LoadRun run = new LoadDriver(http).start(List.of(spec), false)) {
            Thread.sleep(Math.round(warmupS * 1000));
            if (!app.isAlive()) {
                throw new IOException("the app died during the warm-up; last lines:\n" + app.tail());
            }
            run.beginWindow();
            cpuBefore = RiverMonitorRunner.cpu(app);
            before = RiverMonitorRunner.scrape(http, metrics);
            Thread.sleep(Math.round(windowS * 1000));
            load = run.endWindow();
            cpuAfter = RiverMonitorRunner.cpu(app);
            after = RiverMonitorRunner.scrape(http, metrics);
        }
        ClassResult c = load.get("chart");
        long charts = c == null ? 0 : c.requests();
        Double cps = null;
        if (before != null && after != null && charts > 0) {
            Double b = before.value("qosweaver_control_points_total");
            Double a = after.value("qosweaver_control_points_total");
            cps = a == null || b == null ? null : (a - b) / charts;
        }
        Double cpu = cpuBefore == null || cpuAfter == null || charts == 0 ? null
                : cpuAfter.minus(cpuBefore).toNanos() / 1e6 / charts;
        return new Window(clients, load.windowSeconds(), charts, c == null ? 0 : c.throughputPerS(),
                c == null ? null : c.meanMs(), c == null ? null : c.p50Ms(), c == null ? null : c.p99Ms(),
                c == null ? 0 : c.errors(), cps, cpu, intervals ? IntervalStats.between(before, after, "chart") : null);
    }

    private void switchIntervals(URI metrics, String op) throws IOException, InterruptedException {
        URI u = metrics.resolve("/intervals/" + op);
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(u).POST(HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("POST " + u + ": status " + r.statusCode() + ": " + r.body().strip());
        }
    }

    /** The {@code --rivers N} among the app's arguments (charts go round-robin over them), 1 when absent. */
    static int riversOf(List<String> appArgs) {
        int i = appArgs.indexOf("--rivers");
        return i >= 0 && i + 1 < appArgs.size() ? Math.max(1, Integer.parseInt(appArgs.get(i + 1))) : 1;
    }

}
