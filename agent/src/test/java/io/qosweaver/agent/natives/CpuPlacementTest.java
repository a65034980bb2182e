package io.qosweaver.agent.natives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.qosweaver.platform.NativeThreads;
import io.qosweaver.scheduler.QoS;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.SchedulerConfig;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.stats.HandOffStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * CPU numbers and masks through the JNA implementation, checked against the kernel's
 * {@code /proc}, and the scheduler's placement of handed-off threads with it: MTR-LS runners on one
 * managed core hand their CPU over at every turn, each successor restricted to its predecessor's
 * CPU until it runs, and every thread ends with the mask it started with.
 */
class CpuPlacementTest {
    private static NativeThreads nt;
    private volatile boolean stop;

    @BeforeAll
    static void load() throws Exception {
        assumeTrue(NativePriorities.isLinux(), "Linux only");
        nt = NativePriorities.loadIsolated();
    }

    @AfterEach
    void tearDown() {
        stop = true;
        Scheduler.uninstall();
        NativeThreads.register(null);
    }

    private static String allowed(int tid) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/task/" + tid + "/status"))) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return line.substring("Cpus_allowed_list:".length()).trim();
            }
        }
        throw new AssertionError("no Cpus_allowed_list for " + tid);
    }

    private static String list(long[] mask) {
        StringBuilder sb = new StringBuilder();
        for (int c = 0; c < mask.length * 64; c++) {
            if ((mask[c >>> 6] & (1L << (c & 63))) != 0) {
                int e = c;
                while (e + 1 < mask.length * 64 && (mask[(e + 1) >>> 6] & (1L << ((e + 1) & 63))) != 0) {
                    e++;
                }
                sb.append(sb.length() == 0 ? "" : ",").append(c == e ? Integer.toString(c) : c + "-" + e);
                c = e;
            }
        }
        return sb.toString();
    }

    @Test
    void theCurrentCpuAndTheMaskAreTheKernels() throws Exception {
        int tid = nt.currentNativeThreadId();
        int cpu = nt.currentCpu();
        assertThat(cpu).isBetween(0, 1023);
        long[] mask = new long[16];
        assertThat(nt.getAffinityMask(tid, mask)).isTrue();
        assertThat(mask[cpu >>> 6] & (1L << (cpu & 63))).as("the CPU we run on is allowed").isNotZero();
        assertThat(list(mask)).isEqualTo(allowed(tid));
    }

    @Test
    void aThreadsMaskCanBeNarrowedAndRestoredByAnotherThread() throws Exception {
        CompletableFuture<Integer> tid = new CompletableFuture<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            tid.complete(nt.currentNativeThreadId());
            done.join();
        });
        t.start();
        int id = tid.get(10, TimeUnit.SECONDS);
        try {
            long[] saved = new long[16];
            assertThat(nt.getAffinityMask(id, saved)).isTrue();
            int first = Long.numberOfTrailingZeros(saved[0]);
            long[] one = new long[16];
            one[0] = 1L << first;
            assertThat(nt.setAffinityMask(id, one)).isTrue();
            assertThat(allowed(id)).isEqualTo(Integer.toString(first));
            assertThat(nt.setAffinityMask(id, saved)).isTrue();
            assertThat(allowed(id)).isEqualTo(list(saved));
            assertThat(nt.setAffinityMask(999_999_999, saved)).as("no such thread: false, no exception").isFalse();
        } finally {
            done.complete(null);
            t.join(5_000);
        }
    }

    /** Spins, passing a control point about every 20 us; records its mask before and after. */
    private void spin(Map<String, String> masks) {
        int tid = nt.currentNativeThreadId();
        long[] m = new long[16];
        nt.getAffinityMask(tid, m);
        String before = list(m);
        QoS.enter("runner");
        try {
            long x = 0;
            while (!stop) {
                for (int i = 0; i < 20_000; i++) {
                    x += i ^ (x >>> 3);
                }
                QoS.controlPoint();
            }
            if (x == 42) {
                System.out.print("");
            }
        } finally {
            QoS.exit();
        }
        nt.getAffinityMask(tid, m);
        masks.put(Thread.currentThread().getName(), before + " -> " + list(m));
    }

    /**
     * Placement is for the hand-offs of policies with a tick: one without (importance) never places a thread,
     * even with the natives registered, so installing it makes no system call for placement.
     */
    @Test
    void aPolicyWithoutATickPlacesNoThread() {
        NativeThreads.register(nt);
        Scheduler s = Scheduler.install(new SchedulerConfig(List.of(new TaskClassSpec("runner",
                Map.of("importance", "low"))), new SchedulerConfig.PolicySpec("importance", Map.of("lowCap", "1"))));
        assertThat(s.handOffStats().placement()).as("no placement without a tick").isFalse();
    }

    @Test
    void mtrLsRunnersHandTheirCpuToTheirSuccessorAndEndWithTheirOwnMask() throws Exception {
        NativeThreads.register(nt);
        Scheduler s = Scheduler.install(new SchedulerConfig(List.of(new TaskClassSpec("runner", Map.of("fraction", "0.8"))),
                new SchedulerConfig.PolicySpec("mtr-ls", Map.of("entity", "thread", "cores", "1", "quantum", "20ms",
                        "sample", "2ms"))));
        Map<String, String> masks = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            threads.add(new Thread(() -> spin(masks), "runner-" + i));
        }
        threads.forEach(Thread::start);
        Thread.sleep(1_500);
        HandOffStats h = s.handOffStats();
        stop = true;
        Scheduler.uninstall(); // releases anyone parked
        for (Thread t : threads) {
            t.join(5_000);
            assertThat(t.isAlive()).isFalse();
        }
        HandOffStats end = s.handOffStats();
        System.out.printf("placement: %s while running, %s at the end%n", h, end);
        assertThat(h.placement()).as("JNA registered on Linux").isTrue();
        assertThat(h.handOffs()).as("turns handed over").isPositive();
        assertThat(h.placements()).as("successors placed on their predecessor's CPU").isPositive();
        assertThat(end.placementsUndone()).as("every placement undone by its thread").isEqualTo(end.placements());
        assertThat(masks).hasSize(4);
        masks.forEach((name, m) -> {
            String[] ba = m.split(" -> ");
            assertThat(ba[1]).as(name + " ends with the mask it started with").isEqualTo(ba[0]);
        });
    }
}
