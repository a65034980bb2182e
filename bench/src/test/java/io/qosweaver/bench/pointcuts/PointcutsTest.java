package io.qosweaver.bench.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.testing.TestResults;
import io.qosweaver.pointcuts.GenerationReport;
import io.qosweaver.pointcuts.Profile;
import io.qosweaver.pointcuts.SynchronizedRegions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PointcutsTest {
    @TempDir
    Path dir;

    /** The paper's Fig. 4 (a): f1..f6 in five 10 ms slots. */
    /** The profile in slots of any length, as the experiment reads its files. */
    static java.util.function.LongFunction<io.qosweaver.pointcuts.SlotProfile> slots(Profile p) {
        return n -> io.qosweaver.pointcuts.SlotProfile.of(p, n);
    }

    static Profile fig4() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        return Profile.read(List.of(root.resolve("pointcuts/src/test/resources/fig4.profile")));
    }

    @Test
    void theDefaultSetsAreThePapersEightOursTheCoveringOneAndTheBaselines() {
        List<Pointcuts.ParamSet> sets = Pointcuts.defaultSets(1);
        assertThat(sets).extracting(Pointcuts.ParamSet::name).containsExactly("t10ms-m1", "t10ms-m50", "t10ms-m100",
                "t10ms-m200", "t100ms-m1", "t100ms-m50", "t100ms-m100", "t100ms-m200", "t10ms-m3000", "t10ms-m1-cover",
                "random15", "all", "handwritten");
        assertThat(Pointcuts.defaultSets(3)).extracting(Pointcuts.ParamSet::name).contains("t10ms-m9000", "t10ms-m3-cover");
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        assertThat(root.resolve(Pointcuts.ParamSet.handwritten().file())).isRegularFile();
    }

    @Test
    void setsParseByNameAndBadNamesSayWhatIsKnown() {
        Pointcuts.ParamSet s = Pointcuts.ParamSet.parse("t2.5ms-m7");
        assertThat(s.kind()).isEqualTo(Pointcuts.GENERATED);
        assertThat(s.interval()).isEqualTo(Duration.ofNanos(2_500_000));
        assertThat(s.maxOccurrence()).isEqualTo(7);
        assertThat(s.name()).isEqualTo("t2.5ms-m7");
        assertThat(Pointcuts.ParamSet.parse("random3").maxOccurrence()).isEqualTo(3);
        assertThat(Pointcuts.ParamSet.parse("all").kind()).isEqualTo(Pointcuts.ALL);
        assertThat(Pointcuts.ParamSet.parse("handwritten").kind()).isEqualTo(Pointcuts.FILE);
        assertThatThrownBy(() -> Pointcuts.ParamSet.parse("t10-m1")).hasMessageContaining("unknown parameter set 't10-m1'")
                .hasMessageContaining("t<ms>ms-m<m>");
        assertThatThrownBy(() -> Pointcuts.ParamSet.parse("t10ms-m0")).hasMessageContaining("must be positive");
        assertThatThrownBy(() -> Pointcuts.ParamSet.parse("random0")).hasMessageContaining("unknown");
    }

    @Test
    void generationPerKindOnFig4() throws Exception {
        Profile p = fig4();
        GenerationReport gen = Pointcuts.generate(slots(p), Pointcuts.ParamSet.parse("t10ms-m3"), SynchronizedRegions.NONE, 1, 1.0);
        assertThat(gen.pointcuts()).extracting(GenerationReport.GeneratedPointcut::callee)
                .containsExactlyInAnyOrder("void demo.Fig4.f2()", "void demo.Fig4.f4()");
        GenerationReport all = Pointcuts.generate(slots(p), Pointcuts.ParamSet.all(), SynchronizedRegions.NONE, 1, 1.0);
        assertThat(all.pointcuts()).hasSize(6);
        assertThat(all.selectedJoinPoints()).isEqualTo(p.size());
        GenerationReport r1 = Pointcuts.generate(slots(p), Pointcuts.ParamSet.random(2), SynchronizedRegions.NONE, 42, 1.0);
        GenerationReport r2 = Pointcuts.generate(slots(p), Pointcuts.ParamSet.random(2), SynchronizedRegions.NONE, 42, 1.0);
        assertThat(r1.pointcuts()).hasSize(2).isEqualTo(r2.pointcuts());
        assertThatThrownBy(() -> Pointcuts.generate(slots(p), Pointcuts.ParamSet.handwritten(), SynchronizedRegions.NONE, 1, 1.0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Fig. 4 at m = 1: Fig. 3 takes f1 and f6, the coverage pass adds what the three middle slots need. */
    @Test
    void aCoveringSetCoversEverySlot() throws Exception {
        Pointcuts.ParamSet s = Pointcuts.ParamSet.parse("t10ms-m1-cover");
        assertThat(s).isEqualTo(Pointcuts.ParamSet.covering(java.time.Duration.ofMillis(10), 1));
        assertThat(s.coverAll()).isTrue();
        assertThat(Pointcuts.defaultSets(1)).contains(s);
        GenerationReport plain = Pointcuts.generate(slots(fig4()), Pointcuts.ParamSet.parse("t10ms-m1"),
                SynchronizedRegions.NONE, 1, 1.0);
        GenerationReport covered = Pointcuts.generate(slots(fig4()), s, SynchronizedRegions.NONE, 1, 1.0);
        assertThat(plain.uncoveredSlots()).isEqualTo(3);
        assertThat(covered.uncoveredSlots()).isZero();
        assertThat(covered.coveragePointcuts()).isPositive();
    }

    @Test
    void theSlowdownMakesTheSlotsLongerInProfileTimeForEveryKind() throws Exception {
        Profile p = fig4(); // 43 ms: 5 slots of 10 ms, 3 of 20 ms
        GenerationReport gen = Pointcuts.generate(slots(p), Pointcuts.ParamSet.parse("t10ms-m3"), SynchronizedRegions.NONE, 1, 2.0);
        assertThat(gen.slots()).isEqualTo(3);
        assertThat(gen.profileSlowdown()).isEqualTo(2.0);
        assertThat(gen.intervalNanos()).isEqualTo(10_000_000L);
        GenerationReport all = Pointcuts.generate(slots(p), Pointcuts.ParamSet.all(), SynchronizedRegions.NONE, 1, 2.0);
        assertThat(all.slots()).isEqualTo(3);
        GenerationReport plain = Pointcuts.generate(slots(p), Pointcuts.ParamSet.all(), SynchronizedRegions.NONE, 1, 1.0);
        assertThat(all.intervalMeanNanos()).isEqualTo(plain.intervalMeanNanos() / 2);
    }

    @Test
    void aSetsPolicyIsTheTemplateWithItsControlPointsReplaced() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        String template = Files.readString(root.resolve("examples/policies/river-monitor.yaml"));
        Pointcuts.ParamSet s = Pointcuts.ParamSet.parse("t10ms-m3");
        GenerationReport g = Pointcuts.generate(slots(fig4()), s, SynchronizedRegions.NONE, 1, 1.0);
        String policy = Pointcuts.policy(template, s, g, List.of(Path.of("/tmp/x/chart-2.qwp")));
        assertThat(policy).startsWith("# bench pointcuts, parameter set t10ms-m3 (generated) from [chart-2.qwp].\n")
                .contains("taskClasses:\n").contains("  - name: collector\n").contains("policy:\n  name: importance")
                .contains("call(void demo.Fig4.f2()) && withincode(void demo.Fig4.main(java.lang.String[]))");
        assertThat(policy).as("the template's own control points and their comments are gone")
                .doesNotContain("sun.java2d.marlin").doesNotContain("GENERATED control points")
                .doesNotContain("28 pointcuts select");
        assertThat(policy.split("\ncontrolPoints:", -1)).hasSize(2);
        Path f = Files.writeString(dir.resolve("p.yaml"), policy);
        assertThat(Pointcuts.countControlPoints(f)).isEqualTo(2);
        assertThat(Pointcuts.countControlPoints(root.resolve("examples/policies/handwritten/river-monitor.yaml")))
                .isEqualTo(5);
        Path broken = Files.writeString(dir.resolve("broken.yaml"), policy.replace("controlPoints:", "controlPoint:"));
        assertThatThrownBy(() -> Pointcuts.countControlPoints(broken)).isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("the agent would refuse this policy")
                .hasMessageContaining("unknown top-level key 'controlPoint'");
    }

    /** A -cap set's policy is the same with the always-on cap at the end of its policy section, and loads. */
    @Test
    void aCappedSetsPolicyHasTheAlwaysOnCap() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        String template = Files.readString(root.resolve("examples/policies/river-monitor.yaml"));
        Pointcuts.ParamSet s = Pointcuts.ParamSet.parse("t10ms-m3-cover-cap");
        assertThat(s.name()).isEqualTo("t10ms-m3-cover-cap");
        assertThat(s.coverAll()).isTrue();
        assertThat(s.capped()).isTrue();
        assertThat(Pointcuts.ParamSet.parse("t10ms-m3-cap").coverAll()).isFalse();
        assertThat(Pointcuts.ParamSet.parse("t10ms-m3-cap").capped()).isTrue();
        assertThat(Pointcuts.ParamSet.parse("t10ms-m3").capped()).isFalse();
        assertThatThrownBy(() -> Pointcuts.ParamSet.parse("t10ms-m3-cap-cover")).hasMessageContaining("unknown");
        GenerationReport g = Pointcuts.generate(slots(fig4()), s, SynchronizedRegions.NONE, 1, 1.0);
        String policy = Pointcuts.policy(template, s, g, List.of(Path.of("/tmp/x/chart-2.qwp")));
        assertThat(policy).containsPattern("\npolicy:\n  name: importance\n(.*\n)*  lowCap: 1x\n$");
        Path f = Files.writeString(dir.resolve("capped.yaml"), policy);
        assertThat(Pointcuts.countControlPoints(f)).as("the agent's reader takes it").isEqualTo(2);
        assertThat(Pointcuts.policy(template, Pointcuts.ParamSet.parse("t10ms-m3"), g, List.of())).doesNotContain("lowCap");
    }

    private static ChartLoadRunner.Window window(int clients, double thr, Double cpu, IntervalStats st) {
        return new ChartLoadRunner.Window(clients, 10, (long) (thr * 10), thr, 100.0, 90.0, 300.0, 0,
                st == null ? null : 1000.0, cpu, st);
    }

    @Test
    void aggregationTakesOverheadAgainstTheMeanOfTheOriginalRunsAndKeepsEverySet() throws Exception {
        List<Pointcuts.ParamSet> sets = List.of(Pointcuts.ParamSet.parse("t10ms-m3"), Pointcuts.ParamSet.all(),
                Pointcuts.ParamSet.handwritten());
        Profile p = fig4();
        Map<String, GenerationReport> gen = new LinkedHashMap<>();
        gen.put("t10ms-m3", Pointcuts.generate(slots(p), sets.get(0), SynchronizedRegions.NONE, 1, 1.0));
        gen.put("all", Pointcuts.generate(slots(p), sets.get(1), SynchronizedRegions.NONE, 1, 1.0));
        Map<String, Path> policies = new LinkedHashMap<>();
        for (Pointcuts.ParamSet s : sets) {
            policies.put(s.name(), Files.writeString(dir.resolve(s.name() + ".yaml"),
                    "taskClasses:\n  - name: t\n    servletPath: /t\ncontrolPoints:\n"
                            + "  - \"call(void a.B.c()) && withincode(void a.B.d())\"\n"
                            + "  - \"call(void a.B.e()) && withincode(void a.B.d())\"\npolicy:\n  name: importance\n"));
        }
        List<ChartLoadRunner.Result> originals = List.of(
                new ChartLoadRunner.Result("original", window(40, 10.0, 200.0, null), List.of(), "a.log"),
                new ChartLoadRunner.Result("original", window(40, 12.0, 220.0, null), List.of(), "b.log"));
        Map<String, ChartLoadRunner.Result> without = new LinkedHashMap<>();
        without.put("t10ms-m3", new ChartLoadRunner.Result("t10ms-m3", window(40, 10.89, 212.1, null),
                List.of(window(1, 5, 180.0, new IntervalStats(500, 2.0, 1.0, 1.5, 3.0, 6.0)),
                        window(40, 10, 200.0, new IntervalStats(900, 40.0, 20.0, 35.0, 60.0, 90.0))), "c.log"));
        without.put("all", new ChartLoadRunner.Result("all", window(40, 5.5, 400.0, null),
                List.of(window(1, 3, 300.0, new IntervalStats(10, 0.01, 0.0, 0.01, 0.01, 0.02))), "d.log"));
        Map<String, io.qosweaver.bench.app.ScenarioResult> with = new LinkedHashMap<>();
        with.put("t10ms-m3", TestResults.scenario("t10ms-m3", 15_000, new long[] {900, 1100}, 0.004));
        Map<String, String> errors = new LinkedHashMap<>();
        errors.put("handwritten", "the app exited");
        PointcutsResult.ProfileInfo info = new PointcutsResult.ProfileInfo(List.of("fig4.profile"), p.size(), 1, 7, List.of(),
                List.of(), 1.0, "none", 1.0, List.of(), null, List.of());
        PointcutsResult r = Pointcuts.aggregate(false, "./qosweaver bench pointcuts", Map.of(), Map.of(), info, sets,
                gen, policies, dir, originals, TestResults.scenario("original", 15_000, new long[] {20_000, 25_000}, null), without, with, errors);

        assertThat(r.original().chartThroughputMeanPerS()).isEqualTo(11.0);
        assertThat(r.original().appCpuMsPerChartMean()).isEqualTo(210.0);
        PointcutsResult.SetResult m3 = r.parameterSets().get("t10ms-m3");
        assertThat(m3.pointcuts()).isEqualTo(2);
        assertThat(m3.selectedJoinPoints()).isEqualTo(5);
        assertThat(m3.predictedLongestGapMs()).as("Fig. 4: f2 at 30 ms, then f2 at 43 ms").isEqualTo(13.0);
        assertThat(m3.targetIntervalMs()).isEqualTo(10.0);
        assertThat(m3.maxOccurrence()).isEqualTo(3);
        assertThat(m3.policy()).isEqualTo("t10ms-m3.yaml");
        assertThat(m3.overheadPct()).isEqualTo(1.0);
        assertThat(m3.cpuOverheadPct()).isEqualTo(1.0);
        assertThat(m3.observedIntervalMeanMs()).isEqualTo(2.0);
        assertThat(m3.observed()).containsOnlyKeys("1", "40");
        assertThat(m3.observed().get("40").p99Ms()).isEqualTo(90.0);
        assertThat(m3.collectionTimeMeanMs()).isNotNull();
        assertThat(m3.suspensionTimeMeanMs()).isNotNull();
        PointcutsResult.SetResult all = r.parameterSets().get("all");
        assertThat(all.overheadPct()).isEqualTo(50.0);
        assertThat(all.maxOccurrence()).isNull();
        assertThat(all.collectionTimeMeanMs()).as("no run with collection").isNull();
        PointcutsResult.SetResult hand = r.parameterSets().get("handwritten");
        assertThat(hand.pointcuts()).as("counted from its policy file").isEqualTo(2);
        assertThat(hand.selectedJoinPoints()).isNull();
        assertThat(hand.error()).isEqualTo("the app exited");
        assertThat(r.generationTimeMs()).isEqualTo(m3.generationTimeMs());
        assertThat(r.joinPoints()).isEqualTo(p.size());
        assertThat(r.summary()).anyMatch(l -> l.startsWith("t10ms-m3: 2 pointcuts selecting 5 join points")
                        && l.contains("observed 2.00 ms single-threaded (0.20x the prediction)"))
                .anyMatch(l -> l.contains("slowdown 1.00 (none)"))
                .anyMatch(l -> l.contains("handwritten") && l.contains("FAILED"))
                .anyMatch(l -> l.startsWith("Noise floor"));
        assertThat(r.complete()).isFalse();

        PointcutsReport.write(dir, r);
        assertThat(dir.resolve("index.html")).content().contains("Table 3").contains("data:image/png;base64,");
        assertThat(dir.resolve("RESULTS.md")).content().contains("| t10ms-m3 | generated |");
        assertThat(dir.resolve("interval-single.png")).isRegularFile();
        assertThat(dir.resolve("interval-concurrency.png")).isRegularFile();
        assertThat(dir.resolve("suspension-collection.png")).isRegularFile();
        String json = io.qosweaver.bench.report.JsonWriter.write(r);
        assertThat(json).contains("\"generation_time_ms\"").contains("\"join_points\"")
                .contains("\"parameter_sets\"").contains("\"selected_join_points\"")
                .contains("\"observed_interval_mean_ms\"").contains("\"overhead_pct\"");
    }
}
