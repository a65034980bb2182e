package io.qosweaver.bench.deadline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.CatchUp;
import io.qosweaver.bench.app.RunResult;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.testing.TestResults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The deadline experiment's orchestration, aggregation, JSON and report, with made-up runs. */
public class DeadlineTest {

    public static final List<String> FIELDS = List.of("deadline_miss_ratio", "collection_time_mean_ms",
            "collection_time_max_ms", "collection_time_stddev_ms", "chart_throughput_per_s", "chart_p50_ms",
            "chart_p99_ms", "suspension_time_mean_ms", "suspension_time_p99_ms");

    @Test
    void theSummaryNamesTheWindowsThatBeganWithTheCollectorBehindItsSchedule(@TempDir Path dir) throws Exception {
        Deadline.WindowRunner fake = (v, h, log) -> new RunResult(v.name(), null, TestResults.scenario(v.name(), 1000,
                new long[] {300, 320}, null, 280.0, 0, v.name().equals("original") && h == 3
                        ? List.of(CatchUp.BEHIND_AT_WINDOW_START + " 5200 ms behind its schedule when the window"
                                + " began (its lateness stopped falling, after 15 s)")
                        : List.of("catch-up: the window began once the collector was back on its schedule, after 8 s")),
                log.toString());
        DeadlineResult r = Deadline.run(Versions.resolve(List.of("original", "qosweaver")), List.of(12, 3), true,
                new LinkedHashMap<>(Map.of("period_s", 1.0)), Map.of("nproc", 2), dir, "x", Progress.NONE, fake);
        String behind = r.summary().stream().filter(x -> x.startsWith("Windows that began")).findFirst().orElseThrow();
        // only the window whose collector never caught up; one that caught up in the wait is not named
        assertThat(behind).endsWith(": original (3 h).");
        assertThat(Deadline.behindSchedule(Map.of())).isEmpty();
    }

    @Test
    void theSummaryNamesTheWindowsWhoseChartTailIsAtTheirStart(@TempDir Path dir) throws Exception {
        // the window is 10 s: its start is the first 0.5 s; 100 charts, so the 3 slowest count
        Deadline.WindowRunner fake = (v, h, log) -> new RunResult(v.name(), null, TestResults.scenario(v.name(), 1000,
                new long[] {300, 320}, null, 280.0, 0, List.of(), v.name().equals("qosweaver") && h == 12
                        ? new double[] {0.1, 0.3, 6.0, 0.2} : new double[] {0.1, 6.0, 7.0, 0.2}), log.toString());
        DeadlineResult r = Deadline.run(Versions.resolve(List.of("original", "qosweaver")), List.of(12, 3), true,
                new LinkedHashMap<>(Map.of("period_s", 1.0)), Map.of("nproc", 2), dir, "x", Progress.NONE, fake);
        String atStart = r.summary().stream().filter(x -> x.startsWith("Windows whose chart tail is at their start"))
                .findFirst().orElseThrow();
        assertThat(atStart).endsWith(": qosweaver (12 h).");
        assertThat(Deadline.tailAtStart(Map.of())).isEmpty();
    }

    @Test
    void theVersionOrderRotatesPerWindow() {
        List<String> v = List.of("a", "b", "c");
        assertThat(Versions.rotated(v, 0)).containsExactly("a", "b", "c");
        assertThat(Versions.rotated(v, 1)).containsExactly("b", "c", "a");
        assertThat(Versions.rotated(v, 2)).containsExactly("c", "a", "b");
        assertThat(Versions.rotated(v, 3)).containsExactly("a", "b", "c");
    }

    @Test
    void everyWindowRunsEveryVersionAndResultsHaveTheIssuesStructure(@TempDir Path dir) throws Exception {
        List<String> calls = new ArrayList<>();
        List<String> partialAt3h = new ArrayList<>();
        Deadline.WindowRunner fake = (v, h, log) -> {
            calls.add(h + ":" + v.name());
            if (h == 3 && partialAt3h.isEmpty()) {
                Path partial = dir.resolve(Deadline.PARTIAL_RESULTS);
                partialAt3h.add(Files.isRegularFile(partial) ? Files.readString(partial) : "(none)");
            }
            return switch (v.name()) {
                case "original" -> new RunResult(v.name(), null,
                        TestResults.scenario(v.name(), 1000, new long[] {1500, 900, 1200, 800}, null), log.toString());
                case "qosweaver" -> new RunResult(v.name(), null,
                        TestResults.scenario(v.name(), 1000, new long[] {300, 320, 310, 305}, 0.002), log.toString());
                case "java-priority" -> new RunResult(v.name(), null,
                        TestResults.scenario(v.name(), 1000, new long[] {1100, 700, 900, 600}, null), log.toString(),
                        Map.of("mechanism", "java", "effective", false, "reason", "ThreadPriorityPolicy=0"));
                case "linux-priority" -> new RunResult(v.name(), null,
                        TestResults.scenario(v.name(), 1000, new long[] {200, 250, 220, 240}, null), log.toString());
                default -> throw new IOException("the agent refused to start");
            };
        };
        List<Versions.Version> vs = Versions.resolve(List.of("original", "admission", "java-priority",
                "linux-priority", "qosweaver"));
        DeadlineResult r = Deadline.run(vs, List.of(12, 3), true, new LinkedHashMap<>(Map.of("period_s", 1.0)),
                Map.of("nproc", 2), dir, "./qosweaver bench deadline --quick", Progress.NONE, fake);
        io.qosweaver.bench.deadline.DeadlineReport.write(dir, r);

        assertThat(calls).containsExactly(
                "12:original", "12:admission", "12:java-priority", "12:linux-priority", "12:qosweaver",
                "3:admission", "3:java-priority", "3:linux-priority", "3:qosweaver", "3:original");
        assertThat(r.complete()).isFalse();
        assertThat(r.errors()).containsOnlyKeys("admission@12h", "admission@3h");
        // the first window's results were on disk before the second began, and are gone at the end
        JsonNode partial = JsonWriter.MAPPER.readTree(partialAt3h.get(0));
        assertThat(partial.get("versions").get("qosweaver").get("by_hours").has("12")).isTrue();
        assertThat(partial.get("versions").get("qosweaver").get("by_hours").has("3")).isFalse();
        assertThat(partial.get("errors").has("admission@12h")).isTrue();
        assertThat(dir.resolve(Deadline.PARTIAL_RESULTS)).doesNotExist();

        JsonNode j = JsonWriter.MAPPER.readTree(dir.resolve("results.json").toFile());
        assertThat(j.get("experiment").asText()).isEqualTo("deadline");
        assertThat(j.has("parameters")).isTrue();
        assertThat(j.get("machine").get("nproc").asInt()).isEqualTo(2);
        assertThat(j.get("order")).hasSize(2);
        JsonNode versions = j.get("versions");
        for (String v : List.of("original", "admission", "java-priority", "linux-priority", "qosweaver")) {
            JsonNode vn = versions.get(v);
            assertThat(vn).as(v).isNotNull();
            for (String f : FIELDS) {
                assertThat(vn.has(f)).as(v + "." + f).isTrue();
            }
            assertThat(vn.has("mechanism_effective")).isTrue();
            assertThat(vn.get("mechanism_reason").asText()).isNotBlank();
            assertThat(vn.get("by_hours").has("12")).isTrue();
            assertThat(vn.get("by_hours").has("3")).isTrue();
            assertThat(vn.get("ratio_to_original").has("collection_time_mean_ms")).isTrue();
        }
        JsonNode q = versions.get("qosweaver");
        for (String f : FIELDS) {
            assertThat(q.get("by_hours").get("3").has(f)).as("by_hours.3." + f).isTrue();
        }
        // pooled over both windows: 8 collections, none missed; original missed 2 of 4 per window
        assertThat(q.get("collection_count").asInt()).isEqualTo(8);
        assertThat(q.get("deadline_miss_ratio").asDouble()).isZero();
        assertThat(versions.get("original").get("deadline_miss_ratio").asDouble()).isEqualTo(0.5);
        assertThat(versions.get("original").get("by_hours").get("12").get("deadline_miss_ratio").asDouble())
                .isEqualTo(0.5);
        assertThat(q.get("collection_time_mean_ms").asDouble()).isEqualTo(308.75);
        assertThat(q.get("collection_time_max_ms").asDouble()).isEqualTo(320);
        assertThat(q.get("ratio_to_original").get("collection_time_mean_ms").asDouble())
                .isEqualTo(Math.round(308.75 / 1100 * 10000) / 10000.0);
        assertThat(q.get("suspension_time_mean_ms").asDouble()).isEqualTo(5.0);
        assertThat(versions.get("original").get("suspension_time_mean_ms").isNull()).isTrue();

        // mechanisms: reported, never silent
        assertThat(versions.get("java-priority").get("mechanism_effective").asBoolean()).isFalse();
        assertThat(versions.get("java-priority").get("mechanism_reason").asText()).contains("ThreadPriorityPolicy=0");
        assertThat(versions.get("linux-priority").get("mechanism_effective").asBoolean()).isFalse();
        assertThat(versions.get("linux-priority").get("mechanism_reason").asText())
                .contains("no qosweaver_priority_effective gauge");
        assertThat(versions.get("original").get("mechanism_effective").isNull()).isTrue();
        assertThat(versions.get("admission").get("by_hours").get("3").get("error").asText())
                .contains("refused to start");

        // the generated text: who misses, where a peer beats qosweaver, which mechanism failed
        String summary = String.join("\n", r.summary());
        assertThat(summary).contains("Versions that missed deadlines: original", "java-priority");
        assertThat(summary).contains("linux-priority on collection_time_mean_ms");
        assertThat(summary).contains("java-priority could NOT apply its mechanism");

        for (String f : List.of("index.html", "RESULTS.md", "collections-12h.png", "collections-3h.png",
                "collection-time-mean.png", "chart-throughput.png")) {
            assertThat(dir.resolve(f)).as(f).isNotEmptyFile();
        }
        String html = Files.readString(dir.resolve("index.html"));
        assertThat(html).contains("Table 2", "data:image/png;base64,", "What the numbers show", "FAILED runs");
        assertThat(Files.readString(dir.resolve("RESULTS.md"))).contains("| qosweaver | 0.000 (0/4) | 0.000 (0/4) |");
        // the app's CPU by thread group: mean over the window and the largest second, per version and window
        assertThat(Files.readString(dir.resolve("RESULTS.md"))).contains("The app's CPU by thread group")
                .contains("| qosweaver | 3 h | 1.20 (1.40) | 0.30 (0.60) |");
        assertThat(q.get("by_hours").get("3").get("detail").get("thread_cpu").get(1).get("per_second").get(0)
                .asDouble()).isEqualTo(0.6);
    }

    /** Latencies count served requests only: a version that refused requests says so where it looks better. */
    @Test
    void aPeerThatLooksFasterByRefusingRequestsIsNamedAsSuch(@TempDir Path dir) throws Exception {
        Deadline.WindowRunner fake = (v, h, log) -> new RunResult(v.name(), null, switch (v.name()) {
            case "concurrency-limits" -> TestResults.scenario(v.name(), 1000, new long[] {300, 300}, null, 50.0, 7_000);
            case "jetty-qos" -> TestResults.scenario(v.name(), 1000, new long[] {300, 300}, null, 100.0, 0);
            default -> TestResults.scenario(v.name(), 1000, new long[] {300, 300}, 0.002);
        }, log.toString());
        DeadlineResult r = Deadline.run(Versions.resolve(List.of("original", "qosweaver", "concurrency-limits",
                "jetty-qos")), List.of(3), true, new LinkedHashMap<>(), Map.of(), dir, "test", Progress.NONE, fake);
        String summary = String.join("\n", r.summary());
        assertThat(summary).contains("concurrency-limits on chart_p50_ms (50.00 vs 280, having refused or failed 7000 "
                + "chart requests)").contains("jetty-qos on chart_p50_ms (100 vs 280)");
    }

    /** --repeat: every window again per round, each round's figures kept, the spread of the rounds and the leaders. */
    @Test
    void roundsKeepEveryWindowAndGiveTheSpreadAndTheLeaders(@TempDir Path dir) throws Exception {
        List<String> calls = new ArrayList<>();
        int[] n = {0};
        Deadline.WindowRunner fake = (v, h, log) -> {
            calls.add(h + ":" + v.name());
            int round = n[0]++ / 2 + 1;
            // jetty-qos: collections 400 ms in both rounds; qosweaver-capped: 300 then 320 ms
            long d = v.name().equals("jetty-qos") ? 400 : 280 + 20 * round;
            return new RunResult(v.name(), null, TestResults.scenario(v.name(), 1000, new long[] {d, d}, null,
                    v.name().equals("jetty-qos") ? 250.0 : 280.0 - round, 0), log.toString());
        };
        DeadlineResult r = Deadline.run(Versions.resolve(List.of("qosweaver-capped", "jetty-qos")), List.of(3), 2,
                true, new LinkedHashMap<>(), Map.of(), dir, "test", Progress.NONE, fake);
        DeadlineReport.write(dir, r);

        assertThat(calls).containsExactly("3:qosweaver-capped", "3:jetty-qos", "3:jetty-qos", "3:qosweaver-capped");
        DeadlineResult.VersionResult capped = r.versions().get("qosweaver-capped");
        assertThat(capped.byHours()).containsOnlyKeys("3", "3#2");
        assertThat(capped.collectionCount()).as("both rounds pooled").isEqualTo(4);
        assertThat(capped.collectionTimeMeanMs()).isEqualTo(310.0);
        assertThat(capped.spread().get("collection_time_mean_ms")).containsExactly(300.0, 320.0);
        assertThat(r.versions().get("jetty-qos").spread().get("collection_time_mean_ms")).containsExactly(400.0, 400.0);
        String summary = String.join("\n", r.summary());
        assertThat(summary).contains("collection_time_mean_ms: qosweaver-capped (310 against jetty-qos's 400, 22.5 %;"
                + " beyond the spread of the rounds)");
        assertThat(summary).contains("chart_p50_ms: jetty-qos (250 against qosweaver-capped's");
        assertThat(Files.readString(dir.resolve("RESULTS.md"))).contains("3 h #2").contains("Spread over the rounds")
                .contains("300 - 320");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Deadline.run(List.of(), List.of(3), 0, true,
                new LinkedHashMap<>(), Map.of(), dir, "test", Progress.NONE, fake)).hasMessageContaining("repeat");
    }

    /**
     * --processes per-version: one process per version and round runs every window in order, the
     * version order rotates per round, each window is kept under its own key, and a process that
     * fails loses its windows alone.
     */
    @Test
    void perVersionRunsEveryWindowInOneProcessPerVersionAndRound(@TempDir Path dir) throws Exception {
        List<String> calls = new ArrayList<>();
        List<String> partials = new ArrayList<>();
        Deadline.ProcessRunner fake = (v, hs, log) -> {
            calls.add(v.name() + ":" + hs + ":" + log.getFileName());
            Path partial = dir.resolve(Deadline.PARTIAL_RESULTS);
            partials.add(Files.isRegularFile(partial) ? Files.readString(partial) : "(none)");
            if (v.name().equals("jetty-qos") && calls.size() > 2) {
                throw new IOException("the app died during the warm-up");
            }
            List<RunResult> out = new ArrayList<>();
            for (int h : hs) {
                out.add(new RunResult(v.name(), null, TestResults.scenario(v.name(), 1000, new long[] {h * 10L, h * 10L},
                        null, 100.0 + h, 0), log.toString()));
            }
            return out;
        };
        Map<String, Object> params = new LinkedHashMap<>(Map.of("period_s", 1.0, "processes", "per-version"));
        DeadlineResult r = Deadline.run(Versions.resolve(List.of("qosweaver-capped", "jetty-qos")), List.of(12, 3), 2,
                Deadline.Processes.PER_VERSION, true, params, Map.of(), dir, "test", Progress.NONE, fake);

        assertThat(calls).containsExactly("qosweaver-capped:[12, 3]:app-qosweaver-capped-12-3h.log",
                "jetty-qos:[12, 3]:app-jetty-qos-12-3h.log",
                "jetty-qos:[12, 3]:app-jetty-qos-12-3h-2.log",
                "qosweaver-capped:[12, 3]:app-qosweaver-capped-12-3h-2.log");
        DeadlineResult.VersionResult capped = r.versions().get("qosweaver-capped");
        assertThat(capped.byHours()).containsOnlyKeys("12", "3", "12#2", "3#2");
        assertThat(capped.byHours().get("12").detail().collections()).allSatisfy(c ->
                assertThat(c.durationMs()).isEqualTo(120));
        assertThat(capped.byHours().get("3#2").detail().collections()).allSatisfy(c ->
                assertThat(c.durationMs()).isEqualTo(30));
        assertThat(capped.byHours().get("3#2").orderInWindow()).as("second in round 2").isEqualTo(1);
        assertThat(r.errors()).containsOnlyKeys("jetty-qos@12h#2", "jetty-qos@3h#2");
        assertThat(r.versions().get("jetty-qos").byHours().get("3#2").error()).contains("died during the warm-up");
        assertThat(r.versions().get("jetty-qos").byHours().get("12").detail()).isNotNull();
        assertThat(r.order()).as("the round's order once per window").containsExactly(
                List.of("qosweaver-capped", "jetty-qos"), List.of("qosweaver-capped", "jetty-qos"),
                List.of("jetty-qos", "qosweaver-capped"), List.of("jetty-qos", "qosweaver-capped"));
        // every process's windows were on disk before the next process began
        assertThat(partials.get(0)).isEqualTo("(none)");
        JsonNode first = JsonWriter.MAPPER.readTree(partials.get(1));
        assertThat(first.get("versions").get("qosweaver-capped").get("by_hours").has("3")).isTrue();
        assertThat(first.get("versions").get("jetty-qos").get("by_hours").has("12")).isFalse();
        JsonNode partial = JsonWriter.MAPPER.readTree(partials.get(2));
        assertThat(partial.get("versions").get("jetty-qos").get("by_hours").has("3")).isTrue();
        assertThat(partial.get("versions").get("jetty-qos").get("by_hours").has("3#2")).isFalse();
        assertThat(dir.resolve(Deadline.PARTIAL_RESULTS)).doesNotExist();
        assertThat(r.parameters().get("order").toString()).contains("one process per version and round");
    }

    @Test
    void theProcessesOptionNamesItsTwoModes() {
        assertThat(Deadline.Processes.of("per-window")).isEqualTo(Deadline.Processes.PER_WINDOW);
        assertThat(Deadline.Processes.of("per-version")).isEqualTo(Deadline.Processes.PER_VERSION);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Deadline.Processes.of("x"))
                .hasMessage("processes: per-window or per-version, got 'x'");
    }

    /** The summary says how the period compares with the best version's loaded collection time. */
    @Test
    void theSummaryJudgesTheCalibrationFromTheBestCollectionTime(@TempDir Path dir) throws Exception {
        Deadline.WindowRunner fake = (v, h, log) -> new RunResult(v.name(), null, TestResults.scenario(v.name(), 1000,
                v.name().equals("jetty-qos") ? new long[] {400, 400} : new long[] {2000, 2000}, null, 100.0, 0),
                log.toString());
        Map<String, Object> tight = new LinkedHashMap<>(Map.of("period_s", 1.0));
        DeadlineResult r = Deadline.run(Versions.resolve(List.of("original", "jetty-qos")), List.of(3), true,
                tight, Map.of(), dir, "test", Progress.NONE, fake);
        assertThat(r.summary().get(0)).isEqualTo("Calibration: the period (1.00 s) is 2.5x the best mean loaded "
                + "collection (jetty-qos, 400 ms), close enough to twice it for a version slower than the best to "
                + "miss.");
        // a loose period where only the original misses: nothing told apart
        Map<String, Object> loose = new LinkedHashMap<>(Map.of("period_s", 15.0));
        r = Deadline.run(Versions.resolve(List.of("original", "jetty-qos")), List.of(3), true, loose, Map.of(), dir,
                "test", Progress.NONE, fake);
        assertThat(r.summary().get(0)).contains("37.5x the best", "no version besides the original missed",
                "cannot be told");
        // a loose period where another version misses all the same: it does tell them apart
        Deadline.WindowRunner slowAdmission = (v, h, log) -> new RunResult(v.name(), null, TestResults.scenario(
                v.name(), 1000, v.name().equals("jetty-qos") ? new long[] {400, 400} : new long[] {2000, 2000}, null,
                100.0, 0), log.toString());
        r = Deadline.run(Versions.resolve(List.of("original", "admission", "jetty-qos")), List.of(3), true,
                new LinkedHashMap<>(Map.of("period_s", 1.6)), Map.of(), dir, "test", Progress.NONE, slowAdmission);
        assertThat(r.summary().get(0)).contains("4.0x the best", "1 version(s) besides the original missed (admission)",
                "tight enough to tell the versions apart");
    }

    @Test
    void aWindowKeyNamesItsRound() {
        assertThat(Deadline.key(12, 1)).isEqualTo("12");
        assertThat(Deadline.key(12, 3)).isEqualTo("12#3");
        assertThat(Deadline.roundOf("12")).isEqualTo(1);
        assertThat(Deadline.roundOf("12#3")).isEqualTo(3);
        assertThat(DeadlineReport.label("12#3")).isEqualTo("12 h #3");
        assertThat(DeadlineReport.label("24")).isEqualTo("24 h");
    }
}
