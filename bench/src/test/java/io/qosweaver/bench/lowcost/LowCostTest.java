package io.qosweaver.bench.lowcost;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.deadline.DeadlineTest;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.testing.TestResults;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The lowcost experiment's run order, aggregation, ratios, JSON and report, with made-up runs. */
class LowCostTest {

    /** A run whose chart throughput is {@code tput} (the made-up scenario has 10/s). */
    private static ScenarioResult run(String v, double tput, double cpuMsPerChart) {
        ScenarioResult s = TestResults.scenario(v, 1000, new long[] {300}, null);
        return new ScenarioResult(s.version(), s.scenario(), s.periodS(), s.rivers(), s.chartClients(),
                s.levelsClients(), s.chartHours(), s.windowStartMs(), s.windowSeconds(), s.collectionCount(),
                s.missedCount(), s.deadlineMissRatio(), s.collectionTimeMeanMs(), s.collectionTimeMaxMs(),
                s.collectionTimeStddevMs(), s.collectionTimeP50Ms(), tput, s.chartP50Ms(), s.chartP99Ms(),
                s.chartErrors(), null, null, null, null, null, null, null, null, s.collections(), s.load(),
                s.loadTimeSeries(), s.runningChartThreads(), 1.0, cpuMsPerChart, List.of(), List.of(), List.of());
    }

    @Test
    void roundZeroRunsBothConditionsThenOnlyWithoutInRotatedOrder(@TempDir Path dir) throws Exception {
        List<String> calls = new ArrayList<>();
        List<String> partials = new ArrayList<>();
        LowCost.CellRunner fake = (v, condition, round, log) -> {
            calls.add(round + ":" + v.name() + ":" + condition);
            // what a run cut short here would leave: the runs before this one
            Path partial = dir.resolve(LowCost.PARTIAL_RESULTS);
            partials.add(!Files.isRegularFile(partial) ? "none" : JsonWriter.MAPPER.readTree(partial.toFile()).get("versions")
                    .get("original").get("without_collection").get("chart_throughput_per_s").get("n").asText());
            if (v.name().equals("jetty-qos") && round == 1) {
                throw new IOException("boom");
            }
            boolean with = condition.equals(LowCost.WITH);
            return switch (v.name()) {
                case "original" -> run(v.name(), with ? 5.0 : 10.0, 100);
                case "qosweaver" -> run(v.name(), with ? 4.5 : 9.9, 101);
                default -> run(v.name(), with ? 6.0 : 8.0, 110);
            };
        };
        List<Versions.Version> vs = Versions.resolve(List.of("original", "qosweaver", "jetty-qos"));
        LowCostResult r = LowCost.run(vs, 2, true, new java.util.LinkedHashMap<>(), Map.of("nproc", 2), dir, "cmd",
                Progress.NONE, fake);
        assertThat(calls).containsExactly(
                "0:original:with_collection", "0:original:without_collection",
                "0:qosweaver:with_collection", "0:qosweaver:without_collection",
                "0:jetty-qos:with_collection", "0:jetty-qos:without_collection",
                "1:qosweaver:without_collection", "1:jetty-qos:without_collection", "1:original:without_collection");
        assertThat(r.errors()).containsOnlyKeys("jetty-qos@without_collection#1");
        // original's runs without collection done before each call: none before the first run,
        // one from the second run's partial on, two only in the final results
        assertThat(partials).containsExactly("none", "0", "1", "1", "1", "1", "1", "1", "1");
        assertThat(dir.resolve(LowCost.PARTIAL_RESULTS)).as("removed at the end").doesNotExist();
        LowCostResult.VersionResult q = r.versions().get("qosweaver");
        assertThat(q.withoutCollection().chartThroughputPerS().n()).isEqualTo(2);
        assertThat(q.throughputLossWithCollectionPct()).isEqualTo(10.0);
        assertThat(q.overheadPct()).isEqualTo(1.0);
        assertThat(q.cpuPerChartOverheadPct()).isEqualTo(1.0);
        assertThat(q.withCollection().chartMeanCi95Ms()).hasSize(2);
        assertThat(q.withCollection().chartMeanCi95Ms().get(0)).isLessThan(300.0);
        assertThat(q.withCollection().chartMeanCi95Ms().get(1)).isGreaterThan(300.0);
        assertThat(r.versions().get("jetty-qos").withoutCollection().chartThroughputPerS().n()).isEqualTo(1);
        assertThat(r.versions().get("original").overheadPct()).isZero();
        assertThat(r.summary()).anySatisfy(s -> assertThat(s).startsWith("qosweaver: with collection, chart "
                + "throughput -10.0 %"));

        LowCostReport.write(dir, r);
        JsonNode j = JsonWriter.MAPPER.readTree(dir.resolve("results.json").toFile());
        assertThat(j.get("experiment").asText()).isEqualTo("lowcost");
        for (String f : DeadlineTest.FIELDS) {
            assertThat(j.get("versions").get("qosweaver").has(f)).as(f).isTrue();
        }
        assertThat(j.get("versions").get("qosweaver").get("without_collection").get("chart_throughput_per_s")
                .get("mean").asDouble()).isEqualTo(9.9);
        for (String f : List.of("index.html", "RESULTS.md", "chart-throughput.png", "chart-response-time.png",
                "cpu-per-chart.png")) {
            assertThat(dir.resolve(f)).isRegularFile();
        }
        assertThat(Files.readString(dir.resolve("RESULTS.md"))).contains("| qosweaver | 2 | 9.90 |");
    }

    @Test
    void spreadIsMeanMinMaxAndSampleStddev() {
        LowCostResult.Spread s = LowCostResult.Spread.of(java.util.Arrays.asList(1.0, null, 3.0));
        assertThat(s).isEqualTo(new LowCostResult.Spread(2.0, 1.0, 3.0, 1.414, 2));
        assertThat(LowCostResult.Spread.of(List.of()).mean()).isNull();
    }
}
