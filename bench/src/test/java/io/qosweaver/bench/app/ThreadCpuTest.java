package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ThreadCpuTest {

    @Test
    void threadNamesGroupWithoutTheirSerialAndTheJvmsOwnThreadsAreGcAndJit() {
        assertThat(ThreadCpu.group("qtp1453774246-57")).isEqualTo("qtp");
        assertThat(ThreadCpu.group("generator-35")).isEqualTo("generator");
        assertThat(ThreadCpu.group("HttpClient-1-Worker-0")).isEqualTo("HttpClient-1-Worker");
        assertThat(ThreadCpu.group("collector-timer")).isEqualTo("collector-timer");
        assertThat(ThreadCpu.group("G1 Conc#0")).isEqualTo(ThreadCpu.GC);
        assertThat(ThreadCpu.group("G1 Refine#0")).isEqualTo(ThreadCpu.GC);
        assertThat(ThreadCpu.group("GC Thread#1")).isEqualTo(ThreadCpu.GC);
        assertThat(ThreadCpu.group("C2 CompilerThre")).isEqualTo(ThreadCpu.JIT);
        assertThat(ThreadCpu.group("C1 CompilerThre")).isEqualTo(ThreadCpu.JIT);
        assertThat(ThreadCpu.group("42")).isEqualTo("42");
        assertThat(ThreadCpu.group("VM Periodic Task Thread")).as("not a collector thread")
                .isEqualTo("VM Periodic Task Thread");
        assertThat(ThreadCpu.group("ZWorker#3")).isEqualTo(ThreadCpu.GC);
    }

    /** A fake /proc/PID/task: each thread's stat with utime and stime at fields 14 and 15. */
    private static void stat(Path task, int tid, String name, long utime, long stime) throws Exception {
        Path d = Files.createDirectories(task.resolve(Integer.toString(tid)));
        Files.writeString(d.resolve("stat"), tid + " (" + name + ") S 1 1 1 0 -1 4194624 0 0 0 0 " + utime + " "
                + stime + " 0 0 20 0 1 0 100 0 0\n");
    }

    @Test
    void cpuIsTakenPerIntervalByGroupAndTheLeastBusyGroupsAreSummedAsOther(@TempDir Path task) throws Exception {
        for (int i = 0; i < 9; i++) {
            stat(task, 100 + i, "w" + (char) ('a' + i) + "-1", 0, 0);
        }
        stat(task, 200, "qtp1453774246-1", 0, 0);
        stat(task, 201, "qtp1453774246-2", 10, 0);
        stat(task, 300, "G1 Conc#0", 0, 0);
        Files.writeString(Files.createDirectories(task.resolve("999")).resolve("stat"), "not a stat line\n");
        ThreadCpu cpu = ThreadCpu.start(task, 3_600_000, 100.0); // samples once now; the rest by hand
        stat(task, 200, "qtp1453774246-1", 50, 30);   // 80 ticks
        stat(task, 201, "qtp1453774246-2", 60, 10);   // 60 ticks
        stat(task, 300, "G1 Conc#0", 40, 0); // 40
        for (int i = 0; i < 9; i++) {
            stat(task, 100 + i, "w" + (char) ('a' + i) + "-1", i + 1, 0); // 1..9 ticks: wi busiest
        }
        stat(task, 400, "late-1", 5, 0); // started in the interval: its CPU before the first sight is not counted
        List<ThreadCpu.Group> groups = cpu.stop();
        Map<String, ThreadCpu.Group> by = groups.stream().collect(Collectors.toMap(ThreadCpu.Group::name, g -> g));
        assertThat(groups).as("a thread whose stat cannot be read is skipped, not the sample").hasSize(ThreadCpu.TOP + 1);
        assertThat(groups.get(0).name()).isEqualTo("qtp");
        assertThat(groups.get(1).name()).isEqualTo(ThreadCpu.GC);
        assertThat(groups.subList(2, ThreadCpu.TOP)).extracting(ThreadCpu.Group::name)
                .containsExactly("wi", "wh", "wg", "wf");
        assertThat(groups.get(ThreadCpu.TOP).name()).isEqualTo(ThreadCpu.OTHER);
        // the interval is as long as the test took; the ratios between groups are exact
        double qtp = by.get("qtp").cores(), gc = by.get(ThreadCpu.GC).cores();
        assertThat(qtp / gc).isCloseTo(140.0 / 40, org.assertj.core.data.Offset.offset(0.02));
        assertThat(by.get(ThreadCpu.OTHER).cores() / gc).isCloseTo(15.0 / 40, org.assertj.core.data.Offset.offset(0.02));
        assertThat(by.get("qtp").perSecond()).hasSize(1);
    }

    @Test
    void aProcessThatIsNotThereRecordsNothing() {
        assertThat(ThreadCpu.start(Path.of("/nonexistent/task"), 1000, 100.0)).isNull();
    }

    /** On Linux, this JVM's own busy thread is seen under its group's name, using about a core. */
    @Test
    void aBusyThreadOfThisJvmShowsUpWithItsCpu() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/task")),
                "no /proc: ThreadCpu records nothing here");
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread busy = new Thread(() -> {
            long x = 0;
            while (!done.get()) {
                x += Long.numberOfTrailingZeros(x + 1);
            }
            if (x == 42) {
                System.out.println();
            }
        }, "busy-spinner-7");
        busy.start();
        Thread.sleep(100); // seen by the first sample
        ThreadCpu cpu = ThreadCpu.start(ProcessHandle.current().pid());
        Thread.sleep(1300); // one more sample at 1 s
        List<ThreadCpu.Group> groups = cpu.stop(); // and a last one while it still spins
        done.set(true);
        busy.join();
        ThreadCpu.Group g = groups.stream().filter(x -> x.name().equals("busy-spinner")).findFirst().orElseThrow();
        assertThat(g.cores()).isGreaterThan(0.2);
        assertThat(g.perSecond().stream().mapToDouble(Double::doubleValue).max().orElseThrow()).isGreaterThan(0.4);
    }
}
