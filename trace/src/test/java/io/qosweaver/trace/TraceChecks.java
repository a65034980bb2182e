package io.qosweaver.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import perfetto.protos.BuiltinClockOuterClass.BuiltinClock;
import perfetto.protos.TraceOuterClass.Trace;
import perfetto.protos.TracePacketOuterClass.TracePacket;
import perfetto.protos.TrackDescriptorOuterClass.TrackDescriptor;
import perfetto.protos.TrackEventOuterClass.TrackEvent;

/**
 * Reads a trace file with Perfetto's own schema (the vendored protos, generated in test scope) and
 * checks what every trace must hold: MONOTONIC as the primary clock before any timestamp, every
 * track an event names described, timestamps monotonic per track, slices balanced per track.
 */
public final class TraceChecks {
    public final Trace trace;
    public final Map<Long, TrackDescriptor> tracks = new HashMap<>();
    public final List<TracePacket> events = new ArrayList<>();

    private TraceChecks(Trace trace) {
        this.trace = trace;
        for (TracePacket p : trace.getPacketList()) {
            if (p.hasTrackDescriptor()) {
                tracks.put(p.getTrackDescriptor().getUuid(), p.getTrackDescriptor());
            }
            if (p.hasTrackEvent()) {
                events.add(p);
            }
        }
    }

    public static TraceChecks read(Path file) throws Exception {
        return new TraceChecks(Trace.parseFrom(Files.readAllBytes(file)));
    }

    /** Asserts the invariants; returns this. */
    public TraceChecks valid() {
        List<TracePacket> packets = trace.getPacketList();
        assertThat(packets).isNotEmpty();
        TracePacket first = packets.get(0);
        assertThat(first.hasClockSnapshot()).as("the first packet is the clock snapshot").isTrue();
        assertThat(first.getClockSnapshot().getPrimaryTraceClock()).isEqualTo(BuiltinClock.BUILTIN_CLOCK_MONOTONIC);
        Set<Long> described = new HashSet<>();
        Map<Long, Long> last = new HashMap<>();
        Map<Long, Integer> depth = new HashMap<>();
        for (TracePacket p : packets) {
            assertThat(p.getTrustedPacketSequenceId()).isEqualTo(1);
            if (p.hasTrackDescriptor()) {
                TrackDescriptor d = p.getTrackDescriptor();
                if (d.hasParentUuid()) {
                    assertThat(described).as("parent of track %s (%s) described before it", d.getUuid(), d.getName())
                            .contains(d.getParentUuid());
                }
                described.add(d.getUuid());
            }
            if (p.hasTrackEvent()) {
                TrackEvent e = p.getTrackEvent();
                assertThat(p.getTimestampClockId()).isEqualTo(3);
                assertThat(described).as("track of %s described before its first event", e).contains(e.getTrackUuid());
                Long prev = last.put(e.getTrackUuid(), p.getTimestamp());
                if (prev != null) {
                    assertThat(p.getTimestamp()).as("timestamps on track %s (%s)", e.getTrackUuid(),
                            tracks.get(e.getTrackUuid()).getName()).isGreaterThanOrEqualTo(prev);
                }
                int d = depth.getOrDefault(e.getTrackUuid(), 0);
                if (e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN) {
                    depth.put(e.getTrackUuid(), d + 1);
                } else if (e.getType() == TrackEvent.Type.TYPE_SLICE_END) {
                    assertThat(d).as("an end on track %s has its begin", e.getTrackUuid()).isPositive();
                    depth.put(e.getTrackUuid(), d - 1);
                }
            }
        }
        return this;
    }

    /** The track events on tracks whose name (or thread name) is {@code name}. */
    public List<TrackEvent> on(String trackName) {
        List<TrackEvent> out = new ArrayList<>();
        for (TracePacket p : events) {
            TrackDescriptor d = tracks.get(p.getTrackEvent().getTrackUuid());
            if (d != null && (trackName.equals(d.getName()) || trackName.equals(d.getThread().getThreadName()))) {
                out.add(p.getTrackEvent());
            }
        }
        return out;
    }
}
