package io.qosweaver.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class PointcutGeneratorTest {
    private static final String MAIN = "void demo.Fig4.main(java.lang.String[])";

    static Path resource(String name) throws URISyntaxException {
        return Path.of(PointcutGeneratorTest.class.getResource("/" + name).toURI());
    }

    @Test
    void anyMaximumOccurrenceUpToTheLargestIntWorks() throws Exception {
        Profile p = Profile.read(List.of(resource("fig4.profile")));
        GenerationReport huge = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), Integer.MAX_VALUE))
                .generate(p);
        GenerationReport large = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 1_000_000))
                .generate(p);
        assertThat(huge.pointcuts()).isEqualTo(large.pointcuts()).isNotEmpty();
    }

    @Test
    void fig4GivesThePointcutsSelectingF2AndF4() throws Exception {
        Profile p = Profile.read(List.of(resource("fig4.profile")));
        GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 3)).generate(p);

        assertThat(r.pointcuts()).extracting(GenerationReport.GeneratedPointcut::callee)
                .containsExactlyInAnyOrder("void demo.Fig4.f2()", "void demo.Fig4.f4()");
        assertThat(r.slots()).isEqualTo(5);
        assertThat(r.uncoveredSlots()).isZero();
        assertThat(r.selectedJoinPoints()).isEqualTo(5);
        assertThat(r.candidates()).isEqualTo(6);
        // One selected call per slot: f2@3, f4@10, f4@20, f2@30, f2@43 ms.
        assertThat(r.intervalMeanNanos()).isEqualTo(10_000_000.0);
        assertThat(r.controlPointsYaml()).contains(
                "  - \"call(void demo.Fig4.f2()) && withincode(" + MAIN + ")\"\n",
                "  - \"call(void demo.Fig4.f4()) && withincode(" + MAIN + ")\"\n");
    }

    @Test
    void theLongestGapCountsFromTheTimelinesStartAndToItsEnd() throws Exception {
        Profile p = Profile.read(List.of(resource("fig4.profile")));
        GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 3)).generate(p);
        assertThat(r.longestGapNanos()).as("the brute-force longest gap").isEqualTo(maxGap(p, r)).isPositive();
        assertThat(r.toText()).contains("longest gap");
        assertThat(r.toMap()).containsKey("predicted_longest_gap_ms");

        String one = "0 void a.A.run() void a.A.x()\n50000000 void a.A.run() void a.A.y()\n";
        Profile.Builder builder = Profile.builder();
        TextProfileReader.read("one", new StringReader(one), builder.source("one"));
        GenerationReport none = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 1))
                .evaluate(builder.build(), List.of());
        assertThat(none.longestGapNanos()).as("nothing selected: the whole timeline").isEqualTo(50_000_000.0);
    }

    /** The longest gap by brute force over the profile's join points. */
    private static double maxGap(Profile p, GenerationReport r) {
        Set<String> sel = new HashSet<>();
        r.pointcuts().forEach(x -> sel.add(x.caller() + "|" + x.callee()));
        double best = 0;
        for (int tl = 0; tl < p.timelineCount(); tl++) {
            long prev = p.time(p.timelineStart(tl));
            for (int k = p.timelineStart(tl); k < p.timelineStart(tl + 1); k++) {
                if (sel.contains(p.signature(p.callerId(k)) + "|" + p.signature(p.calleeId(k)))) {
                    best = Math.max(best, p.time(k) - prev);
                    prev = p.time(k);
                }
            }
            best = Math.max(best, p.time(p.timelineStart(tl + 1) - 1) - prev);
        }
        return best;
    }

    @Test
    void fig4IntermediateStepsMatchThePaper() throws Exception {
        Profile p = Profile.read(List.of(resource("fig4.profile")));
        // (b): m = 1 gives f1 and f6.
        assertThat(callees(new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 1)).generate(p)))
                .containsExactly("void demo.Fig4.f1()", "void demo.Fig4.f6()");
        // (c): m = 2 adds f4, not f3.
        assertThat(callees(new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 2)).generate(p)))
                .containsExactly("void demo.Fig4.f1()", "void demo.Fig4.f6()", "void demo.Fig4.f4()");
    }

    private static List<String> callees(GenerationReport r) {
        return r.pointcuts().stream().map(GenerationReport.GeneratedPointcut::callee).toList();
    }

    @Test
    void mergesProfilesSlicingEachTimelineSeparately() throws Exception {
        String a = "0 void a.A.run() void a.A.x()\n5000000 void a.A.run() void a.A.y()\n";
        // Starts at a different clock origin: its first join point opens its own slot 0.
        String b = "900000000 void a.A.run() void a.A.y()\n905000000 void a.A.run() void a.A.x()\n";
        Profile.Builder builder = Profile.builder();
        TextProfileReader.read("a", new StringReader(a), builder.source("a"));
        TextProfileReader.read("b", new StringReader(b), builder.source("b"));
        Profile p = builder.build();
        assertThat(p.timelineCount()).isEqualTo(2);

        GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 2)).generate(p);
        // x and y occur once in each file: two join points each, covering slot 0 of both timelines;
        // the tie is broken by the pointcut text.
        assertThat(r.slots()).isEqualTo(2);
        assertThat(callees(r)).containsExactly("void a.A.x()");
        assertThat(r.pointcuts().get(0).joinPoints()).isEqualTo(2);
        assertThat(r.uncoveredSlots()).isZero();
    }

    @Test
    void threadsOfOneProfileAreSeparateTimelines() throws Exception {
        String text = "0 @7 void a.A.run() void a.A.x()\n0 @8 void a.A.run() void a.A.x()\n25000000 @8 void a.A.run() void a.A.y()\n";
        Profile.Builder builder = Profile.builder();
        TextProfileReader.read("t", new StringReader(text), builder);
        Profile p = builder.build();
        assertThat(p.timelineCount()).isEqualTo(2);
        GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 2)).generate(p);
        // thread 7: 1 slot; thread 8: 3 slots (0, 1 empty, 2).
        assertThat(r.slots()).isEqualTo(4);
        assertThat(r.emptySlots()).isEqualTo(1);
        assertThat(r.uncoveredSlots()).isEqualTo(1);
        assertThat(callees(r)).containsExactlyInAnyOrder("void a.A.y()", "void a.A.x()");
    }

    @Test
    void constructorsAndInitializersAreNeverProposed() throws Exception {
        String text = "0 void a.A.run() void a.B.<init>(int)\n20000000 void a.A.<clinit>() void a.A.x()\n";
        Profile.Builder builder = Profile.builder();
        TextProfileReader.read("t", new StringReader(text), builder);
        GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 1)).generate(builder.build());
        assertThat(r.pointcuts()).isEmpty();
        assertThat(r.excludedInitializers()).isEqualTo(2);
        assertThat(r.controlPointsYaml()).contains("controlPoints: []");
    }

    @Test
    void synchronizedCallsAreExcludedWhenAsked() throws Exception {
        Profile p = Profile.read(List.of(resource("fig4.profile")));
        SynchronizedRegions f2Locked = (caller, callee) -> callee.equals("void demo.Fig4.f2()");
        GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 3)
                .withSynchronizedRegions(f2Locked)).generate(p);
        assertThat(callees(r)).doesNotContain("void demo.Fig4.f2()");
        assertThat(r.excludedSynchronized()).isEqualTo(1);
    }

    // ---- the profile slowdown: slots in profile time, intervals reported in real time ----

    @Test
    void aProfileSlowedDownByKGivesWithSlowdownKWhatTheUnslowedProfileGives() throws Exception {
        Random rnd = new Random(20261123L);
        for (int round = 0; round < 200; round++) {
            long seed = rnd.nextLong();
            Profile real = RandomProfiles.of(new Random(seed), false);
            int k = 2 + rnd.nextInt(30);
            Profile profiled = stretched(real, k);
            long interval = 3_000 + rnd.nextInt(20_000);
            int m = 1 + rnd.nextInt(5);
            GenerationReport expected = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofNanos(interval), m))
                    .generate(real);
            GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofNanos(interval), m)
                    .withProfileSlowdown(k)).generate(profiled);
            assertThat(r.pointcuts()).as("round %d, k %d", round, k).isEqualTo(expected.pointcuts());
            assertThat(r.slots()).isEqualTo(expected.slots());
            assertThat(r.uncoveredSlots()).isEqualTo(expected.uncoveredSlots());
            assertThat(r.intervalNanos()).isEqualTo(interval);
            assertThat(r.profileSlowdown()).isEqualTo(k);
            if (!Double.isNaN(expected.intervalMeanNanos())) {
                assertThat(r.intervalMeanNanos()).isCloseTo(expected.intervalMeanNanos(), org.assertj.core.data.Offset.offset(1e-6));
                assertThat(r.intervalStdDevNanos()).isCloseTo(expected.intervalStdDevNanos(), org.assertj.core.data.Offset.offset(1e-6));
            }
        }
    }

    @Test
    void fig4ProfiledTwentyTimesSlowerNeedsTheSlowdownToKeepItsSlots() throws Exception {
        Profile p = stretched(Profile.read(List.of(resource("fig4.profile"))), 20);
        // taken as real time, 10 ms slots cut the stretched profile into 20 times as many slots
        GenerationReport naive = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 3)).generate(p);
        assertThat(naive.slots()).isEqualTo(87); // 860 ms of profile / 10 ms + 1
        GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 3)
                .withProfileSlowdown(20)).generate(p);
        assertThat(callees(r)).containsExactlyInAnyOrder("void demo.Fig4.f2()", "void demo.Fig4.f4()");
        assertThat(r.slots()).isEqualTo(5);
        assertThat(r.intervalMeanNanos()).isEqualTo(10_000_000.0);
        assertThat(r.toText()).contains("slots of 200.000 ms of profile time: the profile ran 20.00x slower");
        assertThat(r.controlPointsYaml()).contains("profile 20.00x slower than real time");
        assertThat(r.toMap()).containsEntry("profile_slowdown", 20.0);
    }

    @Test
    void aSlowdownThatIsNotAPositiveNumberIsRejected() {
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> PointcutGenerator.Options.of(Duration.ofMillis(10), 1).withProfileSlowdown(bad))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("profile slowdown");
        }
    }

    /** The same join points with every time stamp multiplied by k (a run k times slower). */
    private static Profile stretched(Profile p, int k) {
        Profile.Builder b = Profile.builder();
        for (int tl = 0; tl < p.timelineCount(); tl++) {
            b.source(p.timelineName(tl));
            for (int i = p.timelineStart(tl); i < p.timelineStart(tl + 1); i++) {
                JoinPoint jp = p.joinPoint(i);
                b.joinPoint(jp.timeNanos() * k, jp.threadId(), jp.caller(), jp.callee());
            }
        }
        return b.build();
    }

    // ---- randomized comparison with a naive reference of the same rules ----

    @Test
    void agreesWithBruteForceOnRandomProfiles() throws Exception {
        Random rnd = new Random(20240605L);
        for (int round = 0; round < 400; round++) {
            Profile p = RandomProfiles.of(rnd, false);
            long interval = 3_000 + rnd.nextInt(20_000);
            int m = 1 + rnd.nextInt(5);
            GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofNanos(interval), m)).generate(p);
            Reference ref = new Reference(p, interval, m);
            List<String> expected = ref.run();
            assertThat(r.pointcuts()).extracting(GenerationReport.GeneratedPointcut::pointcut)
                    .as("round %d, interval %d, m %d", round, interval, m).containsExactlyElementsOf(expected);
            assertThat(r.uncoveredSlots()).as("round %d", round).isEqualTo(ref.slot.size());
            assertThat(r.slots()).isEqualTo(ref.slots);
        }
    }

    /** Fig. 3 with sets and strings, written for clarity, not speed. */
    private static final class Reference {
        final Map<String, List<Integer>> select = new LinkedHashMap<>();
        final Map<String, Set<Integer>> cover = new LinkedHashMap<>();
        final TreeSet<Integer> slot = new TreeSet<>();
        final int m;
        int slots;

        Reference(Profile p, long interval, int m) {
            this.m = m;
            int offset = 0;
            for (int tl = 0; tl < p.timelineCount(); tl++) {
                int from = p.timelineStart(tl);
                int to = p.timelineStart(tl + 1);
                long t0 = p.time(from);
                long last = t0;
                for (int k = from; k < to; k++) {
                    JoinPoint jp = p.joinPoint(k);
                    String pc = GenerationReport.pointcutText(jp.caller(), jp.callee());
                    select.computeIfAbsent(pc, x -> new ArrayList<>()).add(k);
                    cover.computeIfAbsent(pc, x -> new TreeSet<>()).add(offset + (int) ((jp.timeNanos() - t0) / interval));
                    last = Math.max(last, jp.timeNanos());
                }
                offset += (int) ((last - t0) / interval) + 1;
            }
            slots = offset;
            for (int s = 0; s < slots; s++) {
                slot.add(s);
            }
        }

        List<String> run() {
            LinkedHashSet<String> gen = new LinkedHashSet<>();
            for (int i = 1; i <= m; i++) {
                final int fi = i;
                List<String> pcI = select.keySet().stream().filter(pc -> select.get(pc).size() == fi).toList();
                for (int j = 0; j < slots; j++) {
                    if (!slot.contains(j)) {
                        continue;
                    }
                    final int fj = j;
                    List<String> pcIJ = pcI.stream().filter(pc -> cover.get(pc).contains(fj)).toList();
                    if (pcIJ.isEmpty()) {
                        continue;
                    }
                    int most = pcIJ.stream().mapToInt(this::newSlots).max().getAsInt();
                    List<String> pcBest = pcIJ.stream().filter(pc -> newSlots(pc) == most).toList();
                    String best = pcBest.stream().min(Comparator
                            .comparingInt((String pc) -> gen.stream().mapToInt(g -> select.get(g).size()).sum()
                                    - retired(gen, pc).stream().mapToInt(g -> select.get(g).size()).sum())
                            .thenComparingInt(pc -> gen.size() - retired(gen, pc).size())
                            .thenComparing(Comparator.naturalOrder())).get();
                    gen.removeAll(retired(gen, best));
                    gen.add(best);
                    slot.removeAll(cover.get(best));
                }
            }
            return new ArrayList<>(gen);
        }

        int newSlots(String pc) {
            Set<Integer> s = new HashSet<>(cover.get(pc));
            s.retainAll(slot);
            return s.size();
        }

        List<String> retired(Set<String> gen, String best) {
            return gen.stream().filter(g -> cover.get(best).containsAll(cover.get(g))).toList();
        }
    }
}
