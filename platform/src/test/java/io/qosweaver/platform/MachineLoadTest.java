package io.qosweaver.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class MachineLoadTest {

    private static int parse(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        return LoadAvg.parse(b, b.length);
    }

    @Test
    void parsesTheRunnableCountOfLoadavg() {
        assertThat(parse("0.52 0.58 0.59 3/467 12345\n")).isEqualTo(3);
        assertThat(parse("12.00 8.10 4.00 117/2048 99")).isEqualTo(117);
    }

    @Test
    void anythingElseIsUnknown() {
        assertThat(parse("")).isEqualTo(-1);
        assertThat(parse("0.52 0.58 0.59")).isEqualTo(-1);
        assertThat(parse("0.52 0.58 0.59 x/467 1")).isEqualTo(-1);
        assertThat(parse("0.52 0.58 0.59 3 1")).isEqualTo(-1);
    }

    /** On Linux: the reader counts itself, and spinning threads show up at once, not averaged. */
    @Test
    void spinningThreadsAreCountedAtOnce() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/loadavg")), "no /proc/loadavg: not Linux");
        MachineLoad load = MachineLoad.linux();
        assertThat(load.runnableThreads()).as("the reader itself").isGreaterThanOrEqualTo(1);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch started = new CountDownLatch(4);
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            Thread t = new Thread(() -> {
                started.countDown();
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            });
            t.setDaemon(true);
            t.start();
            spinners.add(t);
        }
        try {
            started.await();
            int most = 0;
            for (int i = 0; i < 200; i++) { // the most seen over 200 readings: other load only adds
                most = Math.max(most, load.runnableThreads());
            }
            assertThat(most).as("four spinners and the reader").isGreaterThanOrEqualTo(5);
        } finally {
            stop.set(true);
            for (Thread t : spinners) {
                t.join();
            }
        }
    }
}
