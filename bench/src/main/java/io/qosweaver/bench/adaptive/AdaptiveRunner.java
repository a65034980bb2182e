package io.qosweaver.bench.adaptive;

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
 * One run of {@code bench adaptive} in its own river-monitor process: start; warm up (one client
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

    @Override
    public Adaptive.Measured run(Adaptive.RunPlan plan, AdaptiveParams p, Path log)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--generator-port", "0", "--rivers",
                Integer.toString(p.rivers()), "--period", Format.number(p.collectorPeriodS()), "--history-hours",
                Integer.toString(p.historyHours())));
        if (!plan.collector()) {
            args.add("--no-collector");
        }
        String tag = "[" + plan.name() + "] ";
        progress.update(tag + "starting the river monitor; log " + log);
        try (AppProcess app = AppProcess.start(plan.jvmFlags(), List.of("-jar", riverMonitorJar.toString()), args,
                log)) {
            URI base = app.awaitReady(STARTUP_TIMEOUT);
            URI metrics = app.metrics(plan.jvmFlags().isEmpty() ? Duration.ZERO : Duration.ofSeconds(5));
            int firstRiver = RiverMonitorRunner.firstRiverId(http, base);
            LoadSpec charts = LoadSpec.closed("chart", p.chartClients(), seq -> base.resolve(
                    "/chart?river=" + (firstRiver + seq % p.rivers()) + "&hours=" + p.chartHours()));
            LoadSpec levels = LoadSpec.closed("levels", p.levelsClients(), LoadSpec.Targets.fixed(base.resolve("/levels")));
            Warmup.light(http, app, List.of(charts, levels), p.warmupS(), progress, plan.name());
            LoadDriver driver = new LoadDriver(http);
            try (LoadRun chartRun = driver.start(List.of(charts), true)) {
                progress.update(tag + "warm-up " + Format.number(p.warmupS()) + " s with the full load");
                try (LoadRun warm = driver.start(List.of(levels), false)) {
                    Thread.sleep(Math.round(p.warmupS() * 1000));
                }
                progress.update(tag + "charts alone " + Format.number(p.preStepS()) + " s, then " + p.levelsClients()
                        + " up-to-date clients arrive and " + Format.number(plan.windowS()) + " s are measured");
                Thread.sleep(Math.round(p.preStepS() * 1000));
                LoadResult chartResult;
                LoadResult levelsResult;
                List<GaugeSample> limit = new ArrayList<>();
                List<GaugeSample> running = new ArrayList<>();
                long startMs;
                try (LoadRun levelsRun = driver.start(List.of(levels), true)) {
                    chartRun.beginWindow();
                    startMs = System.currentTimeMillis();
                    long start = System.nanoTime();
                    long end = start + Math.round(plan.windowS() * 1e9);
                    long nextProgress = start;
                    while (System.nanoTime() < end) {
                        double offset = (System.nanoTime() - start) / 1e9;
                        PrometheusScrape s = RiverMonitorRunner.scrape(http, metrics);
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
                    levelsResult = levelsRun.stopWindow();
                    chartResult = chartRun.stopWindow();
                }
                if (!app.isAlive()) {
                    throw new IOException("the app died during the run; last lines:\n" + app.tail());
                }
                List<AdaptiveAnalysis.Span> spans = plan.collector() ? collections(base, startMs, plan.windowS())
                        : List.of();
                return new Adaptive.Measured(levelsResult, chartResult, limit, running, spans, app.firstError());
            }
        }
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
