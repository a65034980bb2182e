package io.qosweaver.scheduler;

import io.qosweaver.scheduler.core.Controller;
import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.StateMachine;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.scheduler.testing.Configs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Hundreds of threads entering high, low and normal scopes at random, nesting, passing control
 * points, being interrupted, leaving at random. CI size: 200 threads for about 3 s; run bigger
 * with {@code -Dqosweaver.stress.scale=N} (N times the threads and the duration).
 */
class StressTest {

    @AfterEach
    void tearDown() {
        Scheduler.uninstall();
    }

    @Test
    void noLostWakeUpNoLeakedSlotAndTheLimitHolds() throws Exception {
        int scale = Math.max(1, Integer.getInteger("qosweaver.stress.scale", 1));
        int threads = 200 * scale;
        long runNanos = TimeUnit.SECONDS.toNanos(3) * scale;
        int lowLimit = 2;
        Scheduler s = Scheduler.install(Configs.importance(lowLimit));
        Controller ctl = s.controller;
        StateMachine c = ctl.machine();

        AtomicReference<String> violation = new AtomicReference<>();
        AtomicLong samples = new AtomicLong(), restrictedSamples = new AtomicLong();
        AtomicLong interrupts = new AtomicLong(), cps = new AtomicLong();
        long deadline = System.nanoTime() + runNanos;

        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                while (System.nanoTime() < deadline) {
                    int kind = r.nextInt(100);
                    String cls = kind < 5 ? "collect" : kind < 80 ? "chart" : "update";
                    QoS.enter(cls);
                    try {
                        int n = r.nextInt(1, 20);
                        for (int k = 0; k < n; k++) {
                            QoS.controlPoint();
                            cps.incrementAndGet();
                            if (r.nextInt(50) == 0) {
                                QoS.enter(r.nextBoolean() ? "chart" : "update"); // nesting
                                QoS.controlPoint();
                                QoS.exit();
                            }
                            LockSupport.parkNanos(r.nextInt(50_000, 500_000));
                            if (r.nextInt(200) == 0) {
                                break; // leave early
                            }
                        }
                        if (r.nextInt(100) == 0) {
                            throw new IllegalStateException("request failed");
                        }
                    } catch (IllegalStateException expected) {
                        // thrown through the scope; exit in finally
                    } finally {
                        QoS.exit();
                    }
                    Thread.interrupted(); // the "application" handles interrupts between requests
                }
            }, "stress-" + i);
            t.setDaemon(true);
            ts.add(t);
        }

        Thread sampler = new Thread(() -> {
            while (System.nanoTime() < deadline) {
                String v = ctl.locked(() -> {
                    samples.incrementAndGet();
                    if (c.limit() != Control.UNLIMITED) {
                        restrictedSamples.incrementAndGet();
                    }
                    if (c.runQueueSize() > c.limit()) {
                        return "run queue " + c.runQueueSize() + " > limit " + c.limit();
                    }
                    if (Pending.value() != c.waitQueueSize()) {
                        return "flagged " + Pending.value() + " != wait queue " + c.waitQueueSize();
                    }
                    String broken = c.checkInvariants();
                    if (broken != null) {
                        return broken;
                    }
                    if (c.executingControlled() < 0) {
                        return "more parked than waiting";
                    }
                    return null;
                });
                if (v != null) {
                    violation.compareAndSet(null, v);
                }
                LockSupport.parkNanos(200_000);
            }
        }, "sampler");
        Thread interrupter = new Thread(() -> {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            while (System.nanoTime() < deadline) {
                ts.get(r.nextInt(ts.size())).interrupt();
                interrupts.incrementAndGet();
                LockSupport.parkNanos(1_000_000);
            }
        }, "interrupter");

        ts.forEach(Thread::start);
        sampler.start();
        interrupter.start();

        long joinBy = System.nanoTime() + runNanos + TimeUnit.SECONDS.toNanos(20);
        for (Thread t : ts) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinBy - System.nanoTime())));
            assertThat(t.isAlive()).as("%s finished (no lost wake-up)", t.getName()).isFalse();
        }
        sampler.join();
        interrupter.join();

        assertThat(violation.get()).as("invariant violation").isNull();
        SchedulerStats st = s.stats();
        assertThat(st.runningThreads().values()).as("no leaked running slot").containsOnly(0);
        assertThat(st.runQueueSize()).isZero();
        assertThat(st.waitQueueSize()).isZero();
        assertThat(st.suspendedThreads()).isZero();
        assertThat(st.limit()).isEqualTo(-1);
        assertThat(Pending.value()).isZero();
        assertThat(st.internalErrors()).isZero();
        // the run really exercised the mechanism
        assertThat(restrictedSamples.get()).isPositive();
        assertThat(st.suspensions()).isPositive();
        assertThat(st.resumes()).isEqualTo(st.suspensions());
        assertThat(st.suspensionTimeCount()).isPositive();
        assertThat(st.controlPoints()).isGreaterThanOrEqualTo(cps.get() / 2); // racy counter, roughly
        System.out.printf("stress: %d threads, %d control points, %d yields, %d suspensions, %d interrupts,"
                        + " %d/%d restricted samples, suspension p50 %.3f ms p99 %.3f ms max %.3f ms%n",
                threads, cps.get(), st.yields(), st.suspensions(), interrupts.get(), restrictedSamples.get(),
                samples.get(), st.suspensionTimeP50Nanos() / 1e6, st.suspensionTimeP99Nanos() / 1e6,
                st.suspensionTimeMaxNanos() / 1e6);
    }
}
