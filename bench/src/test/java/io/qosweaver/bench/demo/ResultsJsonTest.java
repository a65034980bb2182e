package io.qosweaver.bench.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.ScenarioReport;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.testing.TestResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsJsonTest {

    @Test
    void demoResultsHaveTheFieldsOfTheContract() throws Exception {
        Map<String, ScenarioResult> versions = new LinkedHashMap<>();
        versions.put("original", TestResults.scenario("original", 1000, new long[] {1500, 1200, 800, 2000}, null));
        versions.put("qosweaver", TestResults.scenario("qosweaver", 1000, new long[] {300, 320, 310, 305}, 0.004));
        DemoResult r = new DemoResult("deadline", "now", "./qosweaver demo --quick", true,
                Map.of("period_s", 1.0), Machine.describe(), versions, Map.of(), Map.of());
        JsonNode root = JsonWriter.MAPPER.readTree(JsonWriter.write(r));
        for (String v : List.of("original", "qosweaver")) {
            JsonNode n = root.path("versions").path(v);
            for (String f : List.of("deadline_miss_ratio", "collection_time_mean_ms", "collection_time_max_ms",
                    "chart_throughput_per_s", "chart_p99_ms", "chart_p50_ms", "collection_time_stddev_ms",
                    "suspension_time_p50_ms", "suspension_time_p99_ms", "collection_count")) {
                assertThat(n.has(f)).as(v + "." + f).isTrue();
            }
        }
        JsonNode orig = root.path("versions").path("original");
        assertThat(orig.path("deadline_miss_ratio").asDouble()).isEqualTo(0.75);
        assertThat(orig.path("collection_time_max_ms").asDouble()).isEqualTo(2000);
        assertThat(orig.path("collection_time_mean_ms").asDouble()).isEqualTo(1375);
        assertThat(orig.path("collection_count").asInt()).isEqualTo(4);
        assertThat(orig.path("suspension_time_p50_ms").isNull()).isTrue();
        assertThat(root.path("versions").path("qosweaver").path("deadline_miss_ratio").asDouble()).isZero();
        assertThat(root.path("versions").path("qosweaver").path("suspension_time_p50_ms").asDouble()).isEqualTo(4.0);
        assertThat(root.path("machine").path("nproc").asInt()).isPositive();
        assertThat(root.path("parameters").path("period_s").asDouble()).isEqualTo(1.0);
        assertThat(orig.path("collections").get(0).has("offset_s")).isTrue();
    }

    @Test
    void theReportEmbedsItsPlotsAndTheMarkdownSaysTheSame(@TempDir Path dir) throws Exception {
        Map<String, ScenarioResult> versions = new LinkedHashMap<>();
        versions.put("original", TestResults.scenario("original", 1000, new long[] {1500, 1200}, null));
        versions.put("qosweaver", TestResults.scenario("qosweaver", 1000, new long[] {300, 320}, 0.004));
        ScenarioReport.write(dir, "t", List.of("intro"), List.of(), "./qosweaver demo", versions,
                Map.of("period_s", 1.0), Machine.describe());
        String html = Files.readString(dir.resolve("index.html"));
        assertThat(html).contains("data:image/png;base64,").contains("deadline miss ratio").contains("qosweaver");
        assertThat(dir.resolve("collections.png")).isNotEmptyFile();
        assertThat(dir.resolve("chart-latency.png")).isNotEmptyFile();
        assertThat(Table.text(versions)).contains("deadline miss ratio").contains("original");
        assertThat(Files.readString(dir.resolve("RESULTS.md"))).contains("| deadline miss ratio |")
                .contains("./qosweaver demo").contains("![Chart latency](chart-latency.png)");
    }
}
