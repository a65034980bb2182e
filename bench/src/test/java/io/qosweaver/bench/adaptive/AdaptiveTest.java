package io.qosweaver.bench.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.ScenarioResult.GaugeSample;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole experiment through a fake process runner: plans, targets, analysis, goals, files. */
class AdaptiveTest {
    @TempDir
    Path dir;

    private final List<Adaptive.RunPlan> plans = new ArrayList<>();

    private static LoadResult load(String name, long[] perSecond) {
        List<LoadResult.Sample> s = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < perSecond.length; i++) {
            s.add(new LoadResult.Sample(i + 1, name, perSecond[i], 0, null, null));
            total += perSecond[i];
        }
        ClassResult c = new ClassResult(name, "closed", 1, null, total, 0, Map.of(), total / (double) perSecond.length,
                name.equals("levels") ? 80.0 : 9000.0, null, null, null, 200.0, null, null, 0);
        return new LoadResult(0, perSecond.length, Map.of(name, c), s);
    }

    /** Probes: 600 and 1500 pages/s; a target run: 60 % for 2 s, then the target + 5; the original 800. */
    private Adaptive.Measured fake(Adaptive.RunPlan plan, AdaptiveParams p, Path log) throws IOException {
        plans.add(plan);
        if (plan.name().equals("driver-warmup")) {
            return null; // never analysed
        }
        if (plan.name().equals("target-2100")) {
            throw new IOException("the app died");
        }
        int n = (int) plan.windowS();
        long[] middle = new long[n];
        long[] charts = new long[n];
        List<GaugeSample> limit = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double v = plan.fixedLowLimit() != null ? (plan.fixedLowLimit() == 6 ? 600 : 1500)
                    : plan.target() == null ? 800 : i < 2 ? plan.target() * 0.6 : plan.target() + 5;
            middle[i] = Math.round(v);
            charts[i] = 3;
            limit.add(new GaugeSample(i + 0.5, i < 2 ? 6 : 3));
        }
        List<AdaptiveAnalysis.Span> spans = plan.collector() ? List.of(new AdaptiveAnalysis.Span(11.5, 14.5, 3000.0))
                : List.of();
        return new Adaptive.Measured(load("levels", middle), load("chart", charts),
                plan.jvmFlags().isEmpty() ? List.of() : limit, List.of(), spans, null);
    }

    @Test
    void probesThenTheScaledTargetsThenTheCollectorAndEveryFigure() throws Exception {
        AdaptiveParams p = AdaptiveParams.full().withWindows(20, 5);
        String template = "taskClasses:\n  - name: levels\npolicy:\n  name: adaptive\n  target: 150\n";
        AdaptiveResult r = Adaptive.run(p, null, false, template, Map.of("x", 1), Map.of("cores", 2), dir,
                "./qosweaver bench adaptive", Progress.NONE, this::fake, f -> List.of("-javaagent:agent.jar=policy=" + f));

        assertThat(plans).extracting(Adaptive.RunPlan::name).startsWith("driver-warmup", "limit-6", "limit-1", "original")
                .contains("target-600", "target-900", "target-1500", "target-2100", "target-30")
                .endsWith("collector-900", "step-900-to-1200", "step-1200-to-600", "limit-6-again");
        assertThat(plans.get(1).jvmFlags().get(0)).contains("policy=").endsWith("limit-6.yaml");
        assertThat(plans.get(3).jvmFlags()).as("the original runs without the agent").isEmpty();
        assertThat(Files.readString(dir.resolve("policies/target-900.yaml"))).contains("  target: 900\n");
        assertThat(r.feasible().low()).isEqualTo(600.0);
        assertThat(r.feasible().high()).isEqualTo(1500.0);
        assertThat(r.fig25Target()).isEqualTo(900.0);
        assertThat(r.targets()).hasSize(10);

        AdaptiveResult.Run t = r.runs().get("target-900");
        assertThat(t.middlePerS()).isEqualTo(905.0);
        assertThat(t.errorPct()).isEqualTo(0.556);
        assertThat(t.settlingS()).as("the 3 s average is in the band from the 3rd second").isEqualTo(3.0);
        assertThat(t.lowLimitMin()).isEqualTo(3.0);
        assertThat(t.lowLimitMax()).isEqualTo(3.0);
        assertThat(t.fiveSecondWithin()).isEqualTo(3);
        assertThat(t.series()).hasSize(20);

        AdaptiveResult.Run c = r.runs().get("collector-900");
        assertThat(c.collections()).isEqualTo(1);
        assertThat(c.collectionTimeMeanMs()).isEqualTo(3000.0);
        assertThat(c.middleDuringPerS()).isEqualTo(905.0);
        assertThat(c.settlingS()).as("not judged with collections").isNull();

        assertThat(r.errors()).containsOnlyKeys("target-2100");
        assertThat(r.runs().get("target-2100").error()).isEqualTo("the app died");
        AdaptiveResult.SweepPoint feasible = r.sweep().stream().filter(s -> s.target() == 1200).findFirst().orElseThrow();
        assertThat(feasible.feasible()).isTrue();
        assertThat(r.sweep().stream().filter(s -> s.target() == 30).findFirst().orElseThrow().feasible()).isFalse();
        // a change of target: warmed up at the paper's 150 scaled, then its 175 scaled is the run's target
        Adaptive.RunPlan up = plans.stream().filter(x -> x.name().equals("step-900-to-1200")).findFirst().orElseThrow();
        assertThat(up.kind()).isEqualTo("step");
        assertThat(up.target()).isEqualTo(1200.0);
        assertThat(up.fromTarget()).isEqualTo(900.0);
        assertThat(Files.readString(dir.resolve("policies/step-900-to-1200.yaml"))).contains("  target: 900\n");
        assertThat(r.runs().get("step-1200-to-600").settlingS()).isEqualTo(3.0);
        assertThat(r.goals()).hasSize(4).allMatch(g -> Boolean.TRUE.equals(g.met()));
        assertThat(r.goals().get(2).goal()).startsWith("settles within 3 s after a change of target");
        // the fake probes are flat: no noise, the band is the goal's 2 %
        assertThat(r.noise().ma3MaxPct()).isEqualTo(0.0);
        assertThat(r.noise().bandPct()).isEqualTo(2.0);
        assertThat(r.noise().settlingS()).containsEntry("target-900", 3.0).containsEntry("step-900-to-1200", 3.0)
                .doesNotContainKeys("target-2100", "target-30"); // failed; outside the feasible range
        assertThat(r.goals().get(3).goal()).startsWith("settles within 3 s within the noise floor (band +-2.0 %");
        assertThat(r.summary()).anyMatch(s -> s.startsWith("Change of target 900 -> 1200: achieved 1205"));
        assertThat(r.paper()).anyMatch(row -> row.figure().equals("Fig. 27") && row.ours().startsWith("905 / 905"));
        assertThat(r.summary()).anyMatch(s -> s.startsWith("Feasible range here: 600"))
                .anyMatch(s -> s.contains("target-2100 FAILED"));

        assertThat(dir.resolve("results.json")).exists();
        assertThat(dir.resolve(Adaptive.PARTIAL_RESULTS)).doesNotExist();
        String json = Files.readString(dir.resolve("results.json"));
        assertThat(json).contains("\"feasible\"", "\"settling_s\"", "\"middle_during_per_s\"", "\"series\"",
                "\"low_limit\"");
        AdaptiveReport.write(dir, r);
        assertThat(Files.readString(dir.resolve("RESULTS.md"))).contains("The paper's figures beside ours",
                "150 -> 152", "Targets (Fig. 26)");
        assertThat(dir.resolve("target-900.png")).exists();
        assertThat(dir.resolve("sweep.png")).exists();
    }

    @Test
    void aReanalysisDerivesTheAnalysisAgainFromTheStoredRunsAndKeepsEveryMeasuredFigure() throws Exception {
        AdaptiveResult first = Adaptive.run(AdaptiveParams.full().withWindows(20, 5), null, false,
                "taskClasses:\n  - name: levels\npolicy:\n  name: adaptive\n  target: 150\n", Map.of("x", 1),
                Map.of("cores", 2), dir, "./qosweaver bench adaptive", Progress.NONE, this::fake, f -> List.of("-a"));
        // an analysis of an older version: no noise floor, a goal less
        Path file = dir.resolve("results.json");
        com.fasterxml.jackson.databind.node.ObjectNode json = (com.fasterxml.jackson.databind.node.ObjectNode)
                io.qosweaver.bench.report.JsonWriter.MAPPER.readTree(file.toFile());
        json.remove("noise");
        ((com.fasterxml.jackson.databind.node.ArrayNode) json.get("goals")).remove(3);
        Files.writeString(file, json.toString());

        AdaptiveResult again = Adaptive.reanalyse(dir, Progress.NONE);
        assertThat(again.runs()).isEqualTo(first.runs());
        assertThat(again.generatedAt()).isEqualTo(first.generatedAt());
        assertThat(again.noise()).isEqualTo(first.noise());
        assertThat(again.goals()).isEqualTo(first.goals());
        assertThat(again.parameters()).containsKey("reanalysed_at").containsEntry("x", 1);
        assertThat(Files.readString(file)).contains("\"reanalysed_at\"", "\"noise\"");
        assertThat(dir.resolve("RESULTS.md")).content().contains("within the noise floor");
    }

    @Test
    void givenTargetsRunAsGivenAndTheQuickRunHasNoBaselineNorCollector() throws Exception {
        AdaptiveResult r = Adaptive.run(AdaptiveParams.quick(), List.of(1000.0, 700.0, 1200.0), true,
                "policy:\n  name: adaptive\n", Map.of(), Map.of(), dir, "c", Progress.NONE, this::fake, f -> List.of("-a"));
        assertThat(plans).extracting(Adaptive.RunPlan::name).containsExactly("driver-warmup", "limit-6", "limit-1", "target-1000",
                "target-700", "target-1200");
        assertThat(r.fig25Target()).as("the middle one of those given").isEqualTo(1000.0);
        assertThat(r.targets()).allMatch(t -> t.paperTarget() == null);
        assertThat(r.errors()).isEmpty();
        assertThat(r.goals()).as("no change of target in a quick run").hasSize(3)
                .noneMatch(g -> g.goal().contains("change of target"));
    }

    @Test
    void theNoiseFloorIsTheSpreadOfAFixedLimitsOwnMovingAverageAroundItsMean() {
        // steady part from 2: 100 +- 10 alternating; a 3 s centred average of it strays by 10/3 %, its last
        // (two buckets) not at all
        long[] x = {0, 0, 110, 90, 110, 90, 110, 90, 110, 90, 110, 90};
        double floor = AdaptiveAnalysis.noisePct(x, 2, 3);
        assertThat(floor).isCloseTo(10.0 / 3, within(1e-9));
        assertThat(AdaptiveAnalysis.settlingTimeS(java.util.Arrays.copyOfRange(x, 2, x.length), 100, floor / 100))
                .as("a probe against its own mean, in its floor: settled from the start").isEqualTo(0.0);
        assertThat(AdaptiveAnalysis.noisePct(new long[] {100, 100, 100, 100}, 0, 3)).isZero();
        assertThat(AdaptiveAnalysis.noisePct(new long[] {100, 100}, 2, 3)).as("no steady part").isNull();
        // a target run settles in the wider band where it could not in 2 %
        long[] run = {50, 90, 110, 90, 110, 90, 110, 90};
        assertThat(AdaptiveAnalysis.settlingTimeS(run, 100, 0.02)).as("only the last, half window").isEqualTo(7.0);
        assertThat(AdaptiveAnalysis.settlingTimeS(run, 100, 0.04)).isEqualTo(2.0);
    }

    @Test
    void givenTargetsStepFromTheMiddleOneToTheHighestAndFromThereToTheLowest() {
        AdaptiveParams p = AdaptiveParams.full();
        assertThat(Adaptive.steps(p, List.of(1000.0, 700.0, 1200.0), null))
                .containsExactly(new double[] {1000, 1200}, new double[] {1200, 700});
        assertThat(Adaptive.steps(p, List.of(1000.0), null)).as("one target: nothing to change to").isEmpty();
        assertThat(Adaptive.steps(p, List.of(100.0, 150.0), null)).as("the middle of two is the highest")
                .containsExactly(new double[] {150, 100});
        assertThat(Adaptive.steps(p, null, new AdaptiveResult.FeasibleRange(null, null, 6, 1, "not measured")))
                .isEmpty();
    }
}
