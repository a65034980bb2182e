package io.qosweaver.bench.deadline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI smoke test of the harness (issue 4): a tiny {@code deadline} run of {@code original} and
 * {@code qosweaver} with the real river monitor and agent jars (period 1 s, 20 rivers, 6 chart
 * clients, one 3 h chart window of 6 s). Asserts on structure and on relative results only.
 * Skipped, with a message, when a jar has not been built.
 */
class DeadlineSmokeTest {

    @Test
    void aTinyDeadlineRunOfTwoVersions(@TempDir Path dir) throws Exception {
        Layout layout = new Layout(Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize());
        for (Path jar : List.of(layout.riverMonitorJar(), layout.agentJar())) {
            if (!Files.isRegularFile(jar)) {
                System.err.println("SKIPPED DeadlineSmokeTest: " + jar + " is missing; build it with "
                        + "./mvnw -q -B -DskipTests -pl examples/river-monitor,agent -am package");
            }
            Assumptions.assumeTrue(Files.isRegularFile(jar), "jar missing: " + jar);
        }
        FlashCrowdParams p = new FlashCrowdParams(1, 20, 6, 3, 0, 0, 2, 6, List.of("--history-hours", "1"));
        DeadlineResult r = Deadline.run(layout, p, List.of(3), true, List.of("original", "qosweaver"), dir,
                "DeadlineSmokeTest", Progress.NONE);

        assertThat(r.errors()).isEmpty();
        JsonNode j = JsonWriter.MAPPER.readTree(dir.resolve("results.json").toFile());
        assertThat(j.get("experiment").asText()).isEqualTo("deadline");
        assertThat(j.get("parameters").get("hours").get(0).asInt()).isEqualTo(3);
        assertThat(j.get("machine").get("nproc").asInt()).isPositive();
        JsonNode versions = j.get("versions");
        assertThat(versions.has("original")).isTrue();
        assertThat(versions.has("qosweaver")).isTrue();
        for (String v : List.of("original", "qosweaver")) {
            JsonNode vn = versions.get(v);
            for (String f : DeadlineTest.FIELDS) {
                assertThat(vn.has(f)).as(v + "." + f).isTrue();
                assertThat(vn.get("by_hours").get("3").has(f)).as(v + ".by_hours.3." + f).isTrue();
            }
            assertThat(vn.get("collection_count").asInt()).as(v + " collections").isPositive();
            assertThat(vn.get("collection_time_mean_ms").isNumber()).isTrue();
            assertThat(vn.get("ratio_to_original").has("collection_time_mean_ms")).isTrue();
        }
        // relative only: suspending the chart threads while collecting does not slow the collection down
        assertThat(versions.get("qosweaver").get("collection_time_mean_ms").asDouble())
                .isLessThanOrEqualTo(versions.get("original").get("collection_time_mean_ms").asDouble());
        assertThat(versions.get("qosweaver").get("deadline_miss_ratio").asDouble())
                .isLessThanOrEqualTo(versions.get("original").get("deadline_miss_ratio").asDouble());
        // the agent ran: its suspension metrics are there, and absent without it
        assertThat(versions.get("qosweaver").get("suspension_time_p99_ms").isNumber()).isTrue();
        assertThat(versions.get("original").get("suspension_time_p99_ms").isNull()).isTrue();
        for (String f : List.of("index.html", "RESULTS.md", "collections-3h.png", "collection-time-mean.png")) {
            assertThat(dir.resolve(f)).as(f).isNotEmptyFile();
        }
    }
}
