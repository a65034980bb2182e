package io.qosweaver.bench.racetest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The JVM's own threads' CPU that a run reports beside its runners'. */
class RaceTestAppTest {
    @Test
    void otherThreadsAreTheNonRunnersThatUsedCpuLargestFirstInMilliseconds() {
        long ms = 1_000_000L;
        Map<String, Long> before = Map.of("runner-0", 100 * ms, "qosweaver-tick", 10 * ms, "C2 CompilerThre", 50 * ms,
                "VM Thread", 7 * ms);
        Map<String, Long> after = Map.of("runner-0", 3100 * ms, "qosweaver-tick", 40 * ms, "C2 CompilerThre", 130 * ms,
                "GC Thread#0", 10 * ms + 400_000, "VM Thread", 7 * ms + 999_999, "idle", 0L);
        String line = RaceTestApp.otherThreads(before, after, List.of(new RaceTestApp.RunnerSpec("runner-0", 0.2, 5, "-")));
        assertThat(line).as("under a millisecond is left out").isEqualTo("JVMTHREADS C2_CompilerThre:80 qosweaver-tick:30 GC_Thread#0:10");
    }

    @Test
    void aRunnerWhoseNameTheKernelCutIsStillLeftOut() {
        String line = RaceTestApp.otherThreads(Map.of(), Map.of("a-very-long-run", 5_000_000L),
                List.of(new RaceTestApp.RunnerSpec("a-very-long-runner-name", 0.2, 5, "-")));
        assertThat(line).isEqualTo("JVMTHREADS");
    }

    @Test
    void aBusyThreadOfThisJvmShowsUnderItsNameAndAnEndedOneNoLonger() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc only");
        Map<String, Long> before = RaceTestApp.threadCpuNanos();
        AtomicBoolean stop = new AtomicBoolean();
        Thread ended = spinner("racetest-ended", stop);
        ended.start();
        awaitCpu(ended, 50);
        stop.set(true);
        ended.join();
        stop.set(false);
        Thread busy = spinner("racetest-busy", stop);
        busy.start();
        try {
            awaitCpu(busy, 100); // on a loaded machine wall time says nothing: wait for its CPU time
            Map<String, Long> after = RaceTestApp.threadCpuNanos();
            assertThat(after.getOrDefault("racetest-busy", 0L) - before.getOrDefault("racetest-busy", 0L))
                    .as("at least 100 ms spun").isGreaterThanOrEqualTo(100_000_000L);
            assertThat(after).as("an ended thread has left /proc").doesNotContainKey("racetest-ended");
            assertThat(RaceTestApp.otherThreads(before, after, List.of())).contains("racetest-busy:");
        } finally {
            stop.set(true);
            busy.join();
        }
    }

    private static Thread spinner(String name, AtomicBoolean stop) {
        return new Thread(() -> {
            while (!stop.get()) {
                Thread.onSpinWait();
            }
        }, name);
    }

    @SuppressWarnings("deprecation") // getId: Java 17
    private static void awaitCpu(Thread t, long millis) throws InterruptedException {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (mx.getThreadCpuTime(t.getId()) < millis * 1_000_000L && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }
}
