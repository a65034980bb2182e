package io.qosweaver.bench.mixed;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.load.ClassResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The app's GC pauses from its log, matched to the light tail. */
class GcPausesTest {
    @TempDir
    Path tmp;

    private static final long T0 = Instant.parse("2026-11-27T04:00:00Z").toEpochMilli();

    @Test
    void pausesAreReadWithTheirWallClockStartAndEndAndConcurrentPhasesAreNot() throws Exception {
        Path log = tmp.resolve("app.log.gz");
        try (GZIPOutputStream out = new GZIPOutputStream(Files.newOutputStream(log))) {
            out.write(String.join("\n",
                    "out: [2026-11-27T04:00:00.012+0000][0.012s][info][gc] Using G1",
                    "out: [2026-11-27T04:00:01.100+0000][1.100s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(2048M) 12.500ms",
                    "out: [2026-11-27T04:00:02.000+0000][2.000s][info][gc] GC(1) Concurrent Mark Cycle 30.123ms",
                    "out: [2026-11-27T05:00:03.000+0100][3.000s][info][gc] GC(1) Pause Remark 50M->50M(2048M) 1.5ms",
                    "out: [3.500s][info][gc] GC(2) Pause Young (Normal) (G1 Evacuation Pause) 24M->3M(2048M) 9.000ms",
                    "err: [qosweaver] agent started").getBytes());
        }
        List<double[]> p = GcPauses.read(log);
        assertThat(p).hasSize(2); // the line without a wall-clock time cannot be placed: left out
        assertThat(p.get(0)).containsExactly(T0 + 1100 - 12.5, T0 + 1100);
        assertThat(p.get(1)).containsExactly(T0 + 3000 - 1.5, T0 + 3000);
        assertThat(GcPauses.XLOG).contains("time");
    }

    @Test
    void theTailAtOrAboveTheP99IsMatchedToThePausesItOverlaps() {
        List<double[]> pauses = List.of(new double[] {T0 + 100, T0 + 110}, new double[] {T0 + 500, T0 + 520},
                new double[] {T0 + 5_000, T0 + 5_010}); // the last after the window
        List<ClassResult.Slow> slowest = List.of(
                new ClassResult.Slow(T0 + 95, 30),   // overlaps the first pause: 10 ms of it
                new ClassResult.Slow(T0 + 515, 25),  // overlaps the second: 5 ms
                new ClassResult.Slow(T0 + 900, 21),  // none
                new ClassResult.Slow(T0 + 300, 10)); // below the p99: not the tail
        ClassResult light = new ClassResult("light", "open", 8, 20.0, 400, 0, Map.of(), 20, 6.0, 3.0, 5.0, 9.0, 20.0,
                30.0, 30.0, 0, slowest);
        Map<String, Object> t = GcPauses.tail(light, pauses, T0, T0 + 1_000);
        assertThat(t).containsEntry("tail_requests", 3).containsEntry("tail_with_gc_pause", 2)
                .containsEntry("tail_mean_gc_pause_ms", 5.0).containsEntry("window_gc_pauses", 2)
                .containsEntry("window_gc_pause_share", 0.03).containsEntry("window_gc_pauses_per_s", 2.0)
                .containsEntry("window_gc_pause_mean_ms", 15.0);
        ClassResult none = new ClassResult("light", "open", 8, 20.0, 400, 0, Map.of(), 20, 6.0, 3.0, 5.0, 9.0, 20.0,
                30.0, 30.0, 0);
        assertThat(GcPauses.tail(none, pauses, T0, T0 + 1_000)).as("no slowest requests recorded").isNull();
    }
}
