package io.qosweaver.trace.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.trace.TraceChecks;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perfetto.protos.TracePacketOuterClass.TracePacket;
import perfetto.protos.TrackEventOuterClass.TrackEvent;

class PerfettoWriterTest {
    @TempDir
    Path dir;

    @Test
    void whatItWritesParsesWithPerfettosSchema() throws Exception {
        Path f = dir.resolve("t.pftrace");
        try (PerfettoWriter w = new PerfettoWriter(f, 1 << 20, 4096)) {
            w.clockSnapshot(1_000, 1_700_000_000_000_000_000L);
            w.processTrack(10, 42, "app", "java -jar app.jar");
            w.threadTrack(11, 10, 42, 43, "worker-1");
            w.childTrack(12, 11, "OS state");
            w.counterTrack(13, 10, "limit", "scheduler", PerfettoWriter.UNIT_COUNT);
            w.event(2_000, 12, PerfettoWriter.TYPE_SLICE_BEGIN, "Running", "os", new Args().add("cpu", 1).add("state", "R"));
            w.event(3_000, 11, PerfettoWriter.TYPE_INSTANT, "müde €", null, null);
            w.event(5_000, 12, PerfettoWriter.TYPE_SLICE_END, null, null, null);
            w.counter(5_000, 13, 3);
            w.counter(6_000, 13, 2.5);
        }
        TraceChecks t = TraceChecks.read(f).valid();
        assertThat(t.trace.getPacketCount()).isEqualTo(10);
        assertThat(t.trace.getPacket(0).getClockSnapshot().getClocksList()).extracting(c -> c.getClockId())
                .containsExactly(3, 1);
        assertThat(t.trace.getPacket(0).getSequenceFlags()).isEqualTo(1);
        assertThat(t.tracks.get(10L).getProcess().getPid()).isEqualTo(42);
        assertThat(t.tracks.get(10L).getProcess().getCmdline(0)).isEqualTo("java -jar app.jar");
        assertThat(t.tracks.get(11L).getThread().getTid()).isEqualTo(43);
        assertThat(t.tracks.get(11L).getThread().getThreadName()).isEqualTo("worker-1");
        assertThat(t.tracks.get(13L).getCounter().getUnit().getNumber()).isEqualTo(2);
        TracePacket begin = t.events.get(0);
        assertThat(begin.getTimestamp()).isEqualTo(2_000);
        TrackEvent b = begin.getTrackEvent();
        assertThat(b.getType()).isEqualTo(TrackEvent.Type.TYPE_SLICE_BEGIN);
        assertThat(b.getName()).isEqualTo("Running");
        assertThat(b.getCategories(0)).isEqualTo("os");
        assertThat(b.getDebugAnnotations(0).getName()).isEqualTo("cpu");
        assertThat(b.getDebugAnnotations(0).getIntValue()).isEqualTo(1);
        assertThat(b.getDebugAnnotations(1).getStringValue()).isEqualTo("R");
        assertThat(t.events.get(1).getTrackEvent().getName()).isEqualTo("müde €");
        assertThat(t.events.get(3).getTrackEvent().getCounterValue()).isEqualTo(3);
        assertThat(t.events.get(4).getTrackEvent().getDoubleCounterValue()).isEqualTo(2.5);
    }

    @Test
    void theCapDropsAndCountsPacketsButKeepsTheReserveForTheLastOnes() throws Exception {
        Path f = dir.resolve("capped.pftrace");
        long dropped;
        try (PerfettoWriter w = new PerfettoWriter(f, 4096, 1024)) {
            w.clockSnapshot(0, 0);
            w.processTrack(1, 1, "p", null);
            for (int i = 0; i < 1000; i++) {
                w.event(i, 1, PerfettoWriter.TYPE_INSTANT, "event " + i, "c", null);
            }
            dropped = w.droppedPackets();
            assertThat(w.written()).isLessThanOrEqualTo(4096 - 1024);
            w.forceNext();
            assertThat(w.event(1000, 1, PerfettoWriter.TYPE_INSTANT, "stats", null, new Args().add("dropped", dropped)))
                    .isTrue();
        }
        assertThat(dropped).isGreaterThan(800);
        assertThat(Files.size(f)).isLessThanOrEqualTo(4096);
        TraceChecks t = TraceChecks.read(f).valid();
        assertThat(t.events.get(t.events.size() - 1).getTrackEvent().getDebugAnnotations(0).getIntValue()).isEqualTo(dropped);
    }

    @Test
    void paddedLengthsAndLongVarintsRoundTrip() throws Exception {
        Path f = dir.resolve("v.pftrace");
        String big = "x".repeat(300_000);
        try (PerfettoWriter w = new PerfettoWriter(f, 1 << 22, 0)) {
            w.clockSnapshot(Long.MAX_VALUE - 5, 0);
            w.processTrack(1, 1, big, null);
            w.counterTrack(2, 1, "c", null, PerfettoWriter.UNIT_COUNT);
            w.counter(Long.MAX_VALUE - 1, 2, -7);
        }
        TraceChecks t = TraceChecks.read(f).valid();
        assertThat(t.tracks.get(1L).getProcess().getProcessName()).hasSize(300_000);
        assertThat(t.events.get(0).getTrackEvent().getCounterValue()).isEqualTo(-7);
        assertThat(t.events.get(0).getTimestamp()).isEqualTo(Long.MAX_VALUE - 1);
    }
}
