package io.qosweaver.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The window's slowest requests, kept with their start on the wall clock. */
class ClassStatsSlowestTest {
    private static final long MS = 1_000_000L;

    @Test
    void theSlowestOfTheWindowAreKeptSlowestFirstWithTheirWallClockStart() throws Exception {
        ClassStats cs = new ClassStats(LoadSpec.open("light", 20, 8, LoadSpec.Targets.fixed(URI.create("http://127.0.0.1:1/"))));
        long t0 = 5_000 * MS;
        cs.success(t0 - MS, 900 * MS); // issued before the window: never the window's
        cs.beginWindow(t0, 1_700_000_000_000L);
        List<Integer> order = new ArrayList<>(IntStream.rangeClosed(1, 200).boxed().toList());
        Collections.shuffle(order, new java.util.Random(7));
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            List<Integer> mine = order.subList(c * 50, c * 50 + 50);
            Thread t = new Thread(() -> mine.forEach(i -> cs.success(t0 + i * 10 * MS, i * MS)));
            clients.add(t);
            t.start();
        }
        for (Thread t : clients) {
            t.join();
        }
        ClassResult r = cs.endWindow(10);
        assertThat(r.slowest()).hasSize(ClassStats.SLOWEST);
        assertThat(r.slowest().get(0)).isEqualTo(new ClassResult.Slow(1_700_000_000_000L + 2_000, 200.0));
        assertThat(r.slowest().get(ClassStats.SLOWEST - 1).latencyMs()).isEqualTo(200.0 - ClassStats.SLOWEST + 1);
        assertThat(r.slowest()).isSortedAccordingTo((a, b) -> Double.compare(b.latencyMs(), a.latencyMs()));
        cs.beginWindow(t0 + 10_000 * MS, 1_700_000_010_000L);
        assertThat(cs.endWindow(1).slowest()).as("a new window starts empty").isEmpty();
    }
}
