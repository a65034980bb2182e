package io.qosweaver.bench.app;

import java.util.Map;

import io.qosweaver.bench.testing.TestResults;

import io.qosweaver.bench.report.Table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.load.LoadSpec;
import io.qosweaver.bench.testing.FakeRiverMonitor;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner end to end against a child JVM that keeps the river monitor's contract. */
class RiverMonitorRunnerTest {
    static List<String> fakeApp() {
        return List.of("-cp", System.getProperty("java.class.path"), FakeRiverMonitor.class.getName());
    }

    @Test
    void measuresIdleAndLoadedWindowsAndScrapesTheAgent(@TempDir Path dir) throws Exception {
        FlashCrowdConfig c = new FlashCrowdConfig("fake", 0.3, 3, 3, 12, 1, 1.0, 0.3, 1.5, List.of("-Xmx64m"),
                fakeApp(), List.of("--fake-agent"), dir.resolve("app.log"));
        List<String> progress = new ArrayList<>();
        RunResult r = new RiverMonitorRunner(line -> {
            synchronized (progress) {
                progress.add(line);
            }
        }, RiverMonitorRunner.Observe.GAUGE).run(c);

        assertThat(r.idle().collectionCount()).isPositive();
        assertThat(r.idle().missedCount()).isZero();
        assertThat(r.idle().chartP50Ms()).isNull();
        ScenarioResult o = r.overloaded();
        assertThat(o.collectionCount()).isPositive();
        assertThat(o.collections()).allSatisfy(x -> assertThat(x.offsetS()).isBetween(0.0, o.windowSeconds()));
        assertThat(o.chartThroughputPerS()).isPositive();
        assertThat(o.chartErrors()).as("river ids are found to be 1-based").isZero();
        assertThat(o.levelsP50Ms()).isNotNull();
        assertThat(o.load()).extracting(l -> l.name()).containsExactly("chart", "levels");
        assertThat(o.suspensionTimeP50Ms()).isEqualTo(1.0);
        assertThat(o.suspensionTimeP99Ms()).isEqualTo(2.0);
        assertThat(o.runningChartThreads()).isNotEmpty();
        assertThat(Files.readString(dir.resolve("app.log"))).contains("listening on");
        assertThat(progress).anyMatch(l -> l.contains("overloaded") && l.contains("collections so far"));
        int light = indexOf(progress, "light warm-up 0.3 s with " + Warmup.lightClients() + " client(s)");
        int full = indexOf(progress, "] warm-up 0.3 s with 3 chart clients");
        assertThat(light).as("the light phase runs first: %s", progress).isNotNegative().isLessThan(full);
    }

    /**
     * A comparison asks the agent nothing inside the window (a peer has no endpoint to ask): the
     * scrapes are the window's two ends whatever its length, and one before the full warm-up (the
     * agent's first answer, a one-time cost, kept out of the window); no gauge is recorded.
     */
    @Test
    void aComparisonAsksTheAgentOnlyAtTheWindowsEnds(@TempDir Path dir) throws Exception {
        FlashCrowdConfig c = new FlashCrowdConfig("fake", 0.3, 3, 3, 12, 0, 0, 0.3, 3.5, List.of("-Xmx64m"),
                fakeApp(), List.of("--fake-agent"), dir.resolve("app.log"));
        int[] scrapes = {-1};
        int[] beforeWarmup = {-1};
        URI[] app = {null};
        RiverMonitorRunner.Hooks count = new RiverMonitorRunner.Hooks() {
            @Override
            public void ready(AppProcess process, URI base, URI metrics) {
                app[0] = base;
            }

            @Override
            public void beforeStop(AppProcess process, URI base, URI metrics) {
                scrapes[0] = scrapesSoFar(base);
            }
        };
        // The full warm-up's progress line comes after the scrape that keeps the agent's first answer
        // out of the window, and before the window.
        Progress atFullWarmup = line -> {
            if (line.contains("] warm-up 0.3 s with 3 chart clients")) {
                beforeWarmup[0] = scrapesSoFar(app[0]);
            }
        };
        RunResult r = new RiverMonitorRunner(atFullWarmup, RiverMonitorRunner.Observe.NOTHING, count).run(c);

        assertThat(r.overloaded().chartThroughputPerS()).isPositive();
        assertThat(r.overloaded().runningChartThreads()).isEmpty();
        assertThat(beforeWarmup[0]).as("/metrics requests before the full warm-up").isEqualTo(1);
        assertThat(scrapes[0]).as("/metrics requests: that one, and one at each end of a 3.5 s window")
                .isEqualTo(3);
        assertThat(r.overloaded().suspensionTimeP99Ms()).as("the scrape after the window is still read").isEqualTo(2.0);
    }

    /**
     * Windows of one process: each loads its own chart window, only the first has the light warm-up,
     * the later ones settle for their own time; every window is measured as a window of its own.
     */
    @Test
    void windowsOfOneProcessEachLoadTheirOwnChartWindowAfterOneLightWarmup(@TempDir Path dir) throws Exception {
        FlashCrowdConfig c = new FlashCrowdConfig("fake", 0.3, 3, 3, 99, 0, 0, 0.5, 1.2, List.of("-Xmx64m"),
                fakeApp(), List.of("--fake-agent"), dir.resolve("app.log"));
        String[] charts = {null};
        RiverMonitorRunner.Hooks atEnd = new RiverMonitorRunner.Hooks() {
            @Override
            public void beforeStop(AppProcess process, URI base, URI metrics) {
                charts[0] = fake(base, "/fake/charts-by-hours");
            }
        };
        List<String> progress = new ArrayList<>();
        List<RunResult> rs = new RiverMonitorRunner(line -> {
            synchronized (progress) {
                progress.add(line);
            }
        }, RiverMonitorRunner.Observe.NOTHING, atEnd).runWindows(c, List.of(12, 6), 0.3);

        assertThat(rs).hasSize(2);
        assertThat(rs).allSatisfy(r -> {
            assertThat(r.idle()).isNull();
            assertThat(r.overloaded().chartThroughputPerS()).isPositive();
            assertThat(r.overloaded().collectionCount()).isPositive();
            assertThat(r.overloaded().windowSeconds()).isBetween(1.2, 3.0);
            assertThat(r.appLog()).isEqualTo(dir.resolve("app.log").toString());
        });
        assertThat(rs.get(1).overloaded().collections()).allSatisfy(x -> assertThat(x.startMs())
                .isGreaterThan(rs.get(0).overloaded().collections().get(0).startMs()));
        // 3 h once: the probe for the first river id; then only the two windows' own charts, never the config's 99
        assertThat(charts[0]).matches("\\{12=\\d+, 3=1, 6=\\d+}");
        assertThat(progress.stream().filter(l -> l.contains("light warm-up")).count()).isEqualTo(1);
        assertThat(progress).anyMatch(l -> l.contains("] warm-up 0.5 s with 3 chart clients")
                && !l.contains(" h charts"));
        assertThat(progress).anyMatch(l -> l.contains("] warm-up 0.3 s with 3 chart clients of 6 h charts"));
        assertThat(progress).anyMatch(l -> l.contains("chart window 6 h (2/2) in the same process"));
    }

    @Test
    void windowsOfOneProcessNeedALoadedWindowAndNoNegativeSettling(@TempDir Path dir) {
        FlashCrowdConfig idleOnly = new FlashCrowdConfig("fake", 0.3, 3, 3, 12, 0, 1, 0.5, 0, List.of("-Xmx64m"),
                fakeApp(), List.of(), dir.resolve("app.log"));
        RiverMonitorRunner runner = new RiverMonitorRunner(Progress.NONE);
        assertThatThrownBy(() -> runner.runWindows(idleOnly, List.of(12, 6), 1))
                .hasMessageContaining("need chart windows and a loaded duration");
        assertThatThrownBy(() -> runner.runWindows(idleOnly.withPhases(0, 0.5, 1), List.of(12, 6), -1))
                .hasMessageContaining("must not be negative");
        assertThat(dir.resolve("app.log")).as("no app was started").doesNotExist();
    }

    private static String fake(URI base, String path) {
        try {
            return HttpClient.newHttpClient().send(HttpRequest.newBuilder(base.resolve(path)).build(),
                    HttpResponse.BodyHandlers.ofString()).body().strip();
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The fake app's count of {@code /metrics} requests so far. */
    private static int scrapesSoFar(URI base) {
        try {
            return Integer.parseInt(HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(base.resolve("/fake/metrics-scrapes")).build(),
                    HttpResponse.BodyHandlers.ofString()).body().strip());
        } catch (IOException e) {
            throw new AssertionError(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** The headless-AWT failure: every chart fails; the run says so, naming the app's first error. */
    @Test
    void aWindowWhoseRequestsFailedIsInvalidAndNamesTheAppsFirstError(@TempDir Path dir) throws Exception {
        FlashCrowdConfig c = new FlashCrowdConfig("broken-charts", 0.3, 3, 3, 12, 0, 0, 0.3, 1.5, List.of("-Xmx64m"),
                fakeApp(), List.of("--fail-charts"), dir.resolve("app.log"));
        List<String> progress = new ArrayList<>();
        RunResult r = new RiverMonitorRunner(line -> {
            synchronized (progress) {
                progress.add(line);
            }
        }).run(c);
        ScenarioResult o = r.overloaded();
        assertThat(o.chartErrors()).isPositive();
        String why = RunValidity.of(o);
        assertThat(why).as("invalid").isNotNull()
                .contains("chart requests failed (100.0 %").contains("java.lang.UnsatisfiedLinkError");
        assertThat(progress).anyMatch(l -> l.startsWith("[broken-charts] INVALID overloaded window: "));
        Map<String, ScenarioResult> table = Map.of("broken-charts", o);
        assertThat(Table.rows(table)).allSatisfy(row -> assertThat(row[1]).isEqualTo("INVALID"));
        assertThat(Table.invalid(table)).singleElement().asString().startsWith("broken-charts: figures INVALID, ");
    }

    @Test
    void refusalsByDesignDoNotInvalidateAWindow() {
        ScenarioResult refusing = TestResults.scenario("limiter", 1000, new long[] {300}, null, 280.0, 5000);
        assertThat(refusing.load().get(0).errorKinds()).containsOnlyKeys("status 429");
        assertThat(RunValidity.problem(refusing, null)).isNull();
    }

    private static int indexOf(List<String> lines, String part) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(part)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void theLightWarmupKeepsAClassButCapsItsClients() {
        LoadSpec s = LoadSpec.closed("chart", 40, LoadSpec.Targets.fixed(java.net.URI.create("http://x/chart")))
                .withThinkTime(java.time.Duration.ofMillis(5));
        LoadSpec light = s.withClients(2);
        assertThat(light.clients()).isEqualTo(2);
        assertThat(light).usingRecursiveComparison().ignoringFields("clients").isEqualTo(s);
    }

    @Test
    void anAppThatDiesBeforeItIsReadyIsReportedWithItsOutput(@TempDir Path dir) {
        FlashCrowdConfig c = new FlashCrowdConfig("broken", 1, 3, 1, 12, 0, 0, 0, 1, List.of(),
                List.of("-cp", "/nonexistent", "no.such.Main"), List.of(), dir.resolve("app.log"));
        assertThatThrownBy(() -> new RiverMonitorRunner(Progress.NONE).run(c))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("exited")
                .hasMessageContaining("no.such.Main");
    }

    @Test
    void theReadyLineIsNotTheGeneratorsLine() {
        assertThat(AppProcess.READY.matcher("river-monitor generator listening on http://127.0.0.1:1").find()).isFalse();
        var m = AppProcess.READY.matcher("river-monitor listening on http://127.0.0.1:8080 (generator http://x:1)");
        assertThat(m.find()).isTrue();
        assertThat(m.group(1)).isEqualTo("http://127.0.0.1:8080");
        var mm = AppProcess.METRICS.matcher("[qosweaver] metrics on http://127.0.0.1:9/metrics");
        assertThat(mm.find()).isTrue();
        assertThat(mm.group(1)).isEqualTo("http://127.0.0.1:9/metrics");
    }
}
