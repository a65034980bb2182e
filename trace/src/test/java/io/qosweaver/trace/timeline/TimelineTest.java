package io.qosweaver.trace.timeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.trace.TraceChecks;
import io.qosweaver.trace.proto.PerfettoWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perfetto.protos.TrackEventOuterClass.TrackEvent;

class TimelineTest {
    @TempDir
    Path dir;

    @Test
    void sortsWhatArrivesOutOfOrderAndRoutesLongLateSlicesToALaneOfTheirOwn() throws Exception {
        Path f = dir.resolve("t.pftrace");
        PerfettoWriter w = new PerfettoWriter(f, 1 << 20, 4096);
        Timeline t = new Timeline(w, 100, "p", null, 0, 0, 1000);
        long jvm = Timeline.levelTrack(7, Level.JVM);
        t.nameThread(7, "worker");
        t.slice(300, 400, jvm, "park", "jvm", null);
        t.slice(100, 200, jvm, "monitor enter", "jvm", null); // arrives second, happened first
        t.flush(1_000);
        t.slice(50, 2_000, jvm, "monitor wait", "jvm", null); // began before what is written: the long lane
        t.begin(350, jvm, "late begin", "jvm", null);        // behind its track (written to 400): dropped, counted
        t.end(2_100, Timeline.levelTrack(7, Level.OS));      // an end without its begin: dropped, counted
        t.flush(Long.MAX_VALUE);
        w.close();

        TraceChecks c = TraceChecks.read(f).valid();
        assertThat(c.on("JVM")).extracting(TrackEvent::getName).containsExactly("monitor enter", "", "park", "");
        assertThat(c.on("JVM (long)")).extracting(TrackEvent::getName).containsExactly("monitor wait", "");
        assertThat(c.tracks.values()).filteredOn(d -> d.hasThread()).singleElement()
                .satisfies(d -> assertThat(d.getThread().getThreadName()).isEqualTo("worker"));
        assertThat(t.late()).isEqualTo(1);
        assertThat(t.unmatchedEnds()).isEqualTo(1);
    }

    @Test
    void aFullPendingListCountsWhatItRefuses() throws Exception {
        PerfettoWriter w = new PerfettoWriter(dir.resolve("o.pftrace"), 1 << 20, 4096);
        Timeline t = new Timeline(w, 1, "p", null, 0, 0, 10);
        for (int i = 0; i < 15; i++) {
            t.instant(i, t.processTrack(), "i", null, null);
        }
        assertThat(t.overflow()).isEqualTo(5);
        t.flush(Long.MAX_VALUE);
        assertThat(t.written()).isEqualTo(10);
        w.close();
    }
}
