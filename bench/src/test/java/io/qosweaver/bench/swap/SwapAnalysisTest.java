package io.qosweaver.bench.swap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qosweaver.bench.app.CollectionRecord;
import io.qosweaver.bench.app.ScenarioResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Phases, their pooling, latencies and goals from a recorded run, without processes. */
class SwapAnalysisTest {
    private static final long T0 = 1_000_000L;
    private static final long PERIOD = 3000;

    private static CountingLoad.PhaseLoad load(long completed, long failed, long... latencyMs) {
        Histogram h = new Histogram(3_600_000_000L, 3);
        for (long ms : latencyMs) {
            h.recordValue(ms * 1000);
        }
        return new CountingLoad.PhaseLoad(completed, failed, h);
    }

    /** importance 0-3 s, admission 3-6 s, none 6-9 s, importance again 9-12 s. */
    private static List<SwapAnalysis.PhaseInput> phases() {
        return List.of(
                new SwapAnalysis.PhaseInput(0, "importance lowLimit=1", T0, T0 + 3000, load(30, 0, 100, 200, 300)),
                new SwapAnalysis.PhaseInput(1, "admission lowLimit=1", T0 + 3000, T0 + 6000, load(15, 0, 400)),
                new SwapAnalysis.PhaseInput(2, "none", T0 + 6000, T0 + 9000, load(60, 0, 50, 60)),
                new SwapAnalysis.PhaseInput(3, "importance lowLimit=1", T0 + 9000, T0 + 12_000, load(30, 0, 1000)));
    }

    private static List<CollectionRecord> collections() {
        return List.of(
                new CollectionRecord(T0 - 2000, 2500L, 100, false, PERIOD), // before the window: no phase
                new CollectionRecord(T0 + 500, 2000L, 100, false, PERIOD),
                new CollectionRecord(T0 + 3500, 2800L, 100, false, PERIOD),
                new CollectionRecord(T0 + 6500, 4000L, 100, true, PERIOD),  // missed under no policy
                new CollectionRecord(T0 + 9500, 1000L, 100, false, PERIOD),
                new CollectionRecord(T0 + 11_900, null, null, null, null)); // running at the end, not yet late
    }

    @Test
    void aCollectionBelongsToThePhaseItStartsIn() {
        List<SwapResult.PhaseResult> ps = SwapAnalysis.phases(phases(), T0, collections(), PERIOD, T0 + 13_000);
        assertThat(ps).extracting(p -> p.metrics().collectionCount()).containsExactly(1, 1, 1, 2);
        assertThat(ps).extracting(p -> p.metrics().missedCount()).containsExactly(0, 0, 1, 0);
        assertThat(ps.get(2).metrics().deadlineMissRatio()).isEqualTo(1.0);
        assertThat(ps.get(3).collections()).extracting(ScenarioResult.Collection::unfinished).containsExactly(false, true);
        assertThat(ps.get(1).startS()).isEqualTo(3.0);
        assertThat(ps.get(1).collections().get(0).offsetS()).isEqualTo(3.5);
        assertThat(ps.get(0).metrics().chartThroughputPerS()).isEqualTo(10.0);
        assertThat(ps.get(0).metrics().chartP50Ms()).isBetween(199.0, 201.0);

        // the same run read later: the running collection has outlived its period
        List<SwapResult.PhaseResult> late = SwapAnalysis.phases(phases(), T0, collections(), PERIOD, T0 + 16_000);
        assertThat(late.get(3).metrics().missedCount()).isEqualTo(1);
    }

    @Test
    void phasesArePooledByThePolicyInForce() {
        List<SwapAnalysis.PhaseInput> in = phases();
        Map<String, SwapResult.PolicyResult> by = SwapAnalysis.byPolicy(in,
                SwapAnalysis.phases(in, T0, collections(), PERIOD, T0 + 13_000));
        assertThat(by).containsOnlyKeys("importance lowLimit=1", "admission lowLimit=1", "none");
        SwapResult.PolicyResult imp = by.get("importance lowLimit=1");
        assertThat(imp.phases()).isEqualTo(2);
        assertThat(imp.seconds()).isEqualTo(6.0);
        assertThat(imp.metrics().collectionCount()).isEqualTo(3);
        assertThat(imp.metrics().chartCompleted()).isEqualTo(60);
        assertThat(imp.metrics().chartThroughputPerS()).isEqualTo(10.0);
        assertThat(imp.metrics().collectionTimeMeanMs()).isEqualTo(1500.0);
        assertThat(imp.metrics().chartP99Ms()).as("the pooled histogram holds the second phase's 1 s").isBetween(990.0, 1010.0);
    }

    @Test
    void latencyPercentilesAreNearestRank() {
        SwapResult.LatencyStats l = SwapAnalysis.latency(List.of(50.0, 10.0, 30.0, 20.0, 40.0));
        assertThat(l.count()).isEqualTo(5);
        assertThat(l.p50Ms()).isEqualTo(30.0);
        assertThat(l.p90Ms()).isEqualTo(50.0);
        assertThat(l.p99Ms()).isEqualTo(50.0);
        assertThat(l.meanMs()).isEqualTo(30.0);
        assertThat(SwapAnalysis.latency(List.of()).p99Ms()).isNull();
    }

    private static SwapResult.StepResult step(int i, String kind, double ms, boolean verified) {
        return new SwapResult.StepResult(i, 3.0 * i, kind, kind, verified, ms, null, "x", verified ? "x" : "y",
                verified, verified ? "" : "refused");
    }

    private static SwapResult.Accounting accounting(long sent, long completed, long failed, Integer parked) {
        return new SwapResult.Accounting(sent, completed, failed, failed, 0, failed == 0 ? Map.of()
                : Map.of("status 503", failed), sent - completed - failed, true, parked, 0, 0.2,
                "importance lowLimit=1", true);
    }

    @Test
    void goalsSayMetOrNotMetWithTheMeasurement() {
        List<SwapResult.StepResult> ok = List.of(step(1, "swap", 120, true), step(2, "unweave", 80, true));
        List<SwapResult.Goal> met = SwapAnalysis.goals(ok, accounting(100, 100, 0, 0),
                SwapAnalysis.latency(List.of(120.0, 80.0)));
        assertThat(met).allMatch(g -> Boolean.TRUE.equals(g.met()));
        assertThat(met.get(1).detail()).isEqualTo("sent 100 = completed 100 + failed 0");

        List<SwapResult.Goal> bad = SwapAnalysis.goals(List.of(step(1, "swap", 1500, false), step(2, "set", 10, true)),
                accounting(100, 90, 5, 2), SwapAnalysis.latency(List.of(1500.0, 10.0)));
        assertThat(bad).extracting(SwapResult.Goal::met).containsExactly(false, false, false, false, true, false);
        assertThat(bad.get(0).detail()).contains("#1 swap").contains("refused");
        assertThat(bad.get(1).detail()).contains("LOST 5");
        assertThat(bad.get(2).detail()).contains("status 503");
        assertThat(bad.get(3).detail()).contains("scheduler's parked threads 2");
        assertThat(bad.get(5).detail()).startsWith("p99 1500 ms");
        assertThat(SwapAnalysis.goals(List.of(), null, SwapAnalysis.latency(List.of())))
                .extracting(SwapResult.Goal::met).containsOnlyNulls();
    }

    @Test
    void resultsJsonAndTheReportAreWritten(@TempDir Path dir) throws Exception {
        List<SwapResult.StepResult> steps = List.of(
                new SwapResult.StepResult(1, 3.0, "swap admission.yaml", "swap", true, 140.5, 120.0,
                        "admission lowLimit=1", "admission lowLimit=1", true, "swapped ..."),
                new SwapResult.StepResult(2, 6.0, "unweave", "unweave", true, 60.0, null, "none", "none", true, "unwoven"),
                new SwapResult.StepResult(3, 9.0, "swap river-monitor.yaml", "swap", true, 150.0, 130.0,
                        "importance lowLimit=1", "importance lowLimit=1", true, "swapped ..."));
        SwapResult r = Swap.assemble(true, new java.util.LinkedHashMap<>(Map.of("period_s", 3.0)), Map.of("cpus", 2),
                "./qosweaver bench swap --quick", steps, phases(), T0, collections(), PERIOD, T0 + 13_000,
                accounting(400, 400, 0, 0), Map.of(), dir.resolve("app.log"));
        io.qosweaver.bench.report.JsonWriter.write(r, dir.resolve("results.json"));
        SwapReport.write(dir, r);
        JsonNode json = new ObjectMapper().readTree(dir.resolve("results.json").toFile());
        assertThat(json.get("experiment").asText()).isEqualTo("swap");
        assertThat(json.get("phases")).hasSize(4);
        assertThat(json.at("/phases/2/missed_count").asInt()).isEqualTo(1);
        assertThat(json.at("/by_policy/none/chart_completed").asLong()).isEqualTo(60);
        assertThat(json.at("/latency/p99_ms").asDouble()).isEqualTo(150.0);
        assertThat(json.at("/latency_by_kind/swap/count").asInt()).isEqualTo(2);
        assertThat(json.at("/accounting/lost").asLong()).isZero();
        assertThat(json.get("goals")).allMatch(g -> g.get("met").asBoolean());
        String md = Files.readString(dir.resolve("RESULTS.md"));
        assertThat(md).contains("| none lost: every request sent was answered | met | sent 400 = completed 400 + failed 0 |")
                .contains("| swap, as the agent measured it | 2 |").contains("| admission lowLimit=1 | admission | 1 |");
        assertThat(dir.resolve("index.html")).isNotEmptyFile();
        assertThat(dir.resolve("collections.png")).isNotEmptyFile();
    }
}
