package io.qosweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.deadline.DeadlineTest;
import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.lowcost.LowCost;
import io.qosweaver.bench.lowcost.LowCostResult;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.suspension.Suspension;
import io.qosweaver.bench.suspension.SuspensionResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI smoke tests of the {@code suspension} and {@code lowcost} experiments with the real jars
 * (river monitor, agent, peers agent) at a tiny size. Structure and relative results only;
 * skipped, with a message, when a jar has not been built.
 */
class HarnessSmokeTest {
    /**
     * Period 1 s, 20 rivers, 6 chart clients, 1 s warm-ups (light, then full), 6 s windows: the windows
     * keep their length (collections must start in them), the warm-ups need not be long, nothing is
     * asserted on what a warmer JIT changes.
     */
    private static final FlashCrowdParams TINY = new FlashCrowdParams(1, 20, 6, 3, 0, 0, 1, 6,
            List.of("--history-hours", "1"));

    private static Layout layout() {
        Layout layout = new Layout(Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize());
        for (Path jar : List.of(layout.riverMonitorJar(), layout.agentJar(), layout.peersAgentJar())) {
            if (!Files.isRegularFile(jar)) {
                System.err.println("SKIPPED HarnessSmokeTest: " + jar + " is missing; build it with "
                        + "./mvnw -q -B -DskipTests -pl examples/river-monitor,peers,agent -am package");
            }
            Assumptions.assumeTrue(Files.isRegularFile(jar), "jar missing: " + jar);
        }
        return layout;
    }

    @Test
    void suspensionFollowsTheSchedulersTimeline(@TempDir Path dir) throws Exception {
        Layout layout = layout();
        SuspensionResult r = Suspension.run(layout, TINY, 3, 1, true, List.of("qosweaver"), dir,
                "HarnessSmokeTest", Progress.NONE);
        assertThat(r.errors()).isEmpty();
        SuspensionResult.VersionResult q = r.versions().get("qosweaver");
        assertThat(q.detail().runningTimeline()).as("chart threads entering and leaving")
                .anyMatch(p -> p.taskClass().equals("chart"))
                .anyMatch(p -> p.taskClass().equals("collector") && p.members() == 1);
        assertThat(q.episodes()).as("collections seen on the timeline").isPositive();
        JsonNode j = JsonWriter.MAPPER.readTree(dir.resolve("results.json").toFile());
        assertThat(j.get("experiment").asText()).isEqualTo("suspension");
        for (String f : DeadlineTest.FIELDS) {
            assertThat(j.get("versions").get("qosweaver").has(f)).as(f).isTrue();
        }
        assertThat(dir.resolve("running-qosweaver.png")).isNotEmptyFile();
    }

    @Test
    void lowCostRunsAPeerWithAndWithoutCollection(@TempDir Path dir) throws Exception {
        Layout layout = layout();
        // 2 s windows without collection: enough for the app's CPU time to show, and none can collect
        LowCostResult r = LowCost.run(layout, TINY, 3, 2, 1, true, List.of("original", "jetty-qos"), dir,
                "HarnessSmokeTest", Progress.NONE);
        assertThat(r.errors()).isEmpty();
        for (String v : List.of("original", "jetty-qos")) {
            LowCostResult.VersionResult vr = r.versions().get(v);
            // one measured run per condition (a cold JVM may serve no chart in so short a window: no rate asserted)
            assertThat(vr.withCollection().chartThroughputPerS().n()).as(v).isEqualTo(1);
            assertThat(vr.withoutCollection().chartThroughputPerS().n()).as(v).isEqualTo(1);
            assertThat(vr.withoutCollection().runs().get(0).appCpuS()).as(v + " CPU time").isPositive();
            // no collector: no collection can start in the window
            assertThat(vr.withoutCollection().runs().get(0).collectionCount()).as(v).isZero();
            assertThat(vr.withCollection().runs().get(0).collectionCount()).as(v).isPositive();
        }
        assertThat(Files.readString(dir.resolve("app-jetty-qos-with_collection-0.log")))
                .contains("qosweaver-peers: jetty-qos installed");
        for (String f : List.of("index.html", "RESULTS.md", "chart-throughput.png", "cpu-per-chart.png")) {
            assertThat(dir.resolve(f)).as(f).isNotEmptyFile();
        }
    }
}
