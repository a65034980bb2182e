package io.qosweaver.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Request spans in slot profiles: recorded, read back, and what generation keeps of a profile with them. */
class RequestSpansTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;
    private static final String HANDLE = "void a.Handler.handle()";
    private static final String RENDER = "void a.Page.render()";
    private static final String FINALIZE = "void a.Buffer.finalize()";
    private static final String FREE = "void a.Buffer.free()";

    @TempDir
    Path dir;

    private final PointcutGenerator generator = new PointcutGenerator(
            PointcutGenerator.Options.of(Duration.ofMillis(1), 1000).withCoverAll(true));

    /**
     * A pooled server thread (7) with two requests 5 s apart, the second with a 3.1 ms pause, and
     * cleanup on the same thread between them; a finalizer thread (9) that handles no request.
     */
    private Path pooledThreadAndFinalizer(boolean withSpans) throws IOException {
        Path f = dir.resolve(withSpans ? "spans.qwp" : "nospans.qwp");
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 100 * US, 0)) {
            for (int k = 0; k < 20; k++) {
                w.joinPoint(k * 100 * US, 7, HANDLE, RENDER);
            }
            for (int k = 0; k < 30; k++) {
                w.joinPoint(3 * MS + k * 100 * US, 7, FINALIZE, FREE); // between the requests
            }
            for (int k = 0; k < 50; k++) {
                w.joinPoint(1000 * MS + k * 100 * US, 9, FINALIZE, FREE);
            }
            long second = 5000 * MS;
            for (int k = 0; k < 50; k++) {
                if (k < 10 || k >= 40) { // 0.9 ms to 4.0 ms: no join point
                    w.joinPoint(second + k * 100 * US, 7, HANDLE, RENDER);
                }
            }
            if (withSpans) {
                w.meta(BinaryProfileFormat.REQUEST_SPANS, "test");
                assertThat(w.span(7, 0, 1900 * US)).isTrue();
                assertThat(w.span(7, second, second + 4900 * US)).isTrue();
                assertThat(w.span(8, 0, 1)).as("a thread without join points").isFalse();
            }
        }
        return f;
    }

    @Test
    void spansRoundTripThroughTheBinaryFormat() throws IOException {
        Path f = pooledThreadAndFinalizer(true);
        List<long[]> spans = new ArrayList<>();
        BinaryProfileReader.Summary s = BinaryProfileReader.readSlots(f, new BinaryProfileReader.SlotTarget() {
            @Override
            public void span(int timeline, long startNanos, long endNanos) {
                spans.add(new long[] {timeline, startNanos, endNanos});
            }
        });
        assertThat(spans).containsExactly(new long[] {0, 0, 1900 * US}, new long[] {0, 5000 * MS, 5000 * MS + 4900 * US});
        assertThat(s.meta()).containsEntry(BinaryProfileFormat.REQUEST_SPANS, "test");
        assertThat(s.joinPoints()).isEqualTo(20 + 30 + 50 + 20);
        assertThat(BinaryProfileReader.summary(f).joinPoints()).isEqualTo(120);
    }

    @Test
    void theWriterRefusesReversedOrOverlappingSpans() throws IOException {
        try (SlotProfileWriter w = SlotProfileWriter.open(dir.resolve("bad.qwp"), ProfileWriter.Limits.DEFAULT, 1000, 0)) {
            w.joinPoint(0, 1, HANDLE, RENDER);
            assertThatThrownBy(() -> w.span(1, 10, 5)).isInstanceOf(IllegalArgumentException.class);
            w.span(1, 0, 100);
            assertThatThrownBy(() -> w.span(1, 50, 200)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void theReaderRefusesAReversedSpanWithItsOffset() throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (SlotProfileWriter w = new SlotProfileWriter(bytes, ProfileWriter.Limits.DEFAULT, 1000, 0)) {
            w.joinPoint(0, 1, HANDLE, RENDER);
            w.span(1, 10, 20);
        }
        byte[] b = bytes.toByteArray();
        int at = indexOf(b, new byte[] {BinaryProfileFormat.SPAN, 0, 20, 40}); // zigzag 10 and 20
        b[at + 2] = 40;
        b[at + 3] = 20;
        Path f = java.nio.file.Files.write(dir.resolve("reversed.qwp"), b);
        assertThatThrownBy(() -> BinaryProfileReader.summary(f)).isInstanceOf(ProfileFormatException.class)
                .hasMessageContaining("byte offset " + at).hasMessageContaining("span [20, 10] of timeline 0 is reversed");
    }

    private static int indexOf(byte[] b, byte[] part) {
        for (int i = 0; i + part.length <= b.length; i++) {
            if (java.util.Arrays.equals(b, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    @Test
    void theToolSaysWhenEveryJoinPointLiesOutsideTheRequests() throws IOException {
        Path f = dir.resolve("outside.qwp");
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 1000, 0)) {
            w.joinPoint(0, 1, FINALIZE, FREE);
            w.meta(BinaryProfileFormat.REQUEST_SPANS, "test");
        }
        assertThatThrownBy(() -> PointcutsTool.generate(List.of(f), PointcutGenerator.Options.of(Duration.ofNanos(1000), 1),
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream())))
                .isInstanceOf(IOException.class).hasMessageContaining("join points all lie outside the request spans");
    }

    @Test
    void aPairOnlyOutsideRequestsIsNeverACandidateAndATimelineWithoutASpanIsLeftOut() throws IOException {
        SlotProfile p = SlotProfile.read(List.of(pooledThreadAndFinalizer(true)), MS);
        assertThat(p.requestSpans()).isEqualTo(2);
        assertThat(p.timelines()).isEqualTo(2);
        assertThat(p.timelineName(0)).endsWith("thread 7 request 1");
        assertThat(p.timelineName(1)).endsWith("thread 7 request 2");
        assertThat(p.timelinesOutsideRequests()).as("the finalizer thread").isEqualTo(1);
        assertThat(p.joinPointsOutsideRequests()).isEqualTo(30 + 50);
        assertThat(p.joinPoints()).isEqualTo(40);
        assertThat(p.pairs()).isEqualTo(1);

        GenerationReport r = generator.generate(p);
        assertThat(r.pointcuts()).extracting(GenerationReport.GeneratedPointcut::callee).containsExactly(RENDER);
        assertThat(r.candidates()).isEqualTo(1);
        assertThat(r.timelinesOutsideRequests()).isEqualTo(1);
        assertThat(r.joinPointsOutsideRequests()).isEqualTo(80);
        assertThat(r.toText()).contains("left out as outside any request: 1 timeline(s), 80 join point(s)");
        assertThat(r.controlPointsYaml()).contains("# only the 2 request span(s) profiled count");
        assertThat(r.toMap()).containsEntry("request_spans", 2).containsEntry("join_points_outside_requests", 80L);

        // the same join points without spans: the cleanup pair covers slots of its own and is chosen
        GenerationReport without = generator.generate(SlotProfile.read(List.of(pooledThreadAndFinalizer(false)), MS));
        assertThat(without.pointcuts()).extracting(GenerationReport.GeneratedPointcut::callee).contains(FREE);
    }

    @Test
    void slotsAndGapsOfAPooledThreadAreThoseInsideItsRequests() throws IOException {
        GenerationReport r = generator.generate(SlotProfile.read(List.of(pooledThreadAndFinalizer(true)), MS));
        // request 1: 1.9 ms, 2 slots; request 2: 4.9 ms, 5 slots of which 3 lie in its pause
        assertThat(r.timelines()).isEqualTo(2);
        assertThat(r.slots()).isEqualTo(7);
        assertThat(r.emptySlots()).isEqualTo(3);
        assertThat(r.uncoveredSlots()).isEqualTo(3);
        assertThat(r.longestGapNanos()).as("the pause inside request 2, not the 5 s between requests")
                .isEqualTo(3100 * US);
        assertThat(r.intervals()).isEqualTo(19 + 19);
        assertThat(r.intervalMeanNanos()).isCloseTo((1900.0 + 4900.0) * US / 38, within(1e-6));

        GenerationReport without = generator.generate(SlotProfile.read(List.of(pooledThreadAndFinalizer(false)), MS));
        assertThat(without.longestGapNanos()).isGreaterThan(4900 * MS);
        assertThat(without.slots()).isGreaterThan(5000);
        assertThat(without.requestSpans()).isEqualTo(-1);
    }

    @Test
    void anEntryThatASpanBoundaryCutsIsKeptInsideTheSpan() throws IOException {
        Path f = dir.resolve("cut.qwp");
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 1000, 0)) {
            w.joinPoint(0, 1, FINALIZE, FREE); // before the request, in another base slot
            w.joinPoint(1200, 1, HANDLE, RENDER);
            w.joinPoint(1800, 1, HANDLE, RENDER);
            w.joinPoint(2500, 1, HANDLE, RENDER);
            w.meta(BinaryProfileFormat.REQUEST_SPANS, "test");
            w.span(1, 1500, 2500);
        }
        SlotProfile p = SlotProfile.read(List.of(f), 1000);
        assertThat(p.timelines()).isEqualTo(1);
        assertThat(p.timelineStart(0)).isEqualTo(1500);
        assertThat(p.timelineOrigin(0)).isEqualTo(1000);
        assertThat(p.timelineEnd(0)).isEqualTo(2500);
        assertThat(p.slots()).isEqualTo(2);
        int e = p.entryStart(0);
        // 1200 and 1800 share an entry of the base slot [1000, 2000): the boundary at 1500 falls inside it
        assertThat(p.entryCount(e)).isEqualTo(2);
        assertThat(p.entryFirst(e)).isEqualTo(500);
        assertThat(p.entryLast(e)).isEqualTo(800);
        assertThat(p.joinPoints()).isEqualTo(3);
        assertThat(p.joinPointsOutsideRequests()).isEqualTo(1);
        assertThat(p.timelinesOutsideRequests()).isZero();
    }

    @Test
    void anEntryThatTwoSpansCutCountsOnce() throws IOException {
        Path f = dir.resolve("twice.qwp");
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 1000, 0)) {
            for (long t : new long[] {100, 300, 500, 700}) {
                w.joinPoint(t, 1, HANDLE, RENDER); // one entry of the base slot [0, 1000): first 100, last 700
            }
            w.meta(BinaryProfileFormat.REQUEST_SPANS, "test");
            w.span(1, 0, 350);
            w.span(1, 450, 900);
        }
        SlotProfile p = SlotProfile.read(List.of(f), 1000);
        assertThat(p.timelines()).as("the second span gets nothing").isEqualTo(1);
        assertThat(p.requestSpans()).isEqualTo(1);
        assertThat(p.joinPoints()).isEqualTo(4);
        assertThat(p.occurrences(0)).isEqualTo(4);
        assertThat(p.joinPointsOutsideRequests()).isZero();
    }

    @Test
    void spansCutTheBaseSlotsNotTheSlotsOfTheInterval() throws IOException {
        Path f = dir.resolve("base.qwp");
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 100 * US, 0)) {
            w.joinPoint(0, 1, HANDLE, RENDER);
            w.joinPoint(150 * US, 1, HANDLE, RENDER);
            for (long t = 300; t < 600; t += 50) {
                w.joinPoint(t * US, 1, FINALIZE, FREE); // the thread between two requests, inside the same 1 ms
            }
            w.joinPoint(700 * US, 1, HANDLE, RENDER);
            w.joinPoint(850 * US, 1, HANDLE, RENDER);
            w.meta(BinaryProfileFormat.REQUEST_SPANS, "test");
            w.span(1, 0, 150 * US);
            w.span(1, 700 * US, 850 * US);
        }
        SlotProfile p = SlotProfile.read(List.of(f), MS);
        assertThat(p.timelines()).isEqualTo(2);
        assertThat(p.slots()).as("one slot of 1 ms each").isEqualTo(2);
        assertThat(p.joinPoints()).isEqualTo(4);
        assertThat(p.joinPointsOutsideRequests()).isEqualTo(6);
        assertThat(p.pairs()).isEqualTo(1);
        assertThat(p.timelineStart(1)).isEqualTo(700 * US);
        assertThat(p.timelineOrigin(1)).isZero();
        assertThat(p.entryFirst(p.entryStart(1))).isEqualTo(700 * US);
        assertThat(p.entryLast(p.entryStart(1))).isEqualTo(850 * US);
    }

    @Test
    void spanRecordsWithoutTheMetaRecordThatTheyCountAreIgnored() throws IOException {
        Path f = dir.resolve("unannounced.qwp");
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 1000, 0)) {
            w.joinPoint(0, 1, FINALIZE, FREE);
            w.joinPoint(5000, 1, HANDLE, RENDER);
            w.span(1, 5000, 5000);
        }
        SlotProfile p = SlotProfile.read(List.of(f), 1000);
        assertThat(p.requestSpans()).isEqualTo(-1);
        assertThat(p.timelines()).isEqualTo(1);
        assertThat(p.slots()).isEqualTo(6);
        assertThat(p.joinPoints()).isEqualTo(2);
    }

    @Test
    void aProfileWithoutSpansIsReadAsBefore() throws IOException {
        SlotProfile p = SlotProfile.read(List.of(pooledThreadAndFinalizer(false)), MS);
        assertThat(p.requestSpans()).isEqualTo(-1);
        assertThat(p.timelines()).isEqualTo(2);
        assertThat(p.joinPoints()).isEqualTo(120);
        for (int tl = 0; tl < p.timelines(); tl++) {
            assertThat(p.timelineOrigin(tl)).isEqualTo(p.timelineStart(tl));
        }
        GenerationReport r = generator.generate(p);
        assertThat(r.toText()).doesNotContain("request");
        assertThat(r.controlPointsYaml()).doesNotContain("request");
        assertThat(r.toMap()).doesNotContainKey("request_spans");
    }
}
