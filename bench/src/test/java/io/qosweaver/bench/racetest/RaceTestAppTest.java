package io.qosweaver.bench.racetest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JVM's own threads' CPU that a run reports beside its runners'. */
class RaceTestAppTest {
    @Test
    void otherThreadsAreTheNonRunnersThatUsedCpuLargestFirstInMilliseconds() {
        Map<String, Long> before = Map.of("runner-0", 100L, "qosweaver-tick", 10L, "C2 CompilerThre", 50L);
        Map<String, Long> after = Map.of("runner-0", 3100L, "qosweaver-tick", 13L, "C2 CompilerThre", 58L,
                "GC Thread#0", 1L, "idle", 0L);
        String line = RaceTestApp.otherThreads(before, after, List.of(new RaceTestApp.RunnerSpec("runner-0", 0.2, 5, "-")));
        assertThat(line).isEqualTo("JVMTHREADS C2_CompilerThre:80 qosweaver-tick:30 GC_Thread#0:10");
    }

    @Test
    void aRunnerWhoseNameTheKernelCutIsStillLeftOut() {
        String line = RaceTestApp.otherThreads(Map.of(), Map.of("a-very-long-run", 5L),
                List.of(new RaceTestApp.RunnerSpec("a-very-long-runner-name", 0.2, 5, "-")));
        assertThat(line).isEqualTo("JVMTHREADS");
    }

    @Test
    void aBusyThreadOfThisJvmShowsUnderItsName() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc only");
        Map<String, Long> before = RaceTestApp.threadTicks();
        Thread hog = new Thread(() -> {
            long end = System.nanoTime() + 300_000_000L;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }, "racetest-hog");
        hog.start();
        hog.join();
        // ended threads leave /proc: read while one more is alive
        Thread keep = new Thread(() -> {
            long end = System.nanoTime() + 200_000_000L;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }, "racetest-hog2");
        keep.start();
        Thread.sleep(150);
        Map<String, Long> after = RaceTestApp.threadTicks();
        keep.join();
        assertThat(after.getOrDefault("racetest-hog2", 0L) - before.getOrDefault("racetest-hog2", 0L))
                .as("about 15 ticks of 10 ms spun").isGreaterThanOrEqualTo(5L);
        assertThat(RaceTestApp.otherThreads(before, after, List.of())).contains("racetest-hog2:");
    }
}
