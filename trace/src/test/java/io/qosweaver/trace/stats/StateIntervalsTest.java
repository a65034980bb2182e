package io.qosweaver.trace.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.trace.proto.Args;
import io.qosweaver.trace.proto.PerfettoWriter;
import io.qosweaver.trace.timeline.Level;
import io.qosweaver.trace.timeline.Timeline;
import org.junit.jupiter.api.Test;

class StateIntervalsTest {
    private static final int TID = 4242;

    @Test
    void aNestedSliceInterruptsItsParentSoThatALevelsStatesNeverOverlap() {
        StateIntervals s = new StateIntervals(100);
        long sched = Timeline.levelTrack(TID, Level.SCHEDULER);
        s.event(0, PerfettoWriter.TYPE_SLICE_BEGIN, sched, "chart", new Args());
        s.event(10, PerfettoWriter.TYPE_SLICE_BEGIN, sched, "suspended", new Args().add("taskClass", "chart"));
        s.event(40, PerfettoWriter.TYPE_SLICE_END, sched, null, null);
        s.event(100, PerfettoWriter.TYPE_SLICE_END, sched, null, null);
        assertThat(s.totalNanos(TID, Level.SCHEDULER, StateIntervals.IN_CLASS)).isEqualTo(70);
        assertThat(s.totalNanos(TID, Level.SCHEDULER, StateIntervals.SUSPENDED)).isEqualTo(30);
        assertThat(s.classes()).containsExactly("chart");
    }

    @Test
    void slicesStillOpenEndWithTheTrace() {
        StateIntervals s = new StateIntervals(100);
        s.event(5, PerfettoWriter.TYPE_SLICE_BEGIN, Timeline.levelTrack(TID, Level.OS), "Sleeping", new Args());
        s.event(7, PerfettoWriter.TYPE_SLICE_BEGIN, Timeline.levelTrack(TID, Level.APP), "chart", new Args());
        s.finish(50);
        assertThat(s.totalNanos(TID, Level.OS, "Sleeping")).isEqualTo(45);
        assertThat(s.totalNanos(TID, Level.APP, StateIntervals.REQUEST)).isEqualTo(43);
    }

    @Test
    void pastTheCapIntervalsAreOnlySummedAndCounted() {
        StateIntervals s = new StateIntervals(3);
        long os = Timeline.levelTrack(TID, Level.OS);
        for (int i = 0; i < 10; i++) {
            s.event(i * 10, PerfettoWriter.TYPE_SLICE_BEGIN, os, i % 2 == 0 ? "Running" : "Sleeping", new Args());
            s.event(i * 10 + 10, PerfettoWriter.TYPE_SLICE_END, os, null, null);
        }
        assertThat(s.kept()).isEqualTo(3);
        assertThat(s.dropped()).isEqualTo(7);
        assertThat(s.droppedFrom()).isEqualTo(30);
        assertThat(s.totalNanos(TID, Level.OS, "Running") + s.totalNanos(TID, Level.OS, "Sleeping")).isEqualTo(100);
    }

    @Test
    void processTracksAreNoThreadsRow() {
        StateIntervals s = new StateIntervals(10);
        s.event(1, PerfettoWriter.TYPE_SLICE_BEGIN, 1L << 50, "GC", new Args());
        s.finish(2);
        assertThat(s.threads()).isEmpty();
    }
}
