package io.qosweaver.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

class ThreadCpuClockTest {

    @Test
    void cpuTimeGrowsWithWorkAndNotWithSleep() throws Exception {
        ThreadCpuClock clock = ThreadCpuClock.jvm();
        long start = clock.cpuNanos(Thread.currentThread());
        assumeTrue(start >= 0, "this JVM does not measure thread CPU time");
        long x = 0;
        long until = System.nanoTime() + 30_000_000L;
        while (System.nanoTime() < until) {
            x += System.nanoTime() % 7;
        }
        long afterWork = clock.cpuNanos(Thread.currentThread());
        assertThat(afterWork - start).as("CPU for 30 ms of spinning (%d)", x).isGreaterThan(5_000_000L);
        Thread.sleep(50);
        long afterSleep = clock.cpuNanos(Thread.currentThread());
        assertThat(afterSleep - afterWork).as("CPU while sleeping 50 ms").isLessThan(20_000_000L);
    }

    @Test
    void anotherThreadsTimeAndAnEndedThread() throws Exception {
        Thread t = new Thread(() -> {});
        t.start();
        t.join();
        assertThat(ThreadCpuClock.jvm().cpuNanos(t)).isEqualTo(-1);
    }
}
