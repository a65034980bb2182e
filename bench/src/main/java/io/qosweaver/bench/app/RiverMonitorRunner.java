package io.qosweaver.bench.app;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the river monitor as a child process under the flash crowd and measures it.
 *
 * <p>Order: start the app and wait for its ready line; optionally an idle window (no load);
 * wait for the next collection to start so that no idle collection runs under load; warm up
 * with one client per core ({@link Warmup}), then start the full load, warm up again as long,
 * wait (bounded) until the collector is back on its fixed-rate schedule ({@link CatchUp}),
 * measure the loaded window; stop the load; wait (bounded) until every
 * collection that started in the window has finished; stop the app with SIGTERM.
 *
 * <p>A collection belongs to the window it STARTS in. The last one of the loaded window
 * usually ends after the load has stopped, so its duration is a little shorter than under
 * load would be: this biases the overloaded numbers down, never up. One still running when
 * the bounded wait ends counts as missed if it has already outlived its period.
 */
public final class RiverMonitorRunner {
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(240);
    private static final long POLL_MS = 1000;
    private static final long PROGRESS_EVERY_MS = 5000;

    private final HttpClient http = LoadDriver.defaultClient();
    private final Progress progress;
    private final Observe observe;
    private final Hooks hooks;

    /**
     * What the runner asks the agent inside a loaded window, besides one {@code /metrics} scrape at
     * each end of it. Every request is work the app does and a version without the agent (a peer,
     * the original) is not asked, so an experiment that compares versions asks nothing: one
     * scrape costs the woven app 0.5-2.4 ms of CPU ({@code bench/results/deadline/observer-2026-12-02/}),
     * small, but it also runs the agent's own code (its HTTP server, the text rendering) through the
     * JIT inside the window, and only on one side.
     */
    public enum Observe {
        /** Nothing beyond the two scrapes: the comparisons (deadline, lowcost, the generator's). */
        NOTHING(false, false),
        /** {@code /metrics} about once a second for the running-chart-threads gauge (the flash-crowd report's chart). */
        GAUGE(true, false),
        /** The gauge and the agent's running-threads timeline ({@code /timeline}), for the figures that plot it. */
        GAUGE_AND_TIMELINE(true, true);

        final boolean gauge;
        final boolean timeline;

        Observe(boolean gauge, boolean timeline) {
            this.gauge = gauge;
            this.timeline = timeline;
        }
    }

    /**
     * What an experiment may do at two moments of a run, besides measuring (the deadlock experiment
     * watches the app from its start, and checks that nothing stays suspended at its end).
     */
    public interface Hooks {
        Hooks NONE = new Hooks() { };

        /** The app is ready ({@code metrics} null without the agent); called on the runner's thread. */
        default void ready(AppProcess app, URI base, URI metrics) {
        }

        /** The load has stopped and the last collection of the window has ended; the app still runs. */
        default void beforeStop(AppProcess app, URI base, URI metrics) throws InterruptedException {
        }
    }

    /** A runner that asks the agent nothing inside a window ({@link Observe#NOTHING}). */
    public RiverMonitorRunner(Progress progress) {
        this(progress, Observe.NOTHING);
    }

    /**
     * @param observe what to ask the agent inside the loaded window (the timeline is kept in
     *                {@link ScenarioResult#runningTimeline()}, the gauge in
     *                {@link ScenarioResult#runningChartThreads()})
     */
    public RiverMonitorRunner(Progress progress, Observe observe) {
        this(progress, observe, Hooks.NONE);
    }

    public RiverMonitorRunner(Progress progress, Observe observe, Hooks hooks) {
        this.progress = progress;
        this.observe = observe;
        this.hooks = hooks;
    }

    public RunResult run(FlashCrowdConfig c) throws IOException, InterruptedException {
        return runWindows(c, List.of(c.chartHours()), c.warmupS()).get(0);
    }

    /**
     * Runs one app process through a loaded window per chart window of {@code hours}, in that order.
     * The first window is warmed up as {@link #run} does (the light phase, then the full load for
     * {@code c.warmupS()}); each later one only with the full load of its own chart window for
     * {@code settleS} seconds: the JIT is warm by then and only the load has changed. Every window
     * then waits for the collector's schedule ({@link CatchUp}) and ends as any window does (the
     * load stops, the last collection ends), so a window's figures mean what they mean in a process
     * of its own. Why: the woven app's JIT needs two minutes of warm-up under this load, so a process
     * per window spent most of a full run warming up.
     *
     * @return a result per window, in order; the idle window (if {@code c.idleS() > 0}) is in the first
     */
    public List<RunResult> runWindows(FlashCrowdConfig c, List<Integer> hours, double settleS)
            throws IOException, InterruptedException {
        if (hours.isEmpty() || hours.size() > 1 && c.durationS() <= 0) {
            throw new IllegalArgumentException("windows of one process need chart windows and a loaded duration, got "
                    + hours + " and " + c.durationS() + " s");
        }
        if (settleS < 0) {
            throw new IllegalArgumentException("the settling time must not be negative, got " + settleS);
        }
        List<String> args = new ArrayList<>(List.of("--port", "0", "--generator-port", "0",
                "--period", Format.number(c.periodS()), "--rivers", Integer.toString(c.rivers())));
        args.addAll(c.extraAppArgs());
        progress.update("[" + c.version() + "] starting the river monitor (period " + Format.number(c.periodS()) + " s, "
                + c.rivers() + " rivers" + (hours.size() > 1 ? ", chart windows " + hours + " h in this process" : "")
                + "); log " + c.logFile());
        try (AppProcess app = AppProcess.start(c.jvmArgs(), c.appCommand(), args, c.logFile())) {
            URI base = app.awaitReady(STARTUP_TIMEOUT);
            boolean agent = c.jvmArgs().stream().anyMatch(a -> a.startsWith("-javaagent:"));
            URI metrics = app.metrics(agent ? Duration.ofSeconds(5) : Duration.ZERO);
            progress.update("[" + c.version() + "] ready at " + base + (metrics != null ? ", agent metrics " + metrics
                    : agent ? ", agent announced no metrics endpoint" : ""));
            hooks.ready(app, base, metrics);
            int firstRiver = firstRiverId(base);
            // --no-collector: nothing to wait for after a window (lowcost measures the pages alone)
            boolean collects = !c.extraAppArgs().contains("--no-collector");

            ScenarioResult idle = null;
            if (c.idleS() > 0) {
                long start = System.currentTimeMillis();
                watch(c, "idle", base, metrics, start, c.idleS(), null, null);
                long end = System.currentTimeMillis();
                if (collects) {
                    awaitCollectionStartAfter(base, end, c.periodMs() * 3 + 30_000);
                }
                idle = scenario(c, "idle", base, start, end, null, null, null, List.of(), null, null, null, null);
            }
            List<Loaded> loaded = new ArrayList<>();
            if (c.durationS() > 0) {
                for (int i = 0; i < hours.size(); i++) {
                    FlashCrowdConfig w = c.withChartHours(hours.get(i));
                    if (i > 0) {
                        w = w.withPhases(0, settleS, c.durationS());
                        progress.update("[" + c.version() + "] chart window " + hours.get(i) + " h (" + (i + 1) + "/"
                                + hours.size() + ") in the same process");
                    }
                    loaded.add(loadedWindow(w, app, base, metrics, firstRiver, collects, i == 0));
                }
            }
            hooks.beforeStop(app, base, metrics);
            List<RunResult> out = new ArrayList<>();
            if (loaded.isEmpty()) {
                out.add(new RunResult(c.version(), idle, null, c.logFile().toString(), priority(scrape(metrics))));
            }
            for (int i = 0; i < loaded.size(); i++) {
                out.add(new RunResult(c.version(), i == 0 ? idle : null, loaded.get(i).scenario(),
                        c.logFile().toString(), priority(loaded.get(i).after())));
            }
            return out;
        }
    }

    /** A loaded window and the agent's metrics right after it (null without the agent). */
    private record Loaded(ScenarioResult scenario, PrometheusScrape after) {
    }

    /**
     * Warms up (with the light phase first when {@code first}), waits for the collector's schedule,
     * measures the loaded window, stops the load and waits for the window's last collection to end.
     */
    private Loaded loadedWindow(FlashCrowdConfig c, AppProcess app, URI base, URI metrics, int firstRiver,
                                boolean collects, boolean first) throws IOException, InterruptedException {
        List<LoadSpec> specs = specs(c, base, firstRiver);
        if (specs.isEmpty()) {
            throw new IllegalArgumentException("a loaded window needs chart or levels clients");
        }
        PrometheusScrape before;
        LoadResult load;
        long start;
        long end;
        List<ScenarioResult.GaugeSample> gauge = new ArrayList<>();
        TimelineRecorder timeline = null;
        Duration cpuBefore;
        Duration cpuAfter;
        List<ThreadCpu.Group> threadCpu = null;
        String caughtUp;
        if (first) {
            Warmup.light(http, app, specs, c.warmupS(), progress, c.version());
            // The agent's first /metrics answer is slower (its HTTP path and text rendering are loaded and
            // not yet compiled), a one-time cost only the woven versions have: take it here, not in the window.
            scrape(metrics);
        }
        try (LoadRun run = new LoadDriver(http).start(specs, true)) {
            if (c.warmupS() > 0) {
                progress.update("[" + c.version() + "] warm-up " + Format.number(c.warmupS()) + " s with "
                        + c.chartClients() + " chart clients" + (first ? "" : " of " + c.chartHours() + " h charts"));
                Thread.sleep(Math.round(c.warmupS() * 1000));
            }
            if (!app.isAlive()) {
                throw new IOException("the app died during the warm-up; last lines:\n" + app.tail());
            }
            caughtUp = collects && c.warmupS() > 0 ? awaitOnSchedule(c, base) : null;
            run.beginWindow();
            start = System.currentTimeMillis();
            cpuBefore = cpu(app);
            ThreadCpu sampler = ThreadCpu.start(app.pid());
            try {
                before = scrape(metrics);
                if (observe.timeline && metrics != null) {
                    timeline = new TimelineRecorder(http, metrics, start);
                    timeline.poll();
                }
                watch(c, "overloaded", base, metrics, start, c.durationS(), observe.gauge ? gauge : null,
                        timeline);
                load = run.endWindow();
                end = System.currentTimeMillis();
                cpuAfter = cpu(app);
            } finally {
                if (sampler != null) {
                    threadCpu = sampler.stop();
                }
            }
        }
        PrometheusScrape after = scrape(metrics);
        if (timeline != null) {
            timeline.poll();
        }
        if (collects) {
            progress.update("[" + c.version() + "] load stopped; waiting for the last collection to finish");
            awaitCollectionStartAfter(base, end, c.periodMs() * 2 + 30_000);
        }
        Double cpuS = cpuBefore == null || cpuAfter == null ? null
                : cpuAfter.minus(cpuBefore).toNanos() / 1e9;
        return new Loaded(scenario(c, "overloaded", base, start, end, load, before, after, gauge, cpuS, timeline,
                threadCpu, caughtUp), after);
    }

    private static List<LoadSpec> specs(FlashCrowdConfig c, URI base, int firstRiver) {
        List<LoadSpec> specs = new ArrayList<>();
        if (c.chartClients() > 0) {
            specs.add(LoadSpec.closed("chart", c.chartClients(), seq -> base.resolve(
                    "/chart?river=" + (firstRiver + seq % c.rivers()) + "&hours=" + c.chartHours())));
        }
        if (c.levelsClients() > 0) {
            URI html = base.resolve("/levels");
            URI png = base.resolve("/levels.png");
            specs.add(LoadSpec.closed("levels", c.levelsClients(), seq -> seq % 2 == 0 ? html : png));
        }
        return specs;
    }

    /** River ids are 0-based or 1-based depending on the app; ask it. */
    private int firstRiverId(URI base) {
        return firstRiverId(http, base);
    }

    /** River ids are 0-based or 1-based depending on the app; ask it. */
    public static int firstRiverId(HttpClient http, URI base) {
        try {
            HttpResponse<Void> r = http.send(HttpRequest.newBuilder(base.resolve("/chart?river=0&hours=3"))
                    .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.discarding());
            return r.statusCode() < 400 ? 0 : 1;
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** Sleeps through a window, polling collections for progress and the chart-thread gauge (null: not sampled). */
    private void watch(FlashCrowdConfig c, String phase, URI base, URI metrics, long startMs, double seconds,
                       List<ScenarioResult.GaugeSample> gauge, TimelineRecorder timeline) throws InterruptedException {
        long endMs = startMs + Math.round(seconds * 1000);
        long nextProgress = startMs;
        while (true) {
            long now = System.currentTimeMillis();
            if (now >= endMs) {
                return;
            }
            if (gauge != null && metrics != null) {
                PrometheusScrape p = scrape(metrics);
                Double running = p == null ? null : p.value("qosweaver_running_threads", "task_class", "chart");
                if (running != null) {
                    gauge.add(new ScenarioResult.GaugeSample((now - startMs) / 1000.0, running));
                }
            }
            if (timeline != null) {
                timeline.poll();
            }
            if (now >= nextProgress) {
                nextProgress += PROGRESS_EVERY_MS;
                String so = "";
                try {
                    List<CollectionRecord> all = collections(base);
                    long n = all.stream().filter(r -> r.startMs() >= startMs).count();
                    long missed = all.stream().filter(r -> r.startMs() >= startMs && r.missed(c.periodMs())).count();
                    so = ", collections so far " + n + " (missed " + missed + ")";
                } catch (IOException e) {
                    so = ", /status/collections failed: " + e.getMessage();
                }
                progress.update(String.format("[%s] %s %3.0fs/%.0fs elapsed, %.0fs left%s", c.version(), phase,
                        (now - startMs) / 1000.0, seconds, (endMs - now) / 1000.0, so));
            }
            Thread.sleep(Math.min(POLL_MS, Math.max(1, endMs - System.currentTimeMillis())));
        }
    }

    /**
     * After the warm-up, under the full load: waits until the collector is back on its schedule
     * ({@link CatchUp}), and says how that went; null when there was nothing to wait for.
     */
    private String awaitOnSchedule(FlashCrowdConfig c, URI base) throws InterruptedException {
        long t0 = System.currentTimeMillis();
        CatchUp catchUp = new CatchUp(c.periodMs(), t0);
        boolean told = false;
        while (true) {
            long now = System.currentTimeMillis();
            CatchUp.State state;
            try {
                state = catchUp.update(collections(base), now);
            } catch (IOException e) {
                state = catchUp.update(List.of(), now);
            }
            if (state != CatchUp.State.CATCHING_UP) {
                String note = catchUp.note(state, now);
                if (note != null) {
                    progress.update("[" + c.version() + "] " + note);
                }
                return note;
            }
            if (!told) {
                told = true;
                progress.update("[" + c.version() + "] the collector is " + catchUp.lastLateMs()
                        + " ms behind its schedule (collections owed from the warm-up or an earlier window);"
                        + " waiting for it to catch up");
            }
            Thread.sleep(500);
        }
    }

    /** Collections are sequential: once one starts at or after {@code t}, all before it have ended. */
    private void awaitCollectionStartAfter(URI base, long t, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            try {
                List<CollectionRecord> all = collections(base);
                if (all.stream().anyMatch(r -> r.startMs() >= t)) {
                    return;
                }
            } catch (IOException ignored) {
                // keep trying until the deadline
            }
            Thread.sleep(500);
        }
    }

    List<CollectionRecord> collections(URI base) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("/status/collections"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET /status/collections: status " + r.statusCode());
        }
        return CollectionsParser.parse(r.body());
    }

    private PrometheusScrape scrape(URI metrics) {
        return scrape(http, metrics);
    }

    /** The agent's metrics, parsed; null when there is no endpoint or it does not answer. */
    public static PrometheusScrape scrape(HttpClient http, URI metrics) {
        if (metrics == null) {
            return null;
        }
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? PrometheusScrape.parse(r.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** CPU time of the app's process so far (all threads), or null where the OS does not tell. */
    public static Duration cpu(AppProcess app) {
        return ProcessHandle.of(app.pid()).flatMap(h -> h.info().totalCpuDuration()).orElse(null);
    }

    private ScenarioResult scenario(FlashCrowdConfig c, String name, URI base, long startMs, long endMs,
                                    LoadResult load, PrometheusScrape before, PrometheusScrape after,
                                    List<ScenarioResult.GaugeSample> gauge, Double cpuS, TimelineRecorder timeline,
                                    List<ThreadCpu.Group> threadCpu, String caughtUp)
            throws IOException, InterruptedException {
        List<CollectionRecord> all = collections(base);
        long now = System.currentTimeMillis();
        List<String> notes = new ArrayList<>();
        if (caughtUp != null) {
            notes.add(caughtUp);
        }
        List<ScenarioResult.Collection> in = new ArrayList<>();
        for (CollectionRecord r : all) {
            if (r.startMs() < startMs || r.startMs() >= endMs) {
                continue;
            }
            boolean unfinished = !r.finished();
            boolean missed = unfinished ? now - r.startMs() > c.periodMs() : r.missed(c.periodMs());
            in.add(new ScenarioResult.Collection((r.startMs() - startMs) / 1000.0, r.startMs(),
                    unfinished ? null : r.durationMs(), r.readings(), missed, unfinished, r.lateMs()));
        }
        if (in.stream().anyMatch(ScenarioResult.Collection::unfinished)) {
            notes.add("a collection was still running when the run ended; it counts as missed if it had outlived its period");
        }
        if (timeline != null && timeline.problem() != null) {
            notes.add("running-threads timeline incomplete: " + timeline.problem());
        }
        double seconds = (endMs - startMs) / 1000.0;
        ScenarioResult s = ScenarioStats.scenario(c, name, startMs, seconds, in, load, before, after, gauge, cpuS,
                timeline == null ? null : timeline.points(seconds), notes, threadCpu);
        String invalid = RunValidity.problem(s, c.logFile());
        if (invalid == null) {
            return s;
        }
        progress.update("[" + c.version() + "] INVALID " + name + " window: " + invalid);
        notes.add(RunValidity.PREFIX + invalid);
        return ScenarioStats.scenario(c, name, startMs, seconds, in, load, before, after, gauge, cpuS,
                timeline == null ? null : timeline.points(seconds), notes, threadCpu);
    }

    /**
     * The agent's {@code qosweaver_priority_effective{mechanism,reason}} gauge and its change and
     * failure counters, or null when it exports none: a priority version that could not apply its
     * priorities must say so in the results, never measure the unscheduled app silently.
     */
    public static java.util.Map<String, Object> priority(PrometheusScrape p) {
        if (p == null) {
            return null;
        }
        for (PrometheusScrape.Sample s : p.samples()) {
            if (s.name().equals("qosweaver_priority_effective")) {
                java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
                m.put("mechanism", s.labels().get("mechanism"));
                m.put("effective", s.value() >= 1);
                m.put("reason", s.labels().get("reason"));
                Double changes = p.value("qosweaver_priority_changes_total");
                Double failures = p.value("qosweaver_priority_failures_total");
                m.put("changes", changes == null ? null : Math.round(changes));
                m.put("failures", failures == null ? null : Math.round(failures));
                return m;
            }
        }
        return null;
    }


    static ClassResult classOrNull(LoadResult load, String name) {
        return load == null ? null : load.get(name);
    }
}
