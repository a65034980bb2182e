package io.qosweaver.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.qosweaver.pointcuts.fixtures.Locked;
import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The baselines of Table 3: eligibleCandidates ("all"), randomSample ("random 15"), evaluate. */
class BaselinesTest {
    private static final String MAIN = "void demo.Fig4.main(java.lang.String[])";
    private static final String L = "io.qosweaver.pointcuts.fixtures.Locked";

    private static PointcutGenerator generator(long intervalMillis, int m) {
        return new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(intervalMillis), m));
    }

    private static Profile fig4() throws Exception {
        return Profile.read(List.of(PointcutGeneratorTest.resource("fig4.profile")));
    }

    private static Profile text(String text) throws Exception {
        Profile.Builder b = Profile.builder();
        TextProfileReader.read("t", new StringReader(text), b);
        return b.build();
    }

    private static GenerationReport.GeneratedPointcut pc(String caller, String callee) {
        return new GenerationReport.GeneratedPointcut(caller, callee, 0, 0);
    }

    private static GenerationReport.GeneratedPointcut fig4(String f, int joinPoints, int slots) {
        return new GenerationReport.GeneratedPointcut(MAIN, "void demo.Fig4." + f + "()", joinPoints, slots);
    }

    /** The report without its time, which is all two runs can differ in. */
    private static GenerationReport untimed(GenerationReport r) {
        return new GenerationReport(r.intervalNanos(), r.profileSlowdown(), r.maxOccurrence(), r.joinPoints(), r.timelines(), r.slots(),
                r.candidates(), r.candidatesWithinMaxOccurrence(), r.excludedSynchronized(), r.excludedInitializers(),
                r.pointcuts(), r.selectedJoinPoints(), r.intervals(), r.intervalMeanNanos(), r.intervalStdDevNanos(),
                r.longestGapNanos(), r.uncoveredSlots(), r.emptySlots(), 0, r.missingClasses(), r.coveragePointcuts());
    }

    @Test
    void fig4EligibleCandidatesAreF1ToF6WithTheirCounts() throws Exception {
        // m = 1 would exclude all but f1 and f6 from generation; baselines ignore m.
        assertThat(generator(10, 1).eligibleCandidates(fig4())).containsExactly(
                fig4("f1", 1, 1), fig4("f2", 3, 3), fig4("f3", 2, 2), fig4("f4", 2, 2), fig4("f5", 3, 3), fig4("f6", 1, 1));
    }

    @Test
    void evaluatingWhatGenerateReturnedReproducesItsReport() throws Exception {
        Profile p = fig4();
        PointcutGenerator g = generator(10, 3);
        GenerationReport generated = g.generate(p);
        GenerationReport evaluated = g.evaluate(p, generated.pointcuts());
        assertThat(untimed(evaluated)).isEqualTo(untimed(generated));
        assertThat(evaluated.selectedJoinPoints()).isEqualTo(5);
        assertThat(evaluated.intervalMeanNanos()).isEqualTo(10_000_000.0);
        assertThat(evaluated.intervalStdDevNanos()).isEqualTo(generated.intervalStdDevNanos());
        assertThat(evaluated.uncoveredSlots()).isZero();
    }

    @Test
    void evaluatingAllCandidatesSelectsEveryJoinPoint() throws Exception {
        Profile p = fig4();
        PointcutGenerator g = generator(10, 3);
        List<GenerationReport.GeneratedPointcut> all = g.eligibleCandidates(p);
        GenerationReport r = g.evaluate(p, all);
        assertThat(r.pointcuts()).isEqualTo(all);
        assertThat(r.selectedJoinPoints()).isEqualTo(12).isEqualTo(r.joinPoints());
        assertThat(r.intervals()).isEqualTo(11);
        // Join points at 0, 3, 6, 10, 13, 16, 20, 23, 30, 33, 40, 43 ms.
        assertThat(r.intervalMeanNanos()).isCloseTo(43_000_000.0 / 11, within(1e-6));
        assertThat(r.uncoveredSlots()).isZero();
        // The candidate counts stay generation's, with the options' m.
        assertThat(r.maxOccurrence()).isEqualTo(3);
        assertThat(r.candidates()).isEqualTo(6);
        assertThat(r.candidatesWithinMaxOccurrence()).isEqualTo(6);
    }

    @Test
    void evaluateOnAHandComputedCase() throws Exception {
        Profile p = text("""
                0        @1 void a.A.run() void a.A.x()
                4000000  @1 void a.A.run() void a.A.y()
                10000000 @1 void a.A.run() void a.A.x()
                25000000 @1 void a.A.run() void a.A.y()
                30000000 @1 void a.A.run() void a.A.z()
                100000000 @2 void a.A.run() void a.A.x()
                130000000 @2 void a.A.run() void a.A.y()
                """);
        // Thread 1: slots 0..3 (x y | x | y | z); thread 2: slots 4..7 (x | - | - | y).
        GenerationReport r = generator(10, 1).evaluate(p, List.of(pc("void a.A.run()", "void a.A.z()"),
                pc("void a.A.run()", "void a.A.x()")));
        assertThat(r.pointcuts()).containsExactly(
                new GenerationReport.GeneratedPointcut("void a.A.run()", "void a.A.z()", 1, 1),
                new GenerationReport.GeneratedPointcut("void a.A.run()", "void a.A.x()", 3, 3));
        assertThat(r.slots()).isEqualTo(8);
        assertThat(r.emptySlots()).isEqualTo(2);
        // Selected: x@0, x@10, z@30 on thread 1 (intervals 10 and 20 ms), x@100 alone on thread 2.
        assertThat(r.selectedJoinPoints()).isEqualTo(4);
        assertThat(r.intervals()).isEqualTo(2);
        assertThat(r.intervalMeanNanos()).isEqualTo(15_000_000.0);
        assertThat(r.intervalStdDevNanos()).isEqualTo(5_000_000.0);
        // Covered: 0, 1, 3, 4; uncovered: 2, 5, 6 (empty), 7.
        assertThat(r.uncoveredSlots()).isEqualTo(4);
        // x selects 3 > m = 1 join points: m does not apply to a baseline, only to the counts.
        assertThat(r.maxOccurrence()).isEqualTo(1);
        assertThat(r.candidates()).isEqualTo(3);
        assertThat(r.candidatesWithinMaxOccurrence()).isEqualTo(1);
    }

    @Test
    void oneSelectedJoinPointGivesNoInterval() throws Exception {
        GenerationReport r = generator(10, 1).evaluate(fig4(), List.of(pc(MAIN, "void demo.Fig4.f1()")));
        assertThat(r.intervals()).isZero();
        assertThat(r.intervalMeanNanos()).isNaN();
        assertThat(r.uncoveredSlots()).isEqualTo(4);
        assertThat(generator(10, 1).evaluate(fig4(), List.of()).pointcuts()).isEmpty();
    }

    @Test
    void synchronizedAndInitializerCandidatesAreNotEligible() throws Exception {
        String add = "boolean java.util.List.add(java.lang.Object)";
        String lockedBlock = "void " + L + ".lockedBlock(java.util.List, int[])";
        Profile p = text("0 " + lockedBlock + " int " + L + ".helper(int)\n"
                + "1 " + lockedBlock + " int java.util.List.size()\n"
                + "2 void " + L + ".lockedMethod(java.util.List) " + add + "\n"
                + "3 void " + L + ".lockedMethod(java.util.List) " + add + "\n"
                + "4 " + lockedBlock + " void a.B.<init>(int)\n"
                + "5 void a.A.<clinit>() void a.A.x()\n");
        PointcutGenerator g = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(1), 1)
                .withSynchronizedRegions(ClassFileSynchronizedRegions.fromClassLoader(Locked.class.getClassLoader())));
        // lockedMethod's pair occurs twice (> m): excluded from the baselines all the same.
        assertThat(g.eligibleCandidates(p)).containsExactly(
                new GenerationReport.GeneratedPointcut(lockedBlock, "int java.util.List.size()", 1, 1));
        assertThatThrownBy(() -> g.evaluate(p, List.of(pc(lockedBlock, "int " + L + ".helper(int)"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("monitor")
                .hasMessageContaining("call(int " + L + ".helper(int)) && withincode(" + lockedBlock + ")");
        assertThatThrownBy(() -> g.evaluate(p, List.of(pc("void a.A.<clinit>()", "void a.A.x()"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("initializer")
                .hasMessageContaining("call(void a.A.x()) && withincode(void a.A.<clinit>())");
        // Counts as generate gives them (within m only).
        GenerationReport r = g.evaluate(p, g.eligibleCandidates(p));
        assertThat(r.excludedSynchronized()).isEqualTo(1);
        assertThat(r.excludedInitializers()).isEqualTo(2);
        assertThat(r.selectedJoinPoints()).isEqualTo(1);
    }

    @Test
    void fig4WithALambdaLockExcludesF2() throws Exception {
        PointcutGenerator g = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 3)
                .withSynchronizedRegions((caller, callee) -> callee.equals("void demo.Fig4.f2()")));
        assertThat(g.eligibleCandidates(fig4())).extracting(GenerationReport.GeneratedPointcut::callee)
                .doesNotContain("void demo.Fig4.f2()").hasSize(5);
    }

    @Test
    void unknownAndRepeatedPairsAreRejectedByName() throws Exception {
        Profile p = fig4();
        PointcutGenerator g = generator(10, 3);
        assertThatThrownBy(() -> g.evaluate(p, List.of(pc(MAIN, "void demo.Fig4.f9()"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not in the profile")
                .hasMessageContaining("call(void demo.Fig4.f9()) && withincode(" + MAIN + ")");
        // Both signatures known, but never as this pair.
        assertThatThrownBy(() -> g.evaluate(p, List.of(pc("void demo.Fig4.f1()", MAIN))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("call(" + MAIN + ") && withincode(void demo.Fig4.f1())");
        assertThatThrownBy(() -> g.evaluate(p, List.of(pc(MAIN, "void demo.Fig4.f1()"), pc(MAIN, "void demo.Fig4.f1()"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("listed twice");
    }

    @Test
    void randomSampleIsReproducibleDistinctAndInOrder() {
        List<GenerationReport.GeneratedPointcut> all = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            all.add(new GenerationReport.GeneratedPointcut("void a.A.run()", "void a.A.f" + i + "()", i + 1, 1));
        }
        List<GenerationReport.GeneratedPointcut> s = PointcutGenerator.randomSample(all, 15, 7);
        assertThat(s).hasSize(15).doesNotHaveDuplicates().isSubsetOf(all);
        assertThat(s).isEqualTo(PointcutGenerator.randomSample(all, 15, 7));
        List<Integer> positions = s.stream().map(all::indexOf).toList();
        assertThat(positions).isSorted();
        Set<List<GenerationReport.GeneratedPointcut>> distinct = new HashSet<>();
        for (long seed = 0; seed < 10; seed++) {
            distinct.add(PointcutGenerator.randomSample(all, 15, seed));
        }
        assertThat(distinct).hasSizeGreaterThan(1);

        assertThat(PointcutGenerator.randomSample(all, 40, 1)).isEqualTo(all);
        assertThat(PointcutGenerator.randomSample(all, 100, 1)).isEqualTo(all);
        assertThat(PointcutGenerator.randomSample(all, 0, 1)).isEmpty();
        assertThatThrownBy(() -> PointcutGenerator.randomSample(all, -1, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void randomSampleIsRoughlyUniform() {
        List<GenerationReport.GeneratedPointcut> all = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            all.add(new GenerationReport.GeneratedPointcut("void a.A.run()", "void a.A.f" + i + "()", 1, 1));
        }
        int[] hits = new int[6];
        for (long seed = 0; seed < 6_000; seed++) {
            for (GenerationReport.GeneratedPointcut p : PointcutGenerator.randomSample(all, 2, seed)) {
                hits[all.indexOf(p)]++;
            }
        }
        // Expected 2,000 each (sd about 37).
        for (int h : hits) {
            assertThat(h).isBetween(1_800, 2_200);
        }
    }

    // ---- randomized ----

    /** m1 calls f1 inside a monitor. */
    private static final SynchronizedRegions M1_LOCKS_F1 =
            (caller, callee) -> caller.equals("void r.C.m1()") && callee.equals("int r.D.f1(int[])");

    @Test
    void evaluatingGeneratedPointcutsReproducesGenerateOnRandomProfiles() {
        Random rnd = new Random(20240607L);
        for (int round = 0; round < 400; round++) {
            Profile p = RandomProfiles.of(rnd, true);
            long interval = 3_000 + rnd.nextInt(20_000);
            int m = 1 + rnd.nextInt(5);
            PointcutGenerator g = new PointcutGenerator(new PointcutGenerator.Options(Duration.ofNanos(interval), m,
                    rnd.nextBoolean() ? SynchronizedRegions.NONE : M1_LOCKS_F1));
            GenerationReport generated = g.generate(p);
            GenerationReport evaluated = g.evaluate(p, generated.pointcuts());
            assertThat(untimed(evaluated)).as("round %d, interval %d, m %d", round, interval, m).isEqualTo(untimed(generated));
        }
    }

    @Test
    void evaluateAgreesWithANaiveComputationOnRandomSamples() {
        Random rnd = new Random(20240608L);
        for (int round = 0; round < 400; round++) {
            Profile p = RandomProfiles.of(rnd, true);
            long interval = 3_000 + rnd.nextInt(20_000);
            PointcutGenerator g = new PointcutGenerator(new PointcutGenerator.Options(Duration.ofNanos(interval),
                    1 + rnd.nextInt(5), M1_LOCKS_F1));
            List<GenerationReport.GeneratedPointcut> all = g.eligibleCandidates(p);
            for (GenerationReport.GeneratedPointcut c : all) {
                assertThat(c.callee()).doesNotContain("<init>");
                assertThat(c.caller().equals("void r.C.m1()") && c.callee().equals("int r.D.f1(int[])")).isFalse();
            }
            List<GenerationReport.GeneratedPointcut> chosen = PointcutGenerator.randomSample(all, rnd.nextInt(4), rnd.nextLong());
            GenerationReport r = g.evaluate(p, chosen);

            // Naive: walk each timeline, slots from its first join point, two-pass mean and sd.
            Set<String> names = new HashSet<>();
            for (GenerationReport.GeneratedPointcut c : chosen) {
                names.add(c.pointcut());
            }
            List<Double> gaps = new ArrayList<>();
            Set<Integer> covered = new HashSet<>();
            long selected = 0;
            int offset = 0;
            for (int tl = 0; tl < p.timelineCount(); tl++) {
                int from = p.timelineStart(tl);
                int to = p.timelineStart(tl + 1);
                long t0 = p.time(from);
                Long prev = null;
                for (int k = from; k < to; k++) {
                    JoinPoint jp = p.joinPoint(k);
                    if (names.contains(GenerationReport.pointcutText(jp.caller(), jp.callee()))) {
                        selected++;
                        covered.add(offset + (int) ((jp.timeNanos() - t0) / interval));
                        if (prev != null) {
                            gaps.add((double) (jp.timeNanos() - prev));
                        }
                        prev = jp.timeNanos();
                    }
                }
                offset += (int) ((p.time(to - 1) - t0) / interval) + 1;
            }
            assertThat(r.slots()).isEqualTo(offset);
            assertThat(r.selectedJoinPoints()).as("round %d", round).isEqualTo(selected);
            assertThat(r.uncoveredSlots()).as("round %d", round).isEqualTo(offset - covered.size());
            assertThat(r.intervals()).isEqualTo(gaps.size());
            assertThat(r.pointcuts()).isEqualTo(chosen);
            if (gaps.isEmpty()) {
                assertThat(r.intervalMeanNanos()).isNaN();
            } else {
                double mean = gaps.stream().mapToDouble(Double::doubleValue).average().getAsDouble();
                double var = gaps.stream().mapToDouble(d -> (d - mean) * (d - mean)).sum() / gaps.size();
                assertThat(r.intervalMeanNanos()).as("round %d", round).isCloseTo(mean, within(1e-6 * Math.max(1, mean)));
                assertThat(r.intervalStdDevNanos()).as("round %d", round).isCloseTo(Math.sqrt(var), within(1e-3));
            }
        }
    }
}
