package io.qosweaver.bench.mixed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.mixed.MixedResult.Goal;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.run.Versions.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ratios against the unscheduled version, goals, summary, report and JSON, from made-up runs. */
class MixedResultTest {
    @TempDir
    Path tmp;

    private static ClassResult cls(String name, double throughput, double p99, long errors, Map<String, Long> kinds) {
        return new ClassResult(name, name.equals("heavy") ? "closed" : "open", 16, name.equals("heavy") ? null : 20.0,
                (long) (throughput * 100), errors, kinds, throughput, p99 / 2, 1.0, p99 / 3, p99 / 2, p99, p99, p99 * 1.5, 0);
    }

    private static LoadResult loaded(double heavy, double lightP99, long heavyErrors) {
        Map<String, ClassResult> m = new LinkedHashMap<>();
        m.put("heavy", cls("heavy", heavy, 3000, heavyErrors, heavyErrors == 0 ? Map.of() : Map.of("status 429", heavyErrors)));
        m.put("light", cls("light", 20, lightP99, 0, Map.of()));
        return new LoadResult(0, 100, m, List.of());
    }

    private static LoadResult idle(double lightP99) {
        return new LoadResult(0, 30, Map.of("light", cls("light", 20, lightP99, 0, Map.of())), List.of());
    }

    private static Mixed.VersionRun run(String name, String policy, String peer, double idleP99, double heavy,
            double lightP99, long heavyErrors) {
        return new Mixed.VersionRun(new Version(name, name + " description", List.of(), policy, peer), List.of("-Xmx2g"),
                null, idle(idleP99), 0.1, loaded(heavy, lightP99, heavyErrors), 1.9, 300.0, 10, 0, "app-" + name + ".log",
                null, 0.02, 0.05, null, null);
    }

    private MixedResult result() {
        Map<String, Mixed.VersionRun> runs = new LinkedHashMap<>();
        runs.put("unscheduled", run("unscheduled", null, null, 20, 6.0, 400, 0));
        runs.put("qosweaver", run("qosweaver", "p.yaml", null, 22, 5.9, 35, 0));
        runs.put("qosweaver-generated", run("qosweaver-generated", "g.yaml", null, 22, 5.0, 50, 0));
        runs.put("jetty-qos", run("jetty-qos", null, "peer=jetty-qos", 21, 5.5, 120, 0));
        runs.put("concurrency-limits", run("concurrency-limits", null, "peer=concurrency-limits", 21, 4.0, 30, 50));
        runs.put("broken", Mixed.VersionRun.failed(new Version("broken", "d", List.of(), null, null), List.of(),
                tmp.resolve("app-broken.log"), tmp, "the app exited"));
        return Mixed.result(new FusekiApp(), MixedParams.quick(), true, "./qosweaver bench mixed --app fuseki",
                Map.of("app", "fuseki"), Map.of("broken", "the app exited"), runs, tmp);
    }

    private static Goal goal(MixedResult r, String version, String goalStart) {
        return r.goals().stream().filter(g -> g.version().equals(version) && g.goal().startsWith(goalStart))
                .findFirst().orElseThrow();
    }

    @Test
    void ratiosAreAgainstTheUnscheduledVersionOfTheSameRun() {
        MixedResult r = result();
        MixedResult.VersionResult q = r.versions().get("qosweaver");
        assertThat(q.lightP99ToIdle()).as("35 ms against the unscheduled idle 20 ms, not its own 22").isEqualTo(1.75);
        assertThat(q.heavyThroughputToUnscheduled()).isEqualTo(0.983);
        assertThat(r.versions().get("unscheduled").heavyThroughputToUnscheduled()).isEqualTo(1.0);
        assertThat(r.versions().get("broken").heavy()).isNull();
        assertThat(r.versions().get("broken").error()).isEqualTo("the app exited");
    }

    @Test
    void goalsAreEvaluatedForEveryQoSWeaverVersionAgainstEveryPeer() {
        MixedResult r = result();
        assertThat(r.goals()).extracting(Goal::version).containsOnly("qosweaver", "qosweaver-generated");
        assertThat(goal(r, "qosweaver", "light p99 / idle").met()).isTrue();
        assertThat(goal(r, "qosweaver", "heavy throughput").met()).isTrue();
        assertThat(goal(r, "qosweaver", "errors").met()).isTrue();
        assertThat(goal(r, "qosweaver", "light p99 (ms) ahead of jetty-qos").met()).isTrue();
        // concurrency-limits has a lower light p99 (30 < 35), at a lower heavy throughput: not ahead of it
        assertThat(goal(r, "qosweaver", "light p99 (ms) ahead of concurrency-limits").met()).isFalse();
        assertThat(goal(r, "qosweaver-generated", "light p99 / idle").met()).as("50 / 20 = 2.5").isFalse();
        assertThat(goal(r, "qosweaver-generated", "heavy throughput").met()).as("5.0 / 6.0").isFalse();
        assertThat(goal(r, "qosweaver-generated", "light p99 (ms) ahead of jetty-qos").met())
                .as("faster light, but less heavy throughput than jetty-qos").isFalse();
        assertThat(r.summary()).anyMatch(s -> s.startsWith("goal NOT met: qosweaver-generated: light p99 / idle"))
                .anyMatch(s -> s.startsWith("broken: FAILED: the app exited"))
                .anyMatch(s -> s.contains("error kinds heavy {status 429=50}"))
                .first().isEqualTo("Idle light p99 (unscheduled, light stream alone): 20.00 ms; ratios below are "
                        + "against the unscheduled run.");
    }

    @Test
    void withTheUnscheduledAppRunFirstAndLastTheBaselineIsTheirMean() {
        Map<String, Mixed.VersionRun> runs = new LinkedHashMap<>();
        runs.put("unscheduled", run("unscheduled", null, null, 20, 12.0, 200, 0));
        runs.put("qosweaver", run("qosweaver", "p.yaml", null, 60, 9.5, 45, 0));
        runs.put("unscheduled-end", run("unscheduled-end", null, null, 30, 8.0, 250, 0));
        MixedResult r = Mixed.result(new FusekiApp(), MixedParams.quick(), true, "c", Map.of(), Map.of(), runs, tmp);
        assertThat(r.versions().get("qosweaver").heavyThroughputToUnscheduled()).as("9.5 / mean(12, 8)")
                .isEqualTo(0.95);
        assertThat(r.versions().get("qosweaver").lightP99ToIdle()).as("45 / mean(20, 30)").isEqualTo(1.8);
        assertThat(r.versions().get("unscheduled-end").heavyThroughputToUnscheduled()).isEqualTo(0.8);
        assertThat(r.goals()).extracting(Goal::version).containsOnly("qosweaver");
        assertThat(r.summary().get(0)).contains("mean of the first and the last run").contains("25.00 ms");
    }

    @Test
    void aVersionWhoseOsPrioritiesWereNotAppliedSaysSoAndOneWhoseWereDoesNot() {
        Map<String, Mixed.VersionRun> runs = new LinkedHashMap<>();
        Mixed.VersionRun refused = run("qosweaver-nice", "n.yaml", null, 22, 5.9, 35, 0);
        Mixed.VersionRun applied = run("linux-priority", "l.yaml", null, 22, 5.9, 35, 0);
        runs.put("qosweaver-nice", withPriority(refused, false, "EPERM: the process may not raise thread priorities"));
        runs.put("linux-priority", withPriority(applied, true, "setpriority: high nice -20, low nice 19"));
        MixedResult r = Mixed.result(new FusekiApp(), MixedParams.quick(), true, "c", Map.of(), Map.of(), runs, tmp);
        assertThat(r.versions().get("qosweaver-nice").priority()).containsEntry("effective", false);
        assertThat(r.summary()).contains("qosweaver-nice: its OS priorities were NOT applied (EPERM: the process may not"
                + " raise thread priorities): it measured the app without them");
        assertThat(r.summary()).noneMatch(l -> l.startsWith("linux-priority: its OS priorities"));
    }

    private static Mixed.VersionRun withPriority(Mixed.VersionRun r, boolean effective, String reason) {
        return new Mixed.VersionRun(r.version(), r.flags(), r.installLine(), r.idle(), r.idleCpuCores(), r.loaded(),
                r.cpuCores(), r.cpuMs(), r.heavyNice(), r.lightNice(), r.appLog(), r.error(), r.idleOtherCpuCores(),
                r.otherCpuCores(), Map.of("mechanism", "linux-nice", "effective", effective, "reason", reason), null);
    }

    @Test
    void withoutTheUnscheduledVersionNoRatioIsClaimed() {
        Map<String, Mixed.VersionRun> runs = new LinkedHashMap<>();
        runs.put("qosweaver", run("qosweaver", "p.yaml", null, 22, 5.9, 35, 0));
        MixedResult r = Mixed.result(new FusekiApp(), MixedParams.quick(), true, "c", Map.of(), Map.of(), runs, tmp);
        assertThat(r.versions().get("qosweaver").lightP99ToIdle()).isNull();
        assertThat(goal(r, "qosweaver", "light p99 / idle").met()).isNull();
        assertThat(goal(r, "qosweaver", "errors").met()).isTrue();
    }

    @Test
    void resultsJsonAndTheReportAreWrittenFromTheResultsAlone() throws Exception {
        MixedResult r = result();
        JsonWriter.write(r, tmp.resolve("results.json"));
        JsonNode json = JsonWriter.MAPPER.readTree(tmp.resolve("results.json").toFile());
        assertThat(json.get("experiment").asText()).isEqualTo("mixed");
        JsonNode q = json.get("versions").get("qosweaver");
        assertThat(q.get("light").get("p99_ms").asDouble()).isEqualTo(35.0);
        assertThat(q.get("light_p99_to_idle").asDouble()).isEqualTo(1.75);
        assertThat(q.get("server_cpu_cores").asDouble()).isEqualTo(1.9);
        assertThat(json.get("goals").size()).isEqualTo(r.goals().size());
        MixedReport.write(r, tmp);
        String md = Files.readString(tmp.resolve("RESULTS.md"));
        assertThat(md).contains("| qosweaver | 5.90 | 0.98 |").contains("| broken | FAILED |")
                .contains("| qosweaver-generated | light p99 / idle light p99 | 2.50 | <= 2.0 | NO |");
        assertThat(Files.readString(tmp.resolve("index.html"))).contains("<table>").contains("jetty-qos");
    }

    @Test
    void appsAndVersionsAreLookedUpByNameWithTheKnownOnesOnError() {
        assertThat(MixedApp.named("fuseki")).isInstanceOf(FusekiApp.class);
        assertThatThrownBy(() -> MixedApp.named("tomcat-app")).hasMessage("unknown app 'tomcat-app'; known: fuseki, tika");
        MixedApp app = MixedApp.named("fuseki");
        assertThat(MixedVersions.resolve(app, MixedVersions.ALL)).extracting(Version::name)
                .containsExactlyElementsOf(MixedVersions.ALL);
        assertThatThrownBy(() -> MixedVersions.resolve(app, List.of("qosweaver", "priority")))
                .hasMessageStartingWith("unknown version 'priority'; known: unscheduled, qosweaver");
        Version jetty = MixedVersions.of(app).get("jetty-qos");
        assertThat(jetty.peer()).contains("lowPath=/ds/analytics").contains("anyContext=true")
                .contains("maxRequests=" + Runtime.getRuntime().availableProcessors());
        assertThat(MixedVersions.of(app).get("qosweaver").policy())
                .isEqualTo("examples/third-party/fuseki/policies/handwritten.yaml");
        assertThat(MixedVersions.defaults(app)).containsExactlyElementsOf(MixedVersions.ALL);
    }

    @Test
    void aVersionNameMaySetPolicyParametersOfAWovenVersionOnly() {
        MixedApp app = MixedApp.named("fuseki");
        Version v = MixedVersions.resolve(app, List.of(" qosweaver-entry-cap:lowNice=19:lowCap=2 ")).get(0);
        assertThat(v.name()).isEqualTo("qosweaver-entry-cap:lowNice=19:lowCap=2");
        assertThat(v.policy()).isEqualTo("examples/third-party/fuseki/policies/handwritten-entry-cap.yaml");
        assertThat(v.policyParams()).containsExactly(java.util.Map.entry("lowNice", "19"),
                java.util.Map.entry("lowCap", "2"));
        assertThat(v.description()).endsWith("; policy lowNice=19, lowCap=2");
        assertThatThrownBy(() -> MixedVersions.resolve(app, List.of("jetty-qos:lowCap=2")))
                .hasMessageContaining("jetty-qos is not woven by QoSWeaver");
        assertThatThrownBy(() -> MixedVersions.resolve(app, List.of("qosweaver:lowNice")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MixedVersions.resolve(app, List.of("nothing:lowNice=19")))
                .hasMessageStartingWith("unknown version 'nothing:lowNice=19'");
    }

    @Test
    void aServerWithoutJettysQoSHandlerRunsEveryOtherVersionAndSaysWhyWhenAskedForIt() {
        MixedApp tika = MixedApp.named("tika");
        assertThat(MixedVersions.defaults(tika)).containsExactly("unscheduled", "qosweaver", "qosweaver-generated",
                "concurrency-limits", "unscheduled-end");
        assertThat(MixedVersions.of(tika)).doesNotContainKey("jetty-qos");
        assertThat(MixedVersions.of(tika).get("concurrency-limits").peer()).contains("lowPath=/tika");
        assertThatThrownBy(() -> MixedVersions.resolve(tika, List.of("qosweaver", "jetty-qos")))
                .hasMessageStartingWith("version 'jetty-qos' does not apply to app tika: Tika server runs on Jetty 9.4");
    }
}
