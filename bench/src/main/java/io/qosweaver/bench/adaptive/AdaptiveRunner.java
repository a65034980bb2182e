package io.qosweaver.bench.adaptive;

import io.qosweaver.bench.app.AgentSwitch;
import io.qosweaver.bench.app.AppProcess;
import io.qosweaver.bench.app.CollectionRecord;
import io.qosweaver.bench.app.CollectionsParser;
import io.qosweaver.bench.app.PrometheusScrape;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.ScenarioResult.GaugeSample;
import io.qosweaver.bench.app.Warmup;
import io.qosweaver.bench.load.LoadDriver;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.load.LoadRun;
import io.qosweaver.bench.load.LoadSpec;
import io.qosweaver.bench.stats.Format;
import io.qosweaver.platform.ControlClient;
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
 * One run of {@code bench adaptive} in its own river-monitor process ({@link #measure}: the same in
 * a started one): start; warm up (one client
 * per core of each class, then the full load); charts alone for {@code preStepS}; then the up-to-date
 * clients arrive (the change of load) and the window is measured from that moment: both classes'
 * completions per second (the load driver's series), the adaptive low limit (the agent's
 * {@code qosweaver_task_class_cap{task_class="chart"}}) and the running chart threads, sampled
 * twice a second; with the collector, every collection that started in the window.
 */
final class AdaptiveRunner implements Adaptive.ProcessRunner {
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(240);
    private static final long GAUGE_EVERY_MS = 500;

    private final HttpClient http = LoadDriver.defaultClient();
    private final Progress progress;
    private final Path riverMonitorJar;

    AdaptiveRunner(Progress progress, Path riverMonitorJar) {
        this.progress = progress;
        this.riverMonitorJar = riverMonitorJar;
    }

    /** A river monitor started for the experiment, with what the runs need of it. */
    record App(AppProcess process, URI base, URI metrics, int firstRiver) {
    }

    @Override
    public Adaptive.Measured run(Adaptive.RunPlan plan, AdaptiveParams p, Path log)
            throws IOException, InterruptedException {
        progress.update("[" + plan.name() + "] starting the river monitor; log " + log);
        try (AppProcess process = start(plan.jvmFlags(), p, plan.collector(), log)) {
            return measure(connect(process, !plan.jvmFlags().isEmpty()), plan, p, true);
        }
    }

    /** Starts a river monitor for the experiment: its rivers and history, the collector or not. */
    static AppProcess start(List<String> jvmFlags, AdaptiveParams p, boolean collector, Path riverMonitorJar, Path log)
            throws IOException {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--generator-port", "0", "--rivers",
                Integer.toString(p.rivers()), "--period", Format.number(p.collectorPeriodS()), "--history-hours",
                Integer.toString(p.historyHours())));
        if (!collector) {
            args.add("--no-collector");
        }
        return AppProcess.start(jvmFlags, List.of("-jar", riverMonitorJar.toString()), args, log);
    }

    AppProcess start(List<String> jvmFlags, AdaptiveParams p, boolean collector, Path log) throws IOException {
        return start(jvmFlags, p, collector, riverMonitorJar, log);
    }

    /** Waits until the app serves, and finds its metrics (with the agent) and its first river. */
    App connect(AppProcess process, boolean agent) throws IOException, InterruptedException {
        URI base = process.awaitReady(STARTUP_TIMEOUT);
        URI metrics = process.metrics(agent ? Duration.ofSeconds(5) : Duration.ZERO);
        return new App(process, base, metrics, RiverMonitorRunner.firstRiverId(http, base));
    }

    /**
     * One run in a started app: the warm-up ({@code cold}: both phases, one client per core of each
     * class then the full load; otherwise the full load only, for the JIT to settle after a swap),
     * the charts alone, then the up-to-date clients and the measured window.
     */
    Adaptive.Measured measure(App app, Adaptive.RunPlan plan, AdaptiveParams p, boolean cold)
            throws IOException, InterruptedException {
        String tag = "[" + plan.name() + "] ";
        URI base = app.base();
        LoadSpec charts = LoadSpec.closed("chart", p.chartClients(), seq -> base.resolve(
                "/chart?river=" + (app.firstRiver() + seq % p.rivers()) + "&hours=" + p.chartHours()));
        LoadSpec levels = LoadSpec.closed("levels", p.levelsClients(), LoadSpec.Targets.fixed(base.resolve("/levels")));
        if (cold) {
            Warmup.light(http, app.process(), List.of(charts, levels), p.warmupS(), progress, plan.name());
        }
        LoadDriver driver = new LoadDriver(http);
        boolean step = plan.fromTarget() != null;
        try (LoadRun chartRun = driver.start(List.of(charts), true)) {
            progress.update(tag + "warm-up " + Format.number(p.warmupS()) + " s with the full load"
                    + (step ? " at target " + Format.cell(plan.fromTarget()) : ""));
            LoadResult chartResult;
            LoadResult levelsResult;
            List<GaugeSample> limit = new ArrayList<>();
            List<GaugeSample> running = new ArrayList<>();
            long startMs;
            // a step keeps the up-to-date clients from the warm-up on: the only change at the window's start is the target
            try (LoadRun levelsRun = driver.start(List.of(levels), step)) {
                Thread.sleep(Math.round(p.warmupS() * 1000));
                if (!step) {
                    levelsRun.close();
                    progress.update(tag + "charts alone " + Format.number(p.preStepS()) + " s, then "
                            + p.levelsClients() + " up-to-date clients arrive and " + Format.number(plan.windowS())
                            + " s are measured");
                    Thread.sleep(Math.round(p.preStepS() * 1000));
                }
                try (LoadRun measured = step ? levelsRun : driver.start(List.of(levels), true)) {
                    if (step) {
                        // the window starts once the agent has answered: the new target is in force from then
                        progress.update(tag + setTarget(app, plan, p) + "; " + Format.number(plan.windowS())
                                + " s are measured");
                        measured.beginWindow();
                    }
                    chartRun.beginWindow();
                    startMs = System.currentTimeMillis();
                    long start = System.nanoTime();
                    long end = start + Math.round(plan.windowS() * 1e9);
                    long nextProgress = start;
                    while (System.nanoTime() < end) {
                        double offset = (System.nanoTime() - start) / 1e9;
                        PrometheusScrape s = RiverMonitorRunner.scrape(http, app.metrics());
                        if (s != null) {
                            add(limit, offset, s.value("qosweaver_task_class_cap", "task_class", "chart"));
                            add(running, offset, s.value("qosweaver_running_threads", "task_class", "chart"));
                        }
                        if (System.nanoTime() >= nextProgress) {
                            nextProgress += 10_000_000_000L;
                            progress.update(String.format("%s%3.0fs/%.0fs measured", tag, offset, plan.windowS()));
                        }
                        Thread.sleep(Math.max(1, Math.min(GAUGE_EVERY_MS, (end - System.nanoTime()) / 1_000_000)));
                    }
                    // the driver's sampler closes each second at its end: let the last one close before stopping
                    Thread.sleep(300);
                    levelsResult = measured.stopWindow();
                    chartResult = chartRun.stopWindow();
                }
            }
            if (!app.process().isAlive()) {
                throw new IOException("the app died during the run; last lines:\n" + app.process().tail());
            }
            List<AdaptiveAnalysis.Span> spans = plan.collector() ? collections(base, startMs, plan.windowS())
                    : List.of();
            return new Adaptive.Measured(levelsResult, chartResult, limit, running, spans, app.process().firstError());
        }
    }

    /**
     * A step's change: {@code ctl set} of the new target (and its pacing) in the running policy, from
     * the limit in force ({@code lowInitial}: {@code set} re-creates the scheduler, which would
     * otherwise start again at lowMax, a change of its own).
     */
    private String setTarget(App app, Adaptive.RunPlan plan, AdaptiveParams p) throws IOException {
        PrometheusScrape s = RiverMonitorRunner.scrape(http, app.metrics());
        Double cap = s == null ? null : s.value("qosweaver_task_class_cap", "task_class", "chart");
        if (cap == null) {
            throw new IOException("no adaptive limit in the app's metrics before the change of target");
        }
        long now = Math.max(p.lowMin(), Math.min(p.lowMax(), Math.round(cap)));
        String line = "set policy.target=" + Format.number(plan.target()) + " policy.middlePacing="
                + Adaptive.pacingMs(p, plan.target()) + "ms policy.lowInitial=" + now;
        ControlClient.Reply r = AgentSwitch.Control.of(app.process().pid(), Duration.ofSeconds(60)).send(line);
        if (!r.ok()) {
            throw new IOException("the agent refused '" + line + "': " + r.text().strip());
        }
        return "'" + line + "' (limit " + Format.number(cap) + " in force)";
    }

    private static void add(List<GaugeSample> to, double offset, Double v) {
        if (v != null) {
            to.add(new GaugeSample(offset, v));
        }
    }

    /**
     * Every collection that overlaps the window, as a span of the window (a start before it is
     * negative; one still running ends at the window's end: its seconds in the window were spent
     * collecting), with its duration when it has finished.
     */
    private List<AdaptiveAnalysis.Span> collections(URI base, long startMs, double windowS)
            throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("/status/collections"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET /status/collections: status " + r.statusCode());
        }
        List<AdaptiveAnalysis.Span> out = new ArrayList<>();
        for (CollectionRecord c : CollectionsParser.parse(r.body())) {
            double s = (c.startMs() - startMs) / 1000.0;
            double e = c.finished() ? s + c.durationMs() / 1000.0 : windowS;
            if (s < windowS && e > 0) {
                out.add(new AdaptiveAnalysis.Span(s, e, c.finished() ? c.durationMs().doubleValue() : null));
            }
        }
        return out;
    }
}
