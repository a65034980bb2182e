package io.qosweaver.scheduler;

import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.testing.Configs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The hot paths allocate nothing (STYLE.md 6): measured with the thread's allocation counter. */
class AllocationTest {
    private static final int CALLS = 3_000_000;

    @AfterEach
    void tearDown() {
        Scheduler.measureIntervals(false);
        Scheduler.uninstall();
        ThreadStates.removeForTests();
    }

    private static com.sun.management.ThreadMXBean bean() {
        java.lang.management.ThreadMXBean b = ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(b instanceof com.sun.management.ThreadMXBean,
                "this JVM has no com.sun.management.ThreadMXBean");
        com.sun.management.ThreadMXBean sb = (com.sun.management.ThreadMXBean) b;
        Assumptions.assumeTrue(sb.isThreadAllocatedMemorySupported(), "allocation counting unsupported");
        sb.setThreadAllocatedMemoryEnabled(true);
        return sb;
    }

    private static long controlPoints(int n) {
        for (int i = 0; i < n; i++) {
            QoS.controlPoint();
        }
        return n;
    }

    private static long enterExit(int n) {
        for (int i = 0; i < n; i++) {
            QoS.enter("chart");
            QoS.controlPoint();
            QoS.exit();
        }
        return n;
    }

    private static double bytesPerCall(com.sun.management.ThreadMXBean b, Runnable r, int calls) {
        long id = Thread.currentThread().getId();
        long before = b.getThreadAllocatedBytes(id);
        r.run();
        long after = b.getThreadAllocatedBytes(id);
        return (after - before) / (double) calls;
    }

    @Test
    void controlPointFastPathInsideALowScopeAllocatesNothing() {
        com.sun.management.ThreadMXBean b = bean();
        Scheduler.install(Configs.importance(1));
        QoS.enter("chart");
        controlPoints(CALLS); // warm up (JIT)
        double perCall = bytesPerCall(b, () -> controlPoints(CALLS), CALLS);
        QoS.exit();
        assertThat(perCall).as("bytes per control point").isLessThan(0.001);
    }

    @Test
    void controlPointWithoutSchedulerAllocatesNothing() {
        com.sun.management.ThreadMXBean b = bean();
        controlPoints(CALLS);
        assertThat(bytesPerCall(b, () -> controlPoints(CALLS), CALLS)).isLessThan(0.001);
    }

    @Test
    void enterAndExitOnTheSteadyPathAllocateNothing() {
        com.sun.management.ThreadMXBean b = bean();
        Scheduler.install(Configs.importance(1));
        int n = 300_000;
        enterExit(n);
        assertThat(bytesPerCall(b, () -> enterExit(n), n)).as("bytes per enter+exit").isLessThan(0.01);
    }

    /**
     * MTR-LS joins and leaves the service list, reading the thread's CPU clock, without allocating.
     * The tick is slowed down here: at its default 5 ms the tick thread takes the lock often enough
     * that some enters find it held, and a contended ReentrantLock queues a node for the waiter
     * (the mechanism's lock, about 0.01 B per enter+exit measured here; not the policy's path).
     */
    @Test
    void enterAndExitUnderMtrLsAllocateNothing() {
        com.sun.management.ThreadMXBean b = bean();
        Scheduler.install(Configs.config("mtr-ls", java.util.Map.of("cores", "1", "reserved", "0", "sample", "1s")));
        int n = 300_000;
        enterExit(n);
        assertThat(bytesPerCall(b, () -> enterExit(n), n)).as("bytes per enter+exit").isLessThan(0.01);
        assertThat(Scheduler.current().stats().shares()).extracting(e -> e.entity()).contains("chart");
    }

    @Test
    void aProgressPointAllocatesNothing() {
        com.sun.management.ThreadMXBean b = bean();
        Scheduler.install(Configs.config("deadlock-aware", java.util.Map.of()));
        QoS.enter("collect");
        Runnable progress = () -> {
            for (int i = 0; i < CALLS; i++) {
                QoS.progressPoint();
            }
        };
        progress.run();
        double perCall = bytesPerCall(b, progress, CALLS);
        assertThat(Scheduler.current().stats().progressPoints()).containsEntry("collect", 2L * CALLS);
        QoS.exit();
        assertThat(perCall).as("bytes per progress point").isLessThan(0.001);
    }

    /** A thread running on after a wait without progress skips its control points: no allocation. */
    @Test
    void aRunningOnThreadsSkippedControlPointsAllocateNothing() throws Exception {
        com.sun.management.ThreadMXBean b = bean();
        Scheduler s = Scheduler.install(Configs.config("deadlock-aware",
                java.util.Map.of("lowLimit", "0", "timeout", "1ms")));
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Thread high = new Thread(() -> {
            QoS.enter("collect");
            entered.countDown();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                QoS.exit();
            }
        }, "high");
        QoS.enter("chart");
        try {
            high.start();
            entered.await();
            int n = 300_000;
            controlPoints(n); // parks once, for 1 ms without progress, then runs on: the rest skip
            assertThat(s.stats().waitTimeouts()).isPositive();
            double perCall = bytesPerCall(b, () -> controlPoints(n), n);
            assertThat(s.stats().waitQueueSize()).as("still flagged").isEqualTo(1);
            assertThat(perCall).as("bytes per skipped control point").isLessThan(0.01);
        } finally {
            done.countDown();
            high.join(5_000);
            QoS.exit();
        }
    }

    /** Measuring intervals costs a clock read per control point, but no allocation once a thread has its histogram. */
    @Test
    void measuringIntervalsAllocatesNothingOnTheSteadyPath() {
        com.sun.management.ThreadMXBean b = bean();
        Scheduler.install(Configs.importance(1));
        Scheduler.measureIntervals(true);
        int n = 300_000;
        enterExit(n); // the thread's histogram, once
        QoS.enter("chart");
        controlPoints(CALLS / 10);
        double perCall = bytesPerCall(b, () -> controlPoints(CALLS / 10), CALLS / 10);
        QoS.exit();
        assertThat(perCall).as("bytes per measured control point").isLessThan(0.01);
        assertThat(bytesPerCall(b, () -> enterExit(n), n)).as("bytes per measured enter+exit").isLessThan(0.01);
    }
}
