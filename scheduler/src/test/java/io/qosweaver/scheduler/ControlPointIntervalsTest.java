package io.qosweaver.scheduler;

import io.qosweaver.scheduler.core.ControlPointIntervals;
import io.qosweaver.scheduler.event.IntervalHistogram;
import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.stats.IntervalSnapshot;
import io.qosweaver.scheduler.stats.PrometheusText;
import io.qosweaver.scheduler.testing.Configs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Measured intervals between adjacent control points (paper 5.3, Fig. 19 and 21). */
class ControlPointIntervalsTest {
    private final Configs.FakeTicker clock = new Configs.FakeTicker();

    @AfterEach
    void tearDown() {
        Scheduler.measureIntervals(false);
        Scheduler.uninstall();
        ThreadStates.removeForTests();
    }

    private static IntervalSnapshot chart(Scheduler s) {
        return s.stats().controlPointIntervals().get("chart");
    }

    @Test
    void offByDefaultAndThenNothingIsRecordedAndNothingIsPending() {
        Scheduler s = Scheduler.install(Configs.importance(1), clock);
        QoS.enter("chart");
        for (int i = 0; i < 5; i++) {
            clock.advanceMillis(3);
            QoS.controlPoint();
        }
        QoS.exit();
        assertThat(Scheduler.measuringIntervals()).isFalse();
        assertThat(Pending.value()).isZero();
        assertThat(s.stats().controlPointIntervals()).isEmpty();
        assertThat(s.stats().intervalMeasurement()).isFalse();
    }

    @Test
    void intervalsAreBetweenAdjacentControlPointsOfOneTaskOnly() {
        Scheduler s = Scheduler.install(Configs.importance(1), clock);
        assertThat(Scheduler.measureIntervals(true)).isTrue();
        assertThat(Scheduler.measureIntervals(true)).as("already on").isFalse();
        assertThat(Pending.value()).isEqualTo(ControlPointIntervals.MEASURING);

        QoS.controlPoint(); // outside any task: not an interval
        QoS.enter("chart");
        clock.advanceMillis(50); // entry to the first control point: not an interval
        QoS.controlPoint();
        clock.advanceMillis(2);
        QoS.controlPoint();
        clock.advanceMillis(4);
        QoS.controlPoint();
        clock.advanceMillis(100); // last control point to exit: not an interval
        QoS.exit();
        QoS.enter("chart"); // a new task: its first interval starts at its own first control point
        clock.advanceMillis(7);
        QoS.controlPoint();
        clock.advanceMillis(6);
        QoS.controlPoint();
        QoS.exit();

        IntervalSnapshot h = chart(s);
        assertThat(h.count()).isEqualTo(3);
        assertThat(h.sumNanos()).isEqualTo(12_000_000L);
        assertThat(h.maxNanos()).isEqualTo(6_000_000L);
        assertThat(h.meanNanos()).isEqualTo(4_000_000.0);
        assertThat(h.stddevNanos()).isCloseTo(Math.sqrt((4 + 0 + 4) / 3.0) * 1e6, org.assertj.core.data.Offset.offset(1.0));
        assertThat(s.stats().intervalMeasurement()).isTrue();

        assertThat(Scheduler.measureIntervals(false)).isTrue();
        assertThat(Pending.value()).isZero();
        assertThat(chart(s).count()).as("totals are kept after stopping").isEqualTo(3);
    }

    @Test
    void nestedScopesOfAnotherClassStartANewSpanAndTheirIntervalsGoToThatClass() {
        Scheduler s = Scheduler.install(Configs.importance(1), clock);
        Scheduler.measureIntervals(true);
        QoS.enter("chart");
        QoS.controlPoint();
        clock.advanceMillis(1);
        QoS.controlPoint();
        QoS.enter("collect"); // higher rank: the role changes
        clock.advanceMillis(10);
        QoS.controlPoint();
        clock.advanceMillis(20);
        QoS.controlPoint();
        QoS.exit(); // back to chart: a new span, no interval across the nested task
        clock.advanceMillis(30);
        QoS.controlPoint();
        clock.advanceMillis(5);
        QoS.controlPoint();
        QoS.exit();
        assertThat(chart(s).count()).isEqualTo(2);
        assertThat(chart(s).sumNanos()).isEqualTo(6_000_000L);
        assertThat(s.stats().controlPointIntervals().get("collect").sumNanos()).isEqualTo(20_000_000L);
    }

    @Test
    void aRunningTaskPublishesItsIntervalsWithoutEnding() {
        Scheduler s = Scheduler.install(Configs.importance(1), clock);
        Scheduler.measureIntervals(true);
        QoS.enter("chart");
        QoS.controlPoint();
        for (int i = 0; i < 10; i++) {
            clock.advanceMillis(40); // 400 ms in all, past the flush delay
            QoS.controlPoint();
        }
        assertThat(chart(s)).as("still inside the task").isNotNull();
        assertThat(chart(s).count()).isBetween(6L, 10L);
        QoS.exit();
        assertThat(chart(s).count()).isEqualTo(10);
    }

    /**
     * A worker thread passes control points when told to; the test drives the fake clock, so the
     * only real-time element is the handshake. Parked for 10 s of fake time, the worker's next
     * interval starts when it resumes.
     */
    @Test
    void timeParkedAtAControlPointIsNotAnInterval() throws Exception {
        Scheduler s = Scheduler.install(Configs.importance(0), clock);
        Scheduler.measureIntervals(true);
        java.util.concurrent.SynchronousQueue<String> commands = new java.util.concurrent.SynchronousQueue<>();
        java.util.concurrent.SynchronousQueue<String> done = new java.util.concurrent.SynchronousQueue<>();
        Thread worker = new Thread(() -> {
            QoS.enter("chart");
            try {
                while (commands.take().equals("cp")) {
                    QoS.controlPoint();
                    done.put("ok");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                QoS.exit();
            }
        }, "low");
        worker.start();
        commands.put("cp");
        done.take();
        clock.advanceMillis(1);
        commands.put("cp");
        done.take(); // interval 1 ms
        QoS.enter("collect"); // lowLimit 0: the worker must stop at its next control point
        clock.advanceMillis(2);
        commands.put("cp"); // interval 2 ms, then it parks
        await().atMost(Duration.ofSeconds(10)).until(() -> s.stats().suspendedThreads() == 1);
        clock.advanceMillis(10_000); // parked for 10 s
        QoS.exit();
        done.take();
        clock.advanceMillis(3);
        commands.put("cp");
        done.take(); // interval 3 ms, counted from the resumption
        commands.put("stop");
        worker.join(10_000);

        IntervalSnapshot h = chart(s);
        assertThat(h.count()).isEqualTo(3);
        assertThat(h.sumNanos()).isEqualTo(6_000_000L);
        assertThat(h.maxNanos()).as("the 10 s parked is not an interval").isEqualTo(3_000_000L);
    }

    @Test
    void bucketsHaveReadableBoundsFromOneMicrosecondToTenSeconds() {
        long[] b = IntervalSnapshot.boundsNanos();
        assertThat(b).startsWith(1_000, 1_500, 2_000, 3_000, 5_000, 7_000, 10_000, 15_000);
        assertThat(b).endsWith(5_000_000_000L, 7_000_000_000L, 10_000_000_000L);
        for (int i = 1; i < b.length; i++) {
            assertThat((double) b[i] / b[i - 1]).isBetween(1.3, 1.7);
        }
        assertThat(IntervalSnapshot.bucket(0)).isZero();
        assertThat(IntervalSnapshot.bucket(1_000)).isZero();
        assertThat(IntervalSnapshot.bucket(1_001)).isEqualTo(1);
        assertThat(IntervalSnapshot.bucket(Long.MAX_VALUE)).isEqualTo(b.length);
        IntervalHistogram h = new IntervalHistogram();
        h.add(-5);
        assertThat(h.count()).isEqualTo(1);
        assertThat(h.snapshot().sumNanos()).isZero();
    }

    @Test
    void prometheusTextHasACumulativeHistogramPerTaskClass() {
        Scheduler s = Scheduler.install(Configs.importance(1), clock);
        Scheduler.measureIntervals(true);
        QoS.enter("chart");
        QoS.controlPoint();
        clock.advanceMillis(1);
        QoS.controlPoint();
        clock.advanceMillis(3);
        QoS.controlPoint();
        QoS.exit();
        String text = PrometheusText.render(s.stats());
        assertThat(text).contains("qosweaver_interval_measurement 1\n")
                .contains("# TYPE qosweaver_control_point_interval_seconds histogram\n")
                .contains("qosweaver_control_point_interval_seconds_bucket{task_class=\"chart\",le=\"0.001000000\"} 1\n")
                .contains("qosweaver_control_point_interval_seconds_bucket{task_class=\"chart\",le=\"0.002000000\"} 1\n")
                .contains("qosweaver_control_point_interval_seconds_bucket{task_class=\"chart\",le=\"0.005000000\"} 2\n")
                .contains("qosweaver_control_point_interval_seconds_bucket{task_class=\"chart\",le=\"+Inf\"} 2\n")
                .contains("qosweaver_control_point_interval_seconds_sum{task_class=\"chart\"} 0.004000000\n")
                .contains("qosweaver_control_point_interval_seconds_count{task_class=\"chart\"} 2\n")
                .contains("qosweaver_control_point_interval_seconds_max{task_class=\"chart\"} 0.003000000\n")
                .contains("qosweaver_control_point_interval_seconds_squares{task_class=\"chart\"} 1.00000000000e-05\n");
    }

    /**
     * Many threads with random scopes and timing while measurement is switched on and off at
     * random: the pending word always returns to its flagged count, and every recorded interval
     * was between two control points of one task (bounded by the longest task).
     */
    @Test
    void stressTogglingWhileManyThreadsRunRandomTasks() throws Exception {
        Scheduler s = Scheduler.install(Configs.importance(2));
        AtomicBoolean go = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            String cls = i % 8 == 0 ? "collect" : i % 3 == 0 ? "update" : "chart";
            Thread t = new Thread(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                while (go.get()) {
                    QoS.enter(cls);
                    try {
                        int n = r.nextInt(50);
                        for (int k = 0; k < n; k++) {
                            QoS.controlPoint();
                            if (r.nextInt(20) == 0) {
                                Thread.yield();
                            }
                        }
                    } finally {
                        QoS.exit();
                    }
                    if (r.nextInt(10) == 0) {
                        Thread.onSpinWait();
                    }
                }
            }, "stress-" + i);
            t.start();
            threads.add(t);
        }
        ThreadLocalRandom r = ThreadLocalRandom.current();
        long end = System.nanoTime() + 1_500_000_000L;
        while (System.nanoTime() < end) {
            Scheduler.measureIntervals(r.nextBoolean());
            Thread.sleep(r.nextInt(1, 20));
        }
        Scheduler.measureIntervals(true);
        Thread.sleep(50);
        go.set(false);
        for (Thread t : threads) {
            t.join(10_000);
            assertThat(t.isAlive()).isFalse();
        }
        Scheduler.measureIntervals(false);
        await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().suspendedThreads() == 0);
        assertThat(Pending.value()).isZero();
        IntervalSnapshot h = chart(s);
        assertThat(h).isNotNull();
        assertThat(h.count()).isPositive();
        assertThat(java.util.Arrays.stream(h.bucketCounts()).sum()).isEqualTo(h.count());
    }
}
