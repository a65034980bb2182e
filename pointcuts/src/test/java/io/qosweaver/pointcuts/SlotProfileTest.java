package io.qosweaver.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Slot summaries (binary profile version 2) and generation from them. */
class SlotProfileTest {
    @TempDir
    Path dir;

    /** One random profile, kept three ways: in memory, as version 1 files and as version 2 files. */
    private record Random3(Profile memory, List<Path> v1, List<Path> v2) {}

    private Random3 randomProfile(Random rnd, int iteration, long baseSlot) throws IOException {
        Profile.Builder memory = Profile.builder();
        List<Path> v1 = new ArrayList<>();
        List<Path> v2 = new ArrayList<>();
        int files = 1 + rnd.nextInt(2);
        int callers = 1 + rnd.nextInt(3);
        int callees = 2 + rnd.nextInt(6);
        for (int f = 0; f < files; f++) {
            Path p1 = dir.resolve("r" + iteration + "-" + f + ".v1");
            Path p2 = dir.resolve("r" + iteration + "-" + f + ".v2");
            memory.source(p1.toString());
            try (BinaryProfileWriter w1 = BinaryProfileWriter.open(p1);
                 SlotProfileWriter w2 = SlotProfileWriter.open(p2, ProfileWriter.Limits.DEFAULT, baseSlot, 0)) {
                int threads = 1 + rnd.nextInt(3);
                for (int th = 1; th <= threads; th++) {
                    long time = rnd.nextInt(1000);
                    int n = 1 + rnd.nextInt(60);
                    for (int k = 0; k < n; k++) {
                        time += rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(3000);
                        String caller = "void r.C.m" + rnd.nextInt(callers) + "()";
                        String callee = "int r.D.f" + rnd.nextInt(callees) + "(int[])";
                        memory.joinPoint(time, th, caller, callee);
                        w1.joinPoint(time, th, caller, callee);
                        w2.joinPoint(time, th, caller, callee);
                    }
                }
            }
            v1.add(p1);
            v2.add(p2);
        }
        return new Random3(memory.build(), v1, v2);
    }

    @Test
    void generationFromSummariesIsFig3OnTheSameSlots() throws IOException {
        Random rnd = new Random(42);
        long[] bases = {1, 7, 100, 250, 1000};
        for (int i = 0; i < 200; i++) {
            long base = bases[rnd.nextInt(bases.length)];
            long t = base * (1 + rnd.nextInt(5));
            int m = 1 + rnd.nextInt(6);
            Random3 p = randomProfile(rnd, i, base);
            PointcutGenerator g = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofNanos(t), m));
            GenerationReport exact = g.generate(p.memory());
            for (List<Path> files : List.of(p.v1(), p.v2())) {
                GenerationReport r = g.generate(SlotProfile.read(files, t));
                String what = "iteration " + i + ", base " + base + ", t " + t + ", m " + m + ", " + files.get(0);
                assertThat(r.pointcuts()).as(what).isEqualTo(exact.pointcuts());
                assertThat(r.joinPoints()).as(what).isEqualTo(exact.joinPoints());
                assertThat(r.selectedJoinPoints()).as(what).isEqualTo(exact.selectedJoinPoints());
                assertThat(r.slots()).as(what).isEqualTo(exact.slots());
                assertThat(r.uncoveredSlots()).as(what).isEqualTo(exact.uncoveredSlots());
                assertThat(r.emptySlots()).as(what).isEqualTo(exact.emptySlots());
                assertThat(r.candidates()).as(what).isEqualTo(exact.candidates());
                assertThat(r.intervals()).as(what).isEqualTo(exact.intervals());
                if (exact.intervals() > 0) {
                    // the mean telescopes: first and last selected points are exact
                    assertThat(r.intervalMeanNanos()).as(what).isCloseTo(exact.intervalMeanNanos(), within(1e-6));
                }
                // a gap longer than a slot crosses slots, where the summary knows it exactly
                if (exact.longestGapNanos() >= t) {
                    assertThat(r.longestGapNanos()).as(what).isEqualTo(exact.longestGapNanos());
                } else {
                    assertThat(r.longestGapNanos()).as(what).isLessThan(t);
                }
            }
        }
    }

    @Test
    void theProbeCostIsTakenOutOfEachThreadsTime() throws IOException {
        Path f = dir.resolve("cost.qwp");
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 1000, 100)) {
            for (int k = 0; k < 100; k++) {
                // 50 ns of the application and 100 ns of probe between two join points
                w.joinPoint(5_000 + k * 150L, 7, "void a.A.run()", "void a.A.f()");
                w.joinPoint(9_000 + k * 150L, 8, "void a.A.run()", "void a.A.g()");
            }
        }
        SlotProfile p = SlotProfile.read(List.of(f), 1000);
        assertThat(p.timelines()).isEqualTo(2);
        for (int tl = 0; tl < 2; tl++) {
            // 100 join points 50 ns apart: 4,950 ns, five slots of 20 join points
            assertThat(p.timelineEnd(tl) - p.timelineStart(tl)).isEqualTo(99 * 50);
            assertThat(p.firstSlot(tl + 1) - p.firstSlot(tl)).isEqualTo(5);
            for (int s = p.firstSlot(tl); s < p.firstSlot(tl + 1); s++) {
                int e = p.entryStart(s);
                assertThat(p.entryCount(e)).isEqualTo(20);
                assertThat(p.entryFirst(e)).isEqualTo(0);
                assertThat(p.entryLast(e)).isEqualTo(950);
            }
        }
        assertThat(p.warnings()).isEmpty();
        BinaryProfileReader.Summary s = BinaryProfileReader.summary(f);
        assertThat(s.meta()).containsEntry(BinaryProfileFormat.PROBE_COST_NANOS, "100")
                .containsEntry(BinaryProfileFormat.TIME_BASE, "real: 100 ns taken out per join point");
        assertThat(s.joinPoints()).isEqualTo(200);
        assertThat(s.slotNanos()).isEqualTo(1000);
    }

    @Test
    void aCostAboveTheTimeBetweenJoinPointsIsClampedAndReported() throws IOException {
        Path f = dir.resolve("over.qwp");
        long clamped;
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 1000, 200)) {
            for (int k = 0; k < 10; k++) {
                w.joinPoint(k * 150L, 1, "void a.A.run()", "void a.A.f()");
            }
            clamped = w.clamped();
        }
        assertThat(clamped).isEqualTo(9);
        SlotProfile p = SlotProfile.read(List.of(f), 1000);
        assertThat(p.timelineEnd(0)).isEqualTo(p.timelineStart(0));
        assertThat(p.warnings()).singleElement().asString().contains("9 gaps between join points were shorter than the probe's cost taken out");
    }

    @Test
    void anIntervalThatIsNotAMultipleOfTheBaseSlotIsRefusedByName() throws IOException {
        Path f = dir.resolve("base.qwp");
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 1_000_000, 0)) {
            w.joinPoint(0, 1, "void a.A.run()", "void a.A.f()");
        }
        assertThatThrownBy(() -> SlotProfile.read(List.of(f), 1_500_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(f + " has slots of 1 ms")
                .hasMessageContaining("must be a multiple of it, not 1500 us");
        assertThat(SlotProfile.read(List.of(f), 10_000_000).slots()).isEqualTo(1);
    }

    @Test
    void aVersion1FileWhoseThreadGoesBackInTimeIsSortedLikeTheInMemoryProfile() throws IOException {
        Path f = dir.resolve("unsorted.v1");
        Profile.Builder memory = Profile.builder().source(f.toString());
        Random rnd = new Random(7);
        try (BinaryProfileWriter w = BinaryProfileWriter.open(f)) {
            for (int k = 0; k < 300; k++) {
                long time = rnd.nextInt(100_000);
                String callee = "int r.D.f" + rnd.nextInt(5) + "()";
                w.joinPoint(time, 1 + rnd.nextInt(2), "void r.C.m()", callee);
            }
        }
        memory.read(f);
        PointcutGenerator g = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofNanos(1000), 40));
        GenerationReport exact = g.generate(memory.build());
        GenerationReport streamed = g.generate(SlotProfile.read(List.of(f), 1000));
        assertThat(streamed.pointcuts()).isEqualTo(exact.pointcuts());
        assertThat(streamed.uncoveredSlots()).isEqualTo(exact.uncoveredSlots());
        assertThat(streamed.slots()).isEqualTo(exact.slots());
    }

    @Test
    void corruptSlotProfilesNameTheOffsetAndTheProblem() throws IOException {
        Path f = dir.resolve("ok.qwp");
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 1000, 0)) {
            w.joinPoint(0, 1, "void a.A.run()", "void a.A.f()");
            w.joinPoint(1500, 1, "void a.A.run()", "void a.A.f()");
        }
        byte[] ok = Files.readAllBytes(f);
        Path cut = dir.resolve("cut.qwp");
        Files.write(cut, java.util.Arrays.copyOf(ok, ok.length - 3));
        assertThatThrownBy(() -> SlotProfile.read(List.of(cut), 1000)).isInstanceOf(ProfileFormatException.class)
                .hasMessageContaining(cut + ": at byte offset").hasMessageContaining("truncated");

        // the second slot record's slot index 1 rewritten to 0: a slot that does not follow the first
        Path back = dir.resolve("back.qwp");
        Files.write(back, slotIndexOfSecondSlot(ok, 0));
        assertThatThrownBy(() -> SlotProfile.read(List.of(back), 1000)).isInstanceOf(ProfileFormatException.class)
                .hasMessageContaining("corrupt: slot 0 of timeline 0 does not follow its slot 0");

        Path v9 = dir.resolve("v9.qwp");
        byte[] nine = ok.clone();
        nine[4] = 9;
        Files.write(v9, nine);
        assertThatThrownBy(() -> SlotProfile.read(List.of(v9), 1000))
                .hasMessageContaining("unsupported binary profile version 9");
        assertThatThrownBy(() -> BinaryProfileReader.read(f, (t, th, a, b) -> { }))
                .hasMessageContaining("a slot profile (version 2) holds slot summaries");
    }

    private static byte[] slotIndexOfSecondSlot(byte[] file, int index) {
        byte[] b = file.clone();
        int seen = 0;
        // tags are unambiguous here: ids, counts and offsets of this tiny file are all below 0x06
        for (int i = 6; i < b.length; i++) {
            if (b[i] == BinaryProfileFormat.SLOT && ++seen == 2) {
                b[i + 2] = (byte) index;
                return b;
            }
        }
        throw new AssertionError("no second slot record");
    }

    @Test
    void theSummaryGrowsWithSlotsAndPairsNotWithJoinPoints() throws IOException {
        Path f = dir.resolve("loop.qwp");
        try (SlotProfileWriter w = new SlotProfileWriter(OutputStream.nullOutputStream(), ProfileWriter.Limits.DEFAULT,
                1_000_000, 0)) {
            for (long k = 0; k < 3_000_000; k++) {
                w.joinPoint(k * 10, 1, "void a.A.loop()", k % 2 == 0 ? "void a.A.f()" : "void a.A.g()");
            }
            assertThat(w.bytesWritten()).isLessThan(2_000);
        }
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 1_000_000, 0)) {
            for (long k = 0; k < 3_000_000; k++) {
                w.joinPoint(k * 10, 1, "void a.A.loop()", k % 2 == 0 ? "void a.A.f()" : "void a.A.g()");
            }
        }
        SlotProfile p = SlotProfile.read(List.of(f), 1_000_000);
        assertThat(p.joinPoints()).isEqualTo(3_000_000);
        assertThat(p.slots()).isEqualTo(30);
        assertThat(p.entries()).isEqualTo(60);
    }

    /**
     * The coverage pass on 200 random profiles: Fig. 3's choice comes first, unchanged; then every
     * slot with a join point has a control point; and no added pointcut could be left out.
     */
    @Test
    void theCoveragePassCoversEverySlotWithAJoinPointAndAddsNothingNeedless() throws IOException {
        Random rnd = new Random(11);
        for (int i = 0; i < 200; i++) {
            long t = 100 * (1 + rnd.nextInt(5));
            int m = 1 + rnd.nextInt(3);
            Random3 p = randomProfile(rnd, 1000 + i, 100);
            PointcutGenerator.Options fig3 = PointcutGenerator.Options.of(Duration.ofNanos(t), m);
            GenerationReport plain = new PointcutGenerator(fig3).generate(p.memory());
            GenerationReport covered = new PointcutGenerator(fig3.withCoverAll(true)).generate(p.memory());
            String what = "iteration " + i;
            assertThat(covered.pointcuts().subList(0, plain.pointcuts().size())).as(what).isEqualTo(plain.pointcuts());
            assertThat(covered.coveragePointcuts()).as(what)
                    .isEqualTo(covered.pointcuts().size() - plain.pointcuts().size());
            assertThat(covered.uncoveredSlots()).as(what).isEqualTo(covered.emptySlots());
            List<GenerationReport.GeneratedPointcut> added = covered.pointcuts().subList(plain.pointcuts().size(),
                    covered.pointcuts().size());
            PointcutGenerator g = new PointcutGenerator(fig3);
            for (GenerationReport.GeneratedPointcut leftOut : added) {
                List<GenerationReport.GeneratedPointcut> without = new ArrayList<>(covered.pointcuts());
                without.remove(leftOut);
                assertThat(g.evaluate(p.memory(), without).uncoveredSlots()).as(what + ", without " + leftOut)
                        .isGreaterThan(covered.emptySlots());
            }
            assertThat(plain.coveragePointcuts()).isEqualTo(-1);
        }
    }

    /**
     * Three slots, a pair that occurs once in each, and three pairs that occur twice in one slot
     * each: Fig. 3 with a large m takes the three cheap classes first (six control points), the
     * coverage pass the one pair that covers all three (three).
     */
    @Test
    void theCoveragePassPaysPerSlotCovered() {
        Profile.Builder b = Profile.builder();
        String run = "void a.A.run()";
        for (int s = 0; s < 3; s++) {
            long base = s * 1000L;
            b.joinPoint(base + 10, 1, run, "void a.A.every()");
            b.joinPoint(base + 20, 1, run, "void a.A.only" + s + "()");
            b.joinPoint(base + 30, 1, run, "void a.A.only" + s + "()");
        }
        Profile p = b.build();
        PointcutGenerator.Options o = PointcutGenerator.Options.of(Duration.ofNanos(1000), 1);
        GenerationReport covered = new PointcutGenerator(o.withCoverAll(true)).generate(p);
        assertThat(covered.pointcuts()).extracting(GenerationReport.GeneratedPointcut::callee)
                .containsExactly("void a.A.every()");
        assertThat(covered.selectedJoinPoints()).isEqualTo(3);
        assertThat(covered.coverageMaxOccurrence()).isEqualTo(3);
        assertThat(covered.toText()).contains("coverage pass        1 pointcuts added to cover every slot with a join point"
                + " (m raised to 3 for them)");
        GenerationReport fig3 = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofNanos(1000), 1000))
                .generate(p);
        assertThat(fig3.selectedJoinPoints()).isEqualTo(6);
        assertThat(fig3.uncoveredSlots()).isZero();
    }
}
