package io.qosweaver.bench.deadlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.qosweaver.bench.app.CollectionRecord;
import io.qosweaver.bench.app.RunResult;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.report.JsonWriter;
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

/** The deadlock rule, the thread-dump evidence and the aggregation, without processes. */
class DeadlockTest {

    private static CollectionRecord done(long start, long duration) {
        return new CollectionRecord(start, duration, 100, null, 1000L);
    }

    @Test
    void aDeadlockIsNoCollectionEndingForThePeriodsWhileAThreadIsSuspended() {
        DeadlockWatch.Detector d = new DeadlockWatch.Detector(0, 1000, 3);
        assertThat(d.observe(2_000, List.of(), 5)).isFalse(); // not yet 3 periods since the start
        assertThat(d.observe(3_500, List.of(), 0)).isFalse(); // stalled, but nobody suspended
        assertThat(d.observe(3_500, List.of(), null)).isFalse(); // no agent: never called a deadlock
        assertThat(d.observe(3_500, null, 5)).isTrue(); // the app did not answer: the last end still counts
        List<CollectionRecord> cs = List.of(done(1_000, 400), done(2_000, 1_500), new CollectionRecord(4_000, null,
                null, null, 1000L));
        DeadlockWatch.Detector e = new DeadlockWatch.Detector(0, 1000, 3);
        assertThat(e.observe(6_400, cs, 39)).isFalse(); // the last one ended at 3.5 s: 2.9 s ago
        assertThat(e.observe(6_600, cs, 39)).isTrue();
        assertThat(e.lastEndMs()).isEqualTo(3_500);
        assertThat(e.completed()).containsExactly(400L, 1_500L);
        assertThat(e.missed()).isEqualTo(1);
        // a poll that saw fewer collections (an error page) does not forget the ones seen before
        assertThat(e.observe(6_700, List.of(), 39)).isTrue();
        assertThat(e.completed()).hasSize(2);
    }

    @Test
    void theEvidenceNamesTheBlockedCollectorAndTheLoggersHolder() {
        String dump = String.join("\n",
                "2026-11-25 09:00:00",
                "Full thread dump OpenJDK 64-Bit Server VM:",
                "",
                "\"collector-timer\" #30 daemon prio=5 os_prio=0 cpu=1.00ms elapsed=40s tid=0x1 nid=0x2 waiting for monitor entry",
                "   java.lang.Thread.State: BLOCKED (on object monitor)",
                "\tat org.rivermonitor.log.SyncLog.writeCollection(SyncLog.java:56)",
                "\t- waiting to lock <0x0000000693edf550> (a org.rivermonitor.log.SyncLog)",
                "\tat org.rivermonitor.collector.Collector.collect(Collector.java:76)",
                "",
                "\"qtp-48\" #48 prio=5 os_prio=0 cpu=1.00ms elapsed=40s tid=0x3 nid=0x4 waiting on condition",
                "   java.lang.Thread.State: TIMED_WAITING (parking)",
                "\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)",
                "\tat io.qosweaver.scheduler.core.Controller.await(Controller.java:179)",
                "\tat org.rivermonitor.log.SyncLog.formatGeneration(SyncLog.java:70)",
                "\tat org.rivermonitor.log.SyncLog.writeGeneration(SyncLog.java:62)",
                "\t- locked <0x0000000693edf550> (a org.rivermonitor.log.SyncLog)",
                "",
                "\"qtp-49\" #49 prio=5 waiting for monitor entry",
                "   java.lang.Thread.State: BLOCKED (on object monitor)",
                "\t- waiting to lock <0x0000000693edf550> (a org.rivermonitor.log.SyncLog)",
                "");
        List<String> ev = DeadlockWatch.evidence(dump);
        assertThat(ev).hasSize(2);
        assertThat(ev.get(0)).startsWith("collector thread: java.lang.Thread.State: BLOCKED")
                .contains("SyncLog.writeCollection");
        assertThat(ev.get(1)).startsWith("holds the logger's monitor: qtp-48, parked by the scheduler")
                .contains("Controller.await");
        assertThat(DeadlockWatch.evidence(null)).isEmpty();
        // a holder queued for the scheduler's own lock (seen once with deadlock-aware: a convoy, not a park)
        String convoy = dump.replace("\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)\n",
                "\tat java.util.concurrent.locks.ReentrantLock.lock(java.base@17.0.15/ReentrantLock.java:322)\n");
        List<String> cv = DeadlockWatch.evidence(convoy);
        assertThat(cv.get(1)).startsWith("holds the logger's monitor: qtp-48, waits for the scheduler's lock");
        assertThat(cv.get(2)).startsWith("1 thread(s) queued for the scheduler's lock");
    }

    @Test
    void theShareOfCollectionTimeWithMoreThanTheLimitRunning() {
        List<ScenarioResult.TimelinePoint> t = List.of(
                new ScenarioResult.TimelinePoint(0, "chart", 40, 0, 40),
                new ScenarioResult.TimelinePoint(1, "collector", 1, 0, 1), // collection from 1 s to 3 s
                new ScenarioResult.TimelinePoint(1.5, "chart", 40, 39, 1),
                new ScenarioResult.TimelinePoint(2.5, "chart", 40, 20, 20), // threads ran on
                new ScenarioResult.TimelinePoint(3, "collector", 0, 0, 0),
                new ScenarioResult.TimelinePoint(4, "chart", 40, 0, 40));
        // over the limit 1.0-1.5 s (40 running) and 2.5-3 s (20): 1 s of 2
        assertThat(Deadlock.overLimitShare(t, 1)).isEqualTo(0.5);
        assertThat(Deadlock.overLimitShare(List.of(), 1)).isNull();
    }

    @Test
    void versionsAreDataAndUnknownNamesAreListed() {
        assertThat(DeadlockVersions.DEFAULT).containsExactly("importance", "deadlock-aware", "importance-no-log",
                "original", "admission", "java-priority", "linux-priority", "jetty-qos", "concurrency-limits");
        List<DeadlockVersions.Version> vs = DeadlockVersions.resolve(DeadlockVersions.DEFAULT);
        assertThat(vs).filteredOn(v -> !v.syncLog()).extracting(DeadlockVersions.Version::name)
                .containsExactly("importance-no-log");
        assertThat(vs.get(0).run()).isEqualTo(vs.get(2).run()); // the baseline differs by the logger only
        assertThat(vs.get(1).run().policy()).isEqualTo("examples/policies/deadlock/deadlock-aware.yaml");
        assertThat(vs.get(7).run().usesPeer()).isTrue();
        assertThatThrownBy(() -> DeadlockVersions.resolve(List.of("importance", "qosweaver")))
                .hasMessageContaining("unknown version 'qosweaver'").hasMessageContaining("importance-no-log");
        assertThatThrownBy(() -> DeadlockVersions.resolve(List.of("original", "original")))
                .hasMessageContaining("named twice");
    }

    /**
     * The logger's policies weave what the river monitor's generated policy weaves, plus the
     * logger's control point (and, for deadlock-aware, the progress points): rerun
     * examples/policies/regenerate.sh and this says to copy the control points again.
     */
    @Test
    void theLoggersPoliciesKeepTheGeneratedControlPoints() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        List<String> generated = controlPoints(root.resolve("examples/policies/river-monitor.yaml"));
        assertThat(generated).isNotEmpty();
        for (String f : List.of("importance", "deadlock-aware")) {
            Path p = root.resolve("examples/policies/deadlock/" + f + ".yaml");
            List<String> cps = controlPoints(p);
            assertThat(cps.subList(0, cps.size() - 1)).as(p + ": copy the control points of river-monitor.yaml")
                    .isEqualTo(generated);
            assertThat(cps.get(cps.size() - 1)).contains("withincode(java.lang.String "
                    + "org.rivermonitor.log.SyncLog.formatGeneration(long, int, int, int))");
        }
        String da = Files.readString(root.resolve("examples/policies/deadlock/deadlock-aware.yaml"));
        assertThat(da).contains("progressPoints:").contains("name: deadlock-aware").contains("timeout: 200ms");
    }

    private static List<String> controlPoints(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String l : Files.readAllLines(file)) {
            if (l.startsWith("controlPoints:")) {
                in = true;
            } else if (!l.startsWith(" ") && !l.startsWith("#") && !l.isBlank()) {
                in = false;
            } else if (in && l.strip().startsWith("- ")) {
                out.add(l.strip());
            }
        }
        return out;
    }

    @Test
    void aRunOfFiveVersionsThroughAFakeRunner(@TempDir Path dir) throws Exception {
        List<String> names = List.of("importance", "deadlock-aware", "importance-no-log", "original", "admission");
        Deadlock.AppRunner fake = (v, log) -> switch (v.name()) {
            case "importance" -> new Deadlock.Outcome(null, new DeadlockWatch.Detection(5_000, 42.5, 3_000,
                    List.of(300L, 400L, 3_500L), 1, 39, List.of("collector thread: BLOCKED"), "dump.txt"), null, 0L,
                    0L, 0L);
            case "deadlock-aware" -> ok(v.name(), log, new long[] {900, 1_100, 1_000}, 40L, new DeadlockWatch.EndCheck(
                    0, false, 0.01, 6));
            case "importance-no-log" -> ok(v.name(), log, new long[] {300, 250, 350}, 0L,
                    new DeadlockWatch.EndCheck(0, false, 0.0, 6));
            case "original" -> ok(v.name(), log, new long[] {3_500, 4_000, 3_000}, null,
                    new DeadlockWatch.EndCheck(null, null, 0, 6));
            default -> throw new IOException("the agent stopped the app");
        };
        List<String> lines = new ArrayList<>();
        DeadlockResult r = Deadlock.run(DeadlockVersions.resolve(names), true, new LinkedHashMap<>(Map.of("period_s", 1)),
                Map.of("nproc", 2), dir, "./qosweaver bench deadlock --quick", lines::add, fake);

        assertThat(r.order()).isEqualTo(names);
        DeadlockResult.VersionResult imp = r.versions().get("importance");
        assertThat(imp.deadlocked()).isTrue();
        assertThat(imp.deadlockDetectedAtS()).isEqualTo(42.5);
        assertThat(imp.collectionsBeforeDeadlock()).isEqualTo(3);
        assertThat(imp.missedCount()).isEqualTo(1);
        assertThat(imp.collectionTimeMeanMs()).isEqualTo(1_400.0);
        assertThat(imp.chartThroughputPerS()).isNull();
        assertThat(imp.permanentSuspension()).isTrue();
        DeadlockResult.VersionResult da = r.versions().get("deadlock-aware");
        assertThat(da.deadlocked()).isFalse();
        assertThat(da.permanentSuspension()).isFalse();
        assertThat(da.runOnEpisodes()).isEqualTo(40L);
        assertThat(da.collectionTimeMeanMs()).isEqualTo(1_000.0);
        assertThat(da.collectionTimeDeltaMs()).isEqualTo(700.0); // against importance-no-log's 300 ms
        assertThat(da.chartThroughputChangePct()).isEqualTo(0.0);
        assertThat(r.versions().get("original").permanentSuspension()).isNull(); // no agent: not measured
        assertThat(r.versions().get("admission").error()).isEqualTo("the agent stopped the app");
        assertThat(r.errors()).containsOnlyKeys("admission");

        assertThat(r.goals()).extracting(DeadlockResult.Goal::met).containsExactly(true, true, false);
        assertThat(r.goals().get(2).detail()).contains("+700 ms");
        assertThat(r.summary().get(0)).startsWith("Deadlocked: importance (detected 42.50 s after start");
        assertThat(r.summary()).anyMatch(s -> s.startsWith("admission: FAILED"));
        assertThat(r.paper()).extracting(DeadlockResult.PaperRow::paper).contains("-20 %", "+25 % (+1.0 s)");
        assertThat(r.paper().get(3).ours()).contains("1000 ms").contains("+700 ms");

        JsonNode j = JsonWriter.MAPPER.readTree(dir.resolve("results.json").toFile());
        assertThat(j.get("experiment").asText()).isEqualTo("deadlock");
        for (String f : List.of("deadlocked", "deadlock_detected_at_s", "permanent_suspension", "collection_count",
                "collection_time_mean_ms", "collection_time_max_ms", "deadline_miss_ratio", "chart_throughput_per_s",
                "chart_p50_ms", "chart_p99_ms", "chart_mean_ms", "run_on_episodes", "collection_time_delta_ms",
                "chart_throughput_change_pct", "deadlock_evidence", "app_log", "error", "detail")) {
            assertThat(j.get("versions").get("deadlock-aware").has(f)).as(f).isTrue();
        }
        assertThat(j.get("goals").get(0).get("met").asBoolean()).isTrue();
        assertThat(dir.resolve(Deadlock.PARTIAL_RESULTS)).doesNotExist();

        DeadlockReport.write(dir, r);
        String md = Files.readString(dir.resolve("RESULTS.md"));
        assertThat(md).contains("The paper's figures beside ours").contains("YES, at 42.50 s")
                .contains("collector thread: BLOCKED").contains("NO");
        assertThat(dir.resolve("index.html")).isNotEmptyFile();
        assertThat(dir.resolve("collections.png")).isNotEmptyFile();
    }

    private static Deadlock.Outcome ok(String name, Path log, long[] durations, Long runOns, DeadlockWatch.EndCheck end) {
        return new Deadlock.Outcome(new RunResult(name, null, TestResults.scenario(name, 1000, durations, null),
                log.toString()), null, end, runOns, 100L, 0L);
    }

    @Test
    void theEndCheckLimitIsTwoPeriodsAndAtLeastFiveSeconds() {
        assertThat(Deadlock.endLimitS(3)).isEqualTo(6);
        assertThat(Deadlock.endLimitS(15)).isEqualTo(30);
        assertThat(Deadlock.endLimitS(1)).isEqualTo(5);
    }
}
