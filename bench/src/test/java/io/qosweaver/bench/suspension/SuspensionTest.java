package io.qosweaver.bench.suspension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.qosweaver.bench.app.ScenarioResult.TimelinePoint;
import io.qosweaver.bench.deadline.DeadlineTest;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.testing.TestResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Episodes from a timeline, the version check, and the report, with made-up timelines. */
class SuspensionTest {

    private static TimelinePoint chart(double t, int running) {
        return new TimelinePoint(t, "chart", 40, 40 - running, running);
    }

    private static TimelinePoint collector(double t, int members) {
        return new TimelinePoint(t, "collector", members, 0, members);
    }

    @Test
    void eachCollectionIsAnEpisodeTimedUntilTheChartThreadsAreDownToTheAllowed() {
        List<TimelinePoint> tl = List.of(
                chart(0, 40), collector(0, 0),                   // state at the window start
                collector(1.0, 1), chart(1.002, 30), chart(1.010, 5), chart(1.020, 1), chart(2.5, 40),
                collector(2.5, 0),
                chart(3.0, 1), collector(4.0, 1), chart(4.1, 40), collector(5.0, 0), // already down: 0 ms
                collector(6.0, 1), chart(6.5, 3), collector(7.0, 0),                 // never converged
                collector(8.0, 1), chart(8.05, 0));                                  // still running at the end
        List<SuspensionResult.Episode> eps = Suspension.episodes(tl, "collector", "chart", 1);
        assertThat(eps).hasSize(4);
        assertThat(eps.get(0)).isEqualTo(new SuspensionResult.Episode(1.0, 40, 20.0, 1));
        assertThat(eps.get(1)).isEqualTo(new SuspensionResult.Episode(4.0, 1, 0.0, 1));
        assertThat(eps.get(2).suspendMs()).isNull();
        assertThat(eps.get(2).minRunning()).isEqualTo(3);
        assertThat(eps.get(3).suspendMs()).isEqualTo(50.0);
    }

    @Test
    void aCollectionAlreadyRunningWhenTheWindowStartsIsNotAnEpisode() {
        List<TimelinePoint> tl = List.of(collector(0, 1), chart(0, 40), chart(0.5, 1), collector(2, 0));
        assertThat(Suspension.episodes(tl, "collector", "chart", 1)).isEmpty();
    }

    @Test
    void onlyVersionsRunByTheAgentCanBeObserved() {
        assertThat(Suspension.resolve(List.of("admission", "qosweaver"))).hasSize(2);
        assertThatThrownBy(() -> Suspension.resolve(List.of("original")))
                .hasMessageContaining("version 'original' runs without the QoSWeaver agent");
        assertThatThrownBy(() -> Suspension.resolve(List.of("jetty-qos"))).hasMessageContaining("jetty-qos");
    }

    @Test
    void resultsHaveTheIssuesFieldsAndTheReportItsPlots(@TempDir Path dir) throws Exception {
        var s = TestResults.scenario("qosweaver", 1000, new long[] {300, 320}, 0.002);
        var withTimeline = new io.qosweaver.bench.app.ScenarioResult(s.version(), s.scenario(), s.periodS(),
                s.rivers(), s.chartClients(), s.levelsClients(), s.chartHours(), s.windowStartMs(), s.windowSeconds(),
                s.collectionCount(), s.missedCount(), s.deadlineMissRatio(), s.collectionTimeMeanMs(),
                s.collectionTimeMaxMs(), s.collectionTimeStddevMs(), s.collectionTimeP50Ms(), s.chartThroughputPerS(),
                s.chartP50Ms(), s.chartP99Ms(), s.chartErrors(), s.levelsThroughputPerS(), s.levelsP50Ms(),
                s.levelsP99Ms(), s.suspensionTimeP50Ms(), s.suspensionTimeP99Ms(), s.suspensionTimeMaxMs(),
                s.suspensionTimeMeanMs(), s.suspensionCount(), s.collections(), s.load(), s.loadTimeSeries(),
                s.runningChartThreads(), s.appCpuS(), s.appCpuMsPerChart(),
                List.of(chart(0, 40), collector(1, 1), chart(1.01, 1), collector(1.3, 0), chart(1.3, 40),
                        collector(2, 1), chart(2.03, 1), collector(2.3, 0)), List.of(), s.threadCpu());
        SuspensionResult.VersionResult v = Suspension.versionResult(Versions.get("qosweaver"), withTimeline, 1,
                dir.resolve("app.log"), null);
        assertThat(v.episodes()).isEqualTo(2);
        assertThat(v.suspensionTimeMeanMs()).isEqualTo(20.0);
        assertThat(v.suspensionTimeP99Ms()).isEqualTo(30.0);
        assertThat(v.schedulerSuspensionTimeMeanMs()).isEqualTo(s.suspensionTimeMeanMs());
        SuspensionResult r = new SuspensionResult("suspension", "now", "cmd", true, Map.of("period_s", 1.0),
                Map.of("nproc", 2), List.of("qosweaver"), Map.of("qosweaver", v),
                Suspension.summary(Map.of("qosweaver", v), 1), Map.of());
        JsonWriter.write(r, dir.resolve("results.json"));
        SuspensionReport.write(dir, r);
        JsonNode j = JsonWriter.MAPPER.readTree(dir.resolve("results.json").toFile());
        for (String f : DeadlineTest.FIELDS) {
            assertThat(j.get("versions").get("qosweaver").has(f)).as(f).isTrue();
        }
        assertThat(r.summary().get(0)).contains("qosweaver: 2 collections", "after 20.00 ms on average");
        assertThat(dir.resolve("running-qosweaver.png")).isRegularFile();
        assertThat(Files.readString(dir.resolve("RESULTS.md"))).contains("| qosweaver | 2 | 20.00 |");
        assertThat(Files.readString(dir.resolve("index.html"))).contains("data:image/png;base64,", "Fig. 16");
    }
}
