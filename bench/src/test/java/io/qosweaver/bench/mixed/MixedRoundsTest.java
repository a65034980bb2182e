package io.qosweaver.bench.mixed;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.mixed.MixedRounds.Metric;
import io.qosweaver.bench.mixed.MixedRounds.RoundGoal;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.run.Versions.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spread over rounds of a repeated mixed run, from made-up rounds whose host slows from one to the next. */
class MixedRoundsTest {
    @TempDir
    Path tmp;

    private static ClassResult cls(String name, double throughput, double p99) {
        return new ClassResult(name, name.equals("heavy") ? "closed" : "open", 16, name.equals("heavy") ? null : 20.0,
                (long) (throughput * 100), 0, Map.of(), throughput, p99 / 2, 1.0, p99 / 3, p99 / 2, p99, p99, p99 * 1.5, 0);
    }

    private static Mixed.VersionRun run(String name, String policy, String peer, double idleP99, double heavy,
            double lightP99, double cpuMs) {
        Map<String, ClassResult> loaded = new LinkedHashMap<>();
        loaded.put("heavy", cls("heavy", heavy, 3000));
        loaded.put("light", cls("light", 20, lightP99));
        return new Mixed.VersionRun(new Version(name, name, List.of(), policy, peer), List.of(), null,
                new LoadResult(0, 30, Map.of("light", cls("light", 20, idleP99)), List.of()), 0.1,
                new LoadResult(0, 100, loaded, List.of()), 1.9, cpuMs, 10, 0, "app-" + name + ".log", null, 0.02, 0.05,
                null, Map.of("tail_requests", 24, "tail_with_gc_pause", 8));
    }

    /** One round: the host's speed scales every figure; the policy's light p99 is {@code qp99} ms. */
    private MixedResult round(double slow, double qp99, List<String> order) {
        Map<String, Mixed.VersionRun> all = new LinkedHashMap<>();
        all.put("unscheduled", run("unscheduled", null, null, 10, 10 / slow, 100, (double) Math.round(180 * slow)));
        all.put("qosweaver", run("qosweaver", "p.yaml", null, 10, 9.6 / slow, qp99, 185 * slow));
        all.put("concurrency-limits", run("concurrency-limits", null, "peer", 10, 7 / slow, 90, 200 * slow));
        Map<String, Mixed.VersionRun> runs = new LinkedHashMap<>();
        order.forEach(n -> runs.put(n, all.get(n)));
        return Mixed.result(new TikaApp(), MixedParams.quick(), true, "cmd", Map.of(), Map.of(), runs, tmp);
    }

    @Test
    void eachFigureIsItsValuePerRoundWithMedianAndRangeAndRatiosArePairedWithinTheirRound() {
        List<String> names = List.of("unscheduled", "qosweaver", "concurrency-limits");
        List<List<String>> order = List.of(names, List.of("qosweaver", "concurrency-limits", "unscheduled"),
                List.of("concurrency-limits", "unscheduled", "qosweaver"));
        List<MixedResult> rounds = List.of(round(1.0, 15, order.get(0)), round(1.4, 25, order.get(1)),
                round(1.2, 18, order.get(2)));
        MixedRounds r = MixedRounds.of(names, rounds, order, "cmd", true, Map.of(), Map.of(), Map.of(), Map.of());

        assertThat(r.rounds()).isEqualTo(3);
        assertThat(r.versions().keySet()).as("in the order given, not a round's").containsExactlyElementsOf(names);
        Metric heavy = r.versions().get("qosweaver").get("heavy_to_unscheduled");
        assertThat(heavy.perRound()).as("the host's slowing cancels within each round").containsExactly(0.96, 0.96, 0.96);
        Metric p99 = r.versions().get("qosweaver").get("light_p99_to_idle");
        assertThat(p99.perRound()).containsExactly(1.5, 2.5, 1.8);
        assertThat(p99.median()).isEqualTo(1.8);
        assertThat(p99.min()).isEqualTo(1.5);
        assertThat(p99.max()).isEqualTo(2.5);
        assertThat(p99.cell()).isEqualTo("1.80 [1.50-2.50]");
        assertThat(r.versions().get("unscheduled").get("cpu_ms_per_heavy").perRound()).containsExactly(180.0, 252.0, 216.0);
        assertThat(r.versions().get("qosweaver").get("light_tail_with_gc_pause").median()).isEqualTo(8.0);

        RoundGoal light = goal(r, "qosweaver", "light p99 / idle");
        assertThat(light.perRound()).containsExactly(1.5, 2.5, 1.8);
        assertThat(light.metRounds()).isEqualTo(2);
        assertThat(light.met()).as("met only when met in every round").isFalse();
        RoundGoal heavyGoal = goal(r, "qosweaver", "heavy throughput");
        assertThat(heavyGoal.met()).isTrue();
        assertThat(heavyGoal.target()).isEqualTo(">= 0.95");
        RoundGoal peer = goal(r, "qosweaver", "light p99 (ms) ahead of concurrency-limits");
        assertThat(peer.target()).as("the peer's own figures differ per round").startsWith("per round: ");
        assertThat(peer.metRounds()).isEqualTo(3);
        assertThat(r.summary()).anyMatch(s -> s.startsWith("goal NOT met in every round: qosweaver: light p99 / idle")
                && s.contains("met in 2 of 3 rounds"));
        assertThat(r.summary()).anyMatch(s -> s.startsWith("qosweaver: light p99 1.80 [1.50-2.50] x idle"));
    }

    @Test
    void theLightP99IsAlsoGivenAgainstTheMedianIdleP99OfTheRoundsProcesses() {
        // the unscheduled process's idle window caught a collection (idle p99 40 ms); the others' did not
        Map<String, Mixed.VersionRun> runs = new LinkedHashMap<>();
        runs.put("unscheduled", run("unscheduled", null, null, 40, 10, 100, 180));
        runs.put("qosweaver", run("qosweaver", "p.yaml", null, 10, 9.6, 15, 185));
        runs.put("concurrency-limits", run("concurrency-limits", null, "peer", 12, 7, 90, 200));
        MixedResult round = Mixed.result(new TikaApp(), MixedParams.quick(), true, "cmd", Map.of(), Map.of(), runs, tmp);
        List<String> names = List.copyOf(runs.keySet());
        assertThat(MixedRounds.medianIdleP99(round)).isEqualTo(12.0);
        MixedRounds r = MixedRounds.of(names, List.of(round), List.of(names), "cmd", true, Map.of(), Map.of(), Map.of(),
                Map.of());
        assertThat(r.versions().get("qosweaver").get("light_p99_to_idle").perRound())
                .as("against the unscheduled process's idle p99 alone").containsExactly(0.375);
        assertThat(r.versions().get("qosweaver").get(MixedRounds.LIGHT_P99_TO_ROUND_IDLE).perRound())
                .as("15 ms against the median of 40, 10 and 12").containsExactly(1.25);
        assertThat(r.summary()).anyMatch(l -> l.startsWith("qosweaver: light p99 0.38 x idle (1.25 x the round's"));
    }

    @Test
    void aVersionThatFailedInARoundHasNoValueThereAndItsGoalsAreNotMetInEveryRound() {
        List<String> names = List.of("unscheduled", "qosweaver");
        MixedResult ok = round(1.0, 15, names);
        Map<String, Mixed.VersionRun> runs = new LinkedHashMap<>();
        runs.put("unscheduled", run("unscheduled", null, null, 10, 10, 100, 180));
        runs.put("qosweaver", Mixed.VersionRun.failed(new Version("qosweaver", "q", List.of(), "p.yaml", null), List.of(),
                tmp.resolve("app-qosweaver.log"), tmp, "the app exited"));
        MixedResult failed = Mixed.result(new TikaApp(), MixedParams.quick(), true, "cmd", Map.of(),
                Map.of("qosweaver", "the app exited"), runs, tmp);
        MixedRounds r = MixedRounds.of(names, List.of(ok, failed), List.of(names, names), "cmd", true, Map.of(),
                Map.of(), Map.of(), Map.of("round-2 qosweaver", "the app exited"));
        assertThat(r.versions().get("qosweaver").get("light_p99_to_idle").perRound()).containsExactly(1.5, null);
        assertThat(r.versions().get("qosweaver").get("light_p99_to_idle").median()).isEqualTo(1.5);
        RoundGoal g = goal(r, "qosweaver", "light p99 / idle");
        assertThat(g.perRound()).containsExactly(1.5, null);
        assertThat(g.measuredRounds()).isEqualTo(1);
        assertThat(g.met()).isFalse();
    }

    @Test
    void theReportAndTheJsonCarryEveryRound() throws Exception {
        List<String> names = List.of("unscheduled", "qosweaver", "concurrency-limits");
        List<List<String>> order = List.of(names, List.of("qosweaver", "concurrency-limits", "unscheduled"));
        MixedRounds r = MixedRounds.of(names, List.of(round(1.0, 15, order.get(0)), round(1.4, 25, order.get(1))),
                order, "./qosweaver bench mixed --app tika --repeat 2", true, Map.of("rounds", 2), Map.of(),
                Map.of("description", "Tika"), Map.of());
        Path dir = tmp.resolve("report");
        JsonWriter.write(r, dir.resolve("results.json"));
        MixedRoundsReport.write(r, dir);
        JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("results.json").toFile());
        assertThat(json.get("rounds").asInt()).isEqualTo(2);
        assertThat(json.at("/versions/qosweaver/light_p99_to_idle/per_round").toString()).isEqualTo("[1.5,2.5]");
        String md = Files.readString(dir.resolve("RESULTS.md"));
        assertThat(md).contains("| qosweaver | 1.50 [1.50-2.50] |", "round-2 | qosweaver, concurrency-limits, unscheduled",
                "1.50 / 2.50");
        assertThat(Arrays.asList(dir.toFile().list())).contains("index.html", "RESULTS.md", "results.json");
    }

    @Test
    void theRoundsOfAnEarlierRunAreReadBackAndTheirDisturbedRoundsCountedApart() throws Exception {
        List<String> names = List.of("unscheduled", "qosweaver", "concurrency-limits");
        List<List<String>> order = List.of(names, List.of("qosweaver", "concurrency-limits", "unscheduled"));
        MixedResult quiet = round(1.0, 15, order.get(0));
        // round 2: another tenant took 0.4 cores while qosweaver ran; its light p99 missed the goal there
        Map<String, Mixed.VersionRun> runs = new LinkedHashMap<>();
        Mixed.VersionRun q = run("qosweaver", "p.yaml", null, 10, 9.6, 25, 185);
        runs.put("qosweaver", new Mixed.VersionRun(q.version(), q.flags(), q.installLine(), q.idle(), q.idleCpuCores(),
                q.loaded(), q.cpuCores(), q.cpuMs(), q.heavyNice(), q.lightNice(), q.appLog(), q.error(), 0.02, 0.4,
                q.priority(), q.lightTailGc()));
        runs.put("concurrency-limits", run("concurrency-limits", null, "peer", 10, 7, 90, 200));
        runs.put("unscheduled", run("unscheduled", null, null, 10, 10, 100, 180));
        MixedResult disturbed = Mixed.result(new TikaApp(), MixedParams.quick(), true, "cmd", Map.of(), Map.of(), runs,
                tmp);
        Path dir = tmp.resolve("rounds");
        JsonWriter.write(quiet, dir.resolve("round-1").resolve("results.json"));
        JsonWriter.write(disturbed, dir.resolve("round-2").resolve("results.json"));

        MixedRounds r = Mixed.reportRounds(dir, line -> { });
        assertThat(r.order()).as("each round's order, from its results").isEqualTo(order);
        assertThat(r.versions().keySet()).containsExactlyElementsOf(names);
        assertThat(r.versions().get("qosweaver").get("light_p99_to_idle").perRound()).containsExactly(1.5, 2.5);
        assertThat(r.othersMax()).containsExactly(0.05, 0.4);
        assertThat(r.disturbed()).containsExactly(false, true);
        RoundGoal light = goal(r, "qosweaver", "light p99 / idle");
        assertThat(light.met()).isFalse();
        assertThat(light.metUndisturbed()).as("met in the one undisturbed round").isTrue();
        assertThat(light.metUndisturbedRounds()).isEqualTo(1);
        assertThat(r.summary()).anyMatch(l -> l.startsWith("round 2 DISTURBED: others' CPU up to 0.40 cores (qosweaver"))
                .anyMatch(l -> l.contains("met in 1 of 2 rounds (1 of 1 undisturbed)"));
        assertThat(dir.resolve("RESULTS.md")).content().contains("| round-2 | qosweaver, concurrency-limits, unscheduled"
                + " | 0.40 | yes (above 0.05) |");
        assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> Mixed.reportRounds(tmp.resolve("none"),
                line -> { }))).hasMessageContaining("holds 0 round(s)");
    }

    private static RoundGoal goal(MixedRounds r, String version, String start) {
        return r.goals().stream().filter(g -> g.version().equals(version) && g.goal().startsWith(start)).findFirst()
                .orElseThrow();
    }

    @Test
    void aVersionWithPolicyParametersRunsACopyWithThemSetUnderAFileSafeName() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Path work = Files.createDirectories(tmp.resolve("work"));
        Files.writeString(root.resolve("p.yaml"), "taskClasses: []\npolicy:\n  name: importance\n  lowCap: 1x\n");
        Version base = new Version("cap", "c", List.of(), "p.yaml", null);
        Version v = io.qosweaver.bench.run.Versions.withParams(base, "cap:lowNice=19:lowCap=2",
                java.util.Map.of("lowCap", "2"));
        Path copy = Mixed.policyCopy(root, v, work);
        assertThat(copy.getFileName().toString()).isEqualTo("cap+lowNice=19+lowCap=2.yaml");
        assertThat(Files.readString(copy)).contains("  lowCap: 2\n").doesNotContain("1x");
        assertThat(Files.readString(root.resolve("p.yaml"))).contains("lowCap: 1x");
        Files.writeString(root.resolve("q.yaml"), "policy: {name: importance}\n");
        Version flow = io.qosweaver.bench.run.Versions.withParams(new Version("flow", "f", List.of(), "q.yaml", null),
                "flow:lowCap=2", java.util.Map.of("lowCap", "2"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Mixed.policyCopy(root, flow, work))
                .hasMessageStartingWith("version flow:lowCap=2: q.yaml: ");
    }

    @Test
    void everyRoundRunsTheFirstCopyOfAPolicyNotTheWorkingTreesLaterEdit() throws Exception {
        Path root = Files.createDirectories(tmp.resolve("root"));
        Path work = Files.createDirectories(tmp.resolve("work"));
        Files.writeString(root.resolve("p.yaml"), "first");
        Version v = new Version("qosweaver", "q", List.of(), "p.yaml", null);
        Path first = Mixed.policyCopy(root, v, work);
        Files.writeString(root.resolve("p.yaml"), "edited during the run");
        assertThat(Mixed.policyCopy(root, v, work)).isEqualTo(first);
        assertThat(Files.readString(first)).isEqualTo("first");
        Version missing = new Version("gone", "g", List.of(), "nowhere.yaml", null);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Mixed.policyCopy(root, missing, work))
                .hasMessageContaining("the policy of version gone is missing");
    }
}
