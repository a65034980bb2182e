package io.qosweaver.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.stats.EntityShare;
import io.qosweaver.scheduler.stats.PrometheusText;
import io.qosweaver.scheduler.stats.SchedulerStats;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * MTR-LS with real threads on the real mechanism: two CPU-bound classes at 70 % and 20 % on one
 * managed core (P = 1) get CPU time in about that ratio, measured with the JVM's own thread CPU
 * clock; never more than one of them holds a slot; the stats carry each entity's share.
 */
class MtrLsThreadsTest {
    private volatile boolean stop;

    @AfterEach
    void tearDown() {
        stop = true;
        Scheduler.uninstall();
        ThreadStates.removeForTests();
        assertThat(Pending.value()).isZero();
    }

    /** Spins, passing a control point about every 20 us of work. */
    private void spin(String taskClass) {
        QoS.enter(taskClass);
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
    }

    @Test
    void twoCpuBoundClassesAt70And20PercentShareOneCoreInThatRatio() throws Exception {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Scheduler s = Scheduler.install(new SchedulerConfig(List.of(
                new TaskClassSpec("big", Map.of("fraction", "0.7")),
                new TaskClassSpec("small", Map.of("share", "20%"))),
                new SchedulerConfig.PolicySpec("mtr-ls", Map.of("cores", "1", "window", "500ms"))));
        List<Thread> big = new ArrayList<>(), small = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            big.add(new Thread(() -> spin("big"), "big-" + i));
            small.add(new Thread(() -> spin("small"), "small-" + i));
        }
        big.forEach(Thread::start);
        small.forEach(Thread::start);
        long end = System.nanoTime() + 3_000_000_000L;
        int maxRunning = 0;
        while (System.nanoTime() < end) {
            SchedulerStats st = s.stats();
            maxRunning = Math.max(maxRunning, st.runQueueSize());
            Thread.sleep(20);
        }
        long cpuBig = 0, cpuSmall = 0;
        for (Thread t : big) {
            cpuBig += mx.getThreadCpuTime(t.getId());
        }
        for (Thread t : small) {
            cpuSmall += mx.getThreadCpuTime(t.getId());
        }
        SchedulerStats st = s.stats();
        stop = true;
        Scheduler.uninstall(); // releases anyone parked
        for (Thread t : big) {
            t.join(5_000);
        }
        for (Thread t : small) {
            t.join(5_000);
        }
        double ratio = (double) cpuBig / (cpuBig + cpuSmall);
        System.out.printf("mtr-ls threads: big %d ms, small %d ms, big/(big+small) %.3f (0.7/0.9 = 0.778)%n",
                cpuBig / 1_000_000, cpuSmall / 1_000_000, ratio);
        assertThat(maxRunning).as("P = 1").isEqualTo(1);
        assertThat(ratio).isCloseTo(0.7 / 0.9, within(0.08));
        assertThat(st.shares()).extracting(EntityShare::entity).containsExactly("big", "small", "os");
        EntityShare b = st.shares().get(0), sm = st.shares().get(1);
        assertThat(b.fraction()).isEqualTo(0.7);
        // Absolute shares depend on what else runs on the machine; their order does not.
        assertThat(b.share()).as("over the last window").isGreaterThan(sm.share()).isLessThan(1);
        assertThat(sm.share()).isPositive();
        assertThat(b.rounds()).isPositive();
        assertThat(PrometheusText.render(st))
                .contains("qosweaver_share_fraction{entity=\"big\",task_class=\"big\",kind=\"fraction\"} 0.700000\n")
                .contains("qosweaver_share_received{entity=\"os\",task_class=\"os\",kind=\"reserved\"} ");
    }
}
