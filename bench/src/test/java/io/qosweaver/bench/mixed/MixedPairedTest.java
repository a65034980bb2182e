package io.qosweaver.bench.mixed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.mixed.MixedPairedResult.Run;
import io.qosweaver.bench.mixed.MixedPairedResult.Window;
import io.qosweaver.bench.mixed.MixedResult.Goal;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.run.Versions.Version;
import io.qosweaver.platform.ControlClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Paired windows inside one process: the ratios, the goals, and the switches that make the pairs. */
class MixedPairedTest {
    @TempDir
    Path tmp;

    private static ClassResult cls(String name, double throughput, double p99, long errors) {
        return new ClassResult(name, name.equals("heavy") ? "closed" : "open", 16, name.equals("heavy") ? null : 20.0,
                (long) (throughput * 100), errors, Map.of(), throughput, p99 / 2, 1.0, p99 / 3, p99 / 2, p99, p99,
                p99 * 1.5, 0);
    }

    private static Window window(int pair, String state, double heavy, double lightP99, double cpuMs) {
        return new Window(pair, state, state.equals("on") ? 0 : 300, cls("heavy", heavy, 3000, 0),
                cls("light", 20, lightP99, 0), 1.9, cpuMs, 0.01, 10, 0,
                new SchedCounters(40_000, 2_000, 30_000, 5_000, 900, 1500.0, 250, 3, 2),
                List.of(new io.qosweaver.bench.app.ThreadCpu.Group("qtp", 1.5, List.of(1.5)),
                        new io.qosweaver.bench.app.ThreadCpu.Group(io.qosweaver.bench.app.ThreadCpu.GC,
                                state.equals("on") ? 0.25 : 0.125, List.of(0.25))), 0, 0, null);
    }

    /** Pairs in the harness's order (off-on, on-off, ...), with the heavy rates off and on given per pair. */
    private static Run run(String name, String policy, String peer, double idleP99, double[][] offOn,
            double lightP99On, double lightP99Off) {
        List<Window> ws = new ArrayList<>();
        for (int i = 0; i < offOn.length; i++) {
            Window off = window(i + 1, "off", offOn[i][0], lightP99Off, 200);
            Window on = window(i + 1, "on", offOn[i][1], lightP99On, 200 * offOn[i][0] / offOn[i][1]);
            ws.addAll(i % 2 == 0 ? List.of(off, on) : List.of(on, off));
        }
        return new Run(new Version(name, name, List.of(), policy, peer), List.of(), "installed", "app-" + name
                + ".log.gz", null, ws, cls("light", 20, idleP99, 0), 0.01);
    }

    private static MixedPairedResult of(List<Run> runs) {
        return MixedPairedResult.of("now", "bench mixed --paired", false, 3, Map.of(), Map.of(), Map.of(), Map.of(),
                runs);
    }

    private static Goal goal(MixedPairedResult r, String version, String startsWith) {
        return r.goals().stream().filter(g -> g.version().equals(version) && g.goal().startsWith(startsWith))
                .findFirst().orElseThrow();
    }

    @Test
    void aSlowProcessIsJudgedAgainstItselfNotAgainstAFasterOne() {
        // the QoSWeaver process is a third slower than the peer's in every window, yet keeps 97 % of its own
        // unscheduled throughput where the peer keeps 90 % of its own
        Run q = run("qosweaver", "p.yaml", null, 15, new double[][] {{6.0, 5.9}, {6.2, 6.0}, {5.8, 5.6}}, 25, 150);
        Run peer = run("jetty-qos", null, "peer=jetty-qos", 17, new double[][] {{9.0, 8.1}, {9.2, 8.3}, {9.1, 8.2}},
                200, 160);
        MixedPairedResult r = of(List.of(q, peer));

        assertThat(r.idleP99()).as("median of the two processes' idle p99 (nearest rank: the lower)").isEqualTo(15.0);
        MixedPairedResult.Version v = r.versions().get("qosweaver");
        assertThat(v.heavyOnToOff().values()).containsExactly(0.983, 0.968, 0.966);
        assertThat(v.heavyOnToOff().median()).isEqualTo(0.968);
        assertThat(v.pairs()).extracting(MixedPairedResult.Pair::pair).containsExactly(1, 2, 3);
        assertThat(v.lightP99OnToIdle().median()).isEqualTo(1.667);
        assertThat(v.cpuMsPerHeavyOnToOff().median()).as("the on windows' CPU per heavy grows as throughput falls")
                .isEqualTo(1.033);
        assertThat(goal(r, "qosweaver", "heavy throughput on / off").met()).isTrue();
        assertThat(goal(r, "qosweaver", "light p99 on / the run's idle").met()).isTrue();
        assertThat(goal(r, "qosweaver", "errors in the on windows").met()).isTrue();
        Goal ahead = goal(r, "qosweaver", "light p99 on (ms) ahead of jetty-qos");
        assertThat(ahead.met()).as("25 ms against 200 at 0.968 against the peer's 0.901 of its own process").isTrue();
        assertThat(ahead.target()).isEqualTo("< 200 ms with heavy on / off >= 0.9010 (ours 0.9680)");
        assertThat(r.goals()).as("goals are for QoSWeaver versions only").allMatch(g -> g.version().equals("qosweaver"));
        assertThat(r.summary()).contains("4 of 4 goal checks met.");
    }

    @Test
    void aPairBelowTheGoalIsCountedAndTheMedianDecides() {
        Run q = run("qosweaver", "p.yaml", null, 10, new double[][] {{6.0, 5.0}, {6.0, 5.9}, {6.0, 6.0}}, 30, 150);
        Run peer = run("jetty-qos", null, "peer=jetty-qos", 10, new double[][] {{6.0, 6.0}, {6.0, 6.0}, {6.0, 6.0}},
                200, 160);
        MixedPairedResult r = of(List.of(q, peer));
        assertThat(goal(r, "qosweaver", "heavy throughput on / off").met()).as("median 0.983").isTrue();
        assertThat(r.pairGoals()).filteredOn(g -> g.goal().equals("heavy throughput on / off")).singleElement()
                .satisfies(g -> assertThat(g.metPairs() + " of " + g.measuredPairs()).isEqualTo("2 of 3"));
        assertThat(goal(r, "qosweaver", "light p99 on / the run's idle").met()).as("30 ms against 10: 3x").isFalse();
        assertThat(goal(r, "qosweaver", "light p99 on (ms) ahead of jetty-qos").met())
                .as("0.983 against the peer's 1.0").isFalse();
        assertThat(r.summary()).contains("qosweaver: heavy throughput on / off >= 0.95 met in 2 of 3 pairs");
    }

    @Test
    void errorsInAnOnWindowFailTheGoalAndAFailedProcessIsSaidAsSuch() throws IOException {
        Run q = run("qosweaver", "p.yaml", null, 10, new double[][] {{6.0, 6.0}}, 12, 150);
        List<Window> ws = new ArrayList<>(q.windows());
        Window on = ws.get(1);
        ws.set(1, new Window(on.pair(), on.state(), on.switchMs(), cls("heavy", 6.0, 3000, 2), on.light(),
                on.serverCpuCores(), on.cpuMsPerHeavy(), on.otherCpuCores(), on.heavyNice(), on.lightNice(), on.sched(),
                on.threadCpu(), on.startMs(), on.endMs(), null));
        q = new Run(q.version(), q.flags(), q.installLine(), q.appLog(), null, ws, q.idleLight(), 0.01);
        Run failed = new Run(new Version("qosweaver-generated", "g", List.of(), "g.yaml", null), List.of(), null,
                "app-qosweaver-generated.log.gz", "the agent refused 'unweave': busy", List.of(), null, null);
        MixedPairedResult r = of(List.of(q, failed));
        assertThat(goal(r, "qosweaver", "errors in the on windows").met()).isFalse();
        assertThat(goal(r, "qosweaver-generated", "heavy throughput on / off").met()).as("nothing measured").isNull();
        assertThat(r.summary()).contains("qosweaver-generated: FAILED: the agent refused 'unweave': busy");

        // the results and the report are written, and read back as JSON
        JsonWriter.write(r, tmp.resolve("results.json"));
        MixedPairedReport.write(r, tmp);
        assertThat(JsonWriter.MAPPER.readTree(tmp.resolve("results.json").toFile()).path("versions").path("qosweaver")
                .path("windows").size()).isEqualTo(2);
        assertThat(Files.readString(tmp.resolve("RESULTS.md"))).contains("| qosweaver | 1 | on | 0.00 | 6.00 | 2 |")
                .as("the kernel's counters per heavy request: 600 requests, 35,000 switches, 900 migrations, 1.5 s waiting")
                .contains("| 0.0480 | 58.30 (50.00 / 8.30) | 1.50 | 2.50 | 250 (3 / 2) |")
                .as("the server's GC cores per window, from its CPU by thread group")
                .contains("| 250 (3 / 2) | 0.01 | 0.25 |").contains("| 250 (3 / 2) | 0.01 | 0.13 |");
        assertThat(JsonWriter.MAPPER.readTree(tmp.resolve("results.json").toFile()).path("versions").path("qosweaver")
                .path("windows").get(0).path("thread_cpu").get(1).path("name").asText()).isEqualTo("gc");
    }

    @Test
    void everyWindowsLightTailIsMatchedToThePausesOfTheProcesssLogAndTheSummarySaysHowMuchOfItTheyExplain()
            throws IOException {
        long t0 = java.time.Instant.parse("2026-12-01T10:00:00Z").toEpochMilli();
        Path log = tmp.resolve("app.log");
        // two pauses of 6 ms in the first window (10:00:00-10:00:10), none in the second (10:00:20-10:00:30)
        Files.writeString(log, String.join("\n",
                "out: [2026-12-01T10:00:01.006+0000][1.0s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 900M->90M(2048M) 6.000ms",
                "out: [2026-12-01T10:00:05.006+0000][5.0s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 900M->90M(2048M) 6.000ms",
                "err: [qosweaver] agent started", ""));
        List<ClassResult.Slow> first = List.of(new ClassResult.Slow(t0 + 998, 12), new ClassResult.Slow(t0 + 3000, 9),
                new ClassResult.Slow(t0 + 5002, 10), new ClassResult.Slow(t0 + 7000, 2));
        List<ClassResult.Slow> second = List.of(new ClassResult.Slow(t0 + 21_000, 9),
                new ClassResult.Slow(t0 + 25_000, 9));
        Window on = withLight(window(1, "on", 6, 9, 200), first, t0, t0 + 10_000);
        Window off = withLight(window(1, "off", 6, 9, 200), second, t0 + 20_000, t0 + 30_000);

        List<Window> matched = MixedPaired.withLightTailGc(List.of(on, off), log);
        assertThat(matched.get(0).lightTailGc()).containsEntry("tail_requests", 3)
                .as("the requests at 0.998 s and 5.002 s ran through a pause, the one at 3 s did not")
                .containsEntry("tail_with_gc_pause", 2).containsEntry("window_gc_pauses", 2)
                .containsEntry("window_gc_pauses_per_s", 0.2).containsEntry("window_gc_pause_mean_ms", 6.0);
        assertThat(matched.get(1).lightTailGc()).containsEntry("tail_with_gc_pause", 0)
                .containsEntry("window_gc_pauses", 0).containsEntry("window_gc_pause_mean_ms", null);
        assertThat(MixedPairedResult.gcTail(matched, "on")).isEqualTo("2 of 3 requests at or above their window's "
                + "p99 overlapped a stop-the-world GC pause (0.20 pauses/s, 6.00 ms mean)");

        Run q = new Run(new Version("qosweaver", "q", List.of(), "p.yaml", null), List.of(), "installed",
                "app.log.gz", null, matched, cls("light", 20, 5, 0), 0.01);
        MixedPairedResult r = of(List.of(q));
        assertThat(r.summary()).anyMatch(l -> l.startsWith("qosweaver: light tail on: 2 of 3 requests")
                && l.contains("; off: 0 of 2 requests"));
        MixedPairedReport.write(r, tmp);
        assertThat(Files.readString(tmp.resolve("RESULTS.md"))).contains("| 2 of 3 | 0.20 | 6.00 |");

        assertThat(MixedPaired.withLightTailGc(matched, tmp.resolve("no-such.log"))).as("no log: as they were")
                .isSameAs(matched);
    }

    /** The window with these slowest light requests (p99 9 ms) and this measured span. */
    private static Window withLight(Window w, List<ClassResult.Slow> slowest, long startMs, long endMs) {
        ClassResult l = w.light();
        ClassResult light = new ClassResult(l.name(), l.mode(), l.clients(), l.targetRatePerS(), l.requests(),
                l.errors(), l.errorKinds(), l.throughputPerS(), l.meanMs(), l.stddevMs(), l.p50Ms(), l.p90Ms(), 9.0,
                l.p999Ms(), l.maxMs(), l.issuedBeforeWindow(), slowest);
        return new Window(w.pair(), w.state(), w.switchMs(), w.heavy(), light, w.serverCpuCores(), w.cpuMsPerHeavy(),
                w.otherCpuCores(), w.heavyNice(), w.lightNice(), w.sched(), w.threadCpu(), startMs, endMs, null);
    }

    @Test
    void pairsAlternateTheirOrderSoThatNeitherStateAlwaysComesLater() {
        assertThat(MixedPaired.order(0)).containsExactly(false, true);
        assertThat(MixedPaired.order(1)).containsExactly(true, false);
        assertThat(MixedPaired.order(2)).containsExactly(false, true);
    }

    @Test
    void aProcessSettlesUnderTheFullLoadForFourWarmUpsAndAtLeastAMinuteBeforeItsFirstPair() {
        assertThat(MixedPaired.settleSeconds(MixedParams.quick())).isEqualTo(60);
        assertThat(MixedPaired.settleSeconds(MixedParams.full())).isEqualTo(120);
        // start-up 20, warm-up 30, settling 120, 2 pairs of (30 + 120 + 3) x 2, 10 s more after each of the 3
        // switches, idle 30 after 5 s of the light stream alone, 4
        assertThat(MixedPaired.secondsPerVersion(MixedParams.full(), 2))
                .isEqualTo(20 + 30 + 120 + 4 * 153 + 3 * 10 + 30 + 5 + 4);
        // 3 pairs end switched on: the idle window waits 40 s after the switch off
        assertThat(MixedPaired.secondsPerVersion(MixedParams.full(), 3))
                .isEqualTo(20 + 30 + 120 + 6 * 153 + 4 * 10 + 30 + 40 + 4);
    }

    @Test
    void theIdleWindowAfterASwitchOffWaitsPastTheCompilerBoostWithTheLightStreamAlone() {
        // off on | on off | off on: an odd number of pairs ends switched on
        assertThat(MixedPaired.idleFollowsSwitch(1)).isTrue();
        assertThat(MixedPaired.idleFollowsSwitch(2)).isFalse();
        assertThat(MixedPaired.idleFollowsSwitch(3)).isTrue();
        assertThat(MixedPaired.idleGapMs(true)).isEqualTo(40_000);
        assertThat(MixedPaired.idleGapMs(false)).isEqualTo(Mixed.IDLE_GAP_MS);
    }

    @Test
    void aWindowRightAfterASwitchWarmsUpPastTheAgentsCompilerBoost() {
        // on (settled), then off on | on off | off on | on off: a switch before 1, 2, 4, 6 and 8
        assertThat(MixedPaired.switchedWindows(1)).isEqualTo(2);
        assertThat(MixedPaired.switchedWindows(2)).isEqualTo(3);
        assertThat(MixedPaired.switchedWindows(4)).isEqualTo(5);
        assertThat(MixedPaired.warmupS(MixedParams.quick(), true)).isEqualTo(MixedPaired.AFTER_SWITCH_WARMUP_S);
        assertThat(MixedPaired.warmupS(MixedParams.quick(), false)).isEqualTo(MixedParams.quick().warmupS());
        assertThat(MixedParams.quick().warmupS()).as("the quick warm-up is shorter than the boost").isLessThan(40);
    }

    @Test
    void theAgentIsUnwovenToSwitchOffAndSwappedBackToSwitchOnEachCheckedByItsStatus() throws Exception {
        List<String> sent = new ArrayList<>();
        boolean[] inForce = {true};
        MixedPaired.Switch sw = MixedPaired.agentSwitch(line -> {
            sent.add(line);
            if (line.equals("unweave")) {
                inForce[0] = false;
            } else if (line.startsWith("swap ")) {
                inForce[0] = true;
            }
            return new ControlClient.Reply(true, line.equals("--json status")
                    ? "{\"inForce\": " + inForce[0] + "}" : "done");
        }, Path.of("/p/policy.yaml"));
        sw.set(false);
        sw.set(true);
        assertThat(sent).containsExactly("unweave", "--json status", "swap /p/policy.yaml", "--json status");

        MixedPaired.Switch refused = MixedPaired.agentSwitch(line -> new ControlClient.Reply(false, "no agent here\n"),
                Path.of("/p/policy.yaml"));
        assertThatThrownBy(() -> refused.set(false)).isInstanceOf(IOException.class)
                .hasMessage("the agent refused 'unweave': no agent here");
        MixedPaired.Switch stuck = MixedPaired.agentSwitch(line -> new ControlClient.Reply(true,
                line.equals("--json status") ? "{\"inForce\": true}" : "ok"), Path.of("/p/policy.yaml"));
        assertThatThrownBy(() -> stuck.set(false)).isInstanceOf(IOException.class)
                .hasMessage("after 'unweave' the agent's status says the policy is in force: {\"inForce\": true}");
    }

    @Test
    void aPeerIsSwitchedByItsFileAndTheHarnessWaitsForItsStateFile() throws Exception {
        Path file = tmp.resolve("switch");
        Path state = tmp.resolve("switch.state");
        Thread peer = new Thread(() -> {
            // what the peer does: read the file, write the state it applied
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    if (Files.exists(file)) {
                        Files.writeString(state, Files.readString(file).strip() + "\n");
                    }
                    Thread.sleep(30);
                }
            } catch (IOException | InterruptedException e) {
                // stopped
            }
        });
        peer.start();
        try {
            MixedPaired.fileSwitch(file, Duration.ofSeconds(10)).set(false);
            assertThat(Files.readString(state).strip()).isEqualTo("off");
            MixedPaired.fileSwitch(file, Duration.ofSeconds(10)).set(true);
            assertThat(Files.readString(state).strip()).isEqualTo("on");
        } finally {
            peer.interrupt();
            peer.join();
        }
        Path nobody = tmp.resolve("nobody");
        assertThatThrownBy(() -> MixedPaired.fileSwitch(nobody, Duration.ofMillis(200)).set(false))
                .isInstanceOf(IOException.class)
                .hasMessage("the peer did not switch off within 200 ms (" + nobody + ".state says nothing); is it "
                        + "installed?");
    }

    @Test
    void theUnscheduledVersionsAndVersionsWithNothingToSwitchAreRefused() {
        assertThatThrownBy(() -> MixedPaired.check(List.of(new Version("unscheduled-end", "u", List.of(), null, null)),
                2)).hasMessage("version 'unscheduled-end' does not apply to --paired: every process measures the "
                        + "unscheduled app itself, switched off");
        assertThatThrownBy(() -> MixedPaired.check(List.of(new Version("plain", "u", List.of(), null, null)), 2))
                .hasMessage("version 'plain' has nothing to switch off");
        MixedPaired.check(List.of(new Version("qosweaver", "q", List.of(), "p.yaml", null)), 1);
    }
}
