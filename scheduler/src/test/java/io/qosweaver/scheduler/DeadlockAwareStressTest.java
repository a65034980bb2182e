package io.qosweaver.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.scheduler.core.Controller;
import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.StateMachine;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.scheduler.testing.Configs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The deadlock-aware policy's park with a time-out under load: hundreds of threads in high and low
 * scopes at random, with random timing and interrupts, high threads that pass progress points and
 * sometimes stall, and low threads that pass control points while holding a lock that high threads
 * then block on (under the importance policy such a run can deadlock). Every thread must finish,
 * nobody may be left parked or flagged, and every invariant must hold while it runs. CI size: 200
 * threads for about 3 s; {@code -Dqosweaver.stress.scale=N} for more.
 */
class DeadlockAwareStressTest {

    @AfterEach
    void tearDown() {
        Scheduler.uninstall();
    }

    @Test
    void everyThreadFinishesNobodyIsLeftParkedAndTheInvariantsHold() throws Exception {
        int scale = Math.max(1, Integer.getInteger("qosweaver.stress.scale", 1));
        int threads = 200 * scale;
        long runNanos = TimeUnit.SECONDS.toNanos(3) * scale;
        Scheduler s = Scheduler.install(Configs.config("deadlock-aware", Map.of("lowLimit", "1", "timeout", "2ms")));
        Controller ctl = s.controller;
        StateMachine c = ctl.machine();
        ReentrantLock[] locks = {new ReentrantLock(), new ReentrantLock(), new ReentrantLock()};

        AtomicReference<String> violation = new AtomicReference<>();
        AtomicLong interrupts = new AtomicLong(), hostages = new AtomicLong();
        long deadline = System.nanoTime() + runNanos;

        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                while (System.nanoTime() < deadline) {
                    boolean high = r.nextInt(100) < 5;
                    QoS.enter(high ? "collect" : r.nextInt(10) < 8 ? "chart" : "update");
                    try {
                        if (high) {
                            highTask(r, locks);
                        } else {
                            lowTask(r, locks, hostages);
                        }
                    } finally {
                        QoS.exit();
                    }
                    Thread.interrupted(); // the "application" handles interrupts between requests
                }
            }, "deadlock-stress-" + i);
            t.setDaemon(true);
            ts.add(t);
        }
        Thread sampler = new Thread(() -> {
            while (System.nanoTime() < deadline) {
                String v = ctl.locked(() -> {
                    if (c.runQueueSize() > c.limit()) {
                        return "run queue " + c.runQueueSize() + " > limit " + c.limit();
                    }
                    if (Pending.value() != c.waitQueueSize()) {
                        return "flagged " + Pending.value() + " != wait queue " + c.waitQueueSize();
                    }
                    return c.checkInvariants();
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
                LockSupport.parkNanos(r.nextInt(200_000, 2_000_000));
            }
        }, "interrupter");

        ts.forEach(Thread::start);
        sampler.start();
        interrupter.start();
        long joinBy = System.nanoTime() + runNanos + TimeUnit.SECONDS.toNanos(30);
        for (Thread t : ts) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(joinBy - System.nanoTime())));
            assertThat(t.isAlive()).as("%s finished (no deadlock, no lost wake-up)", t.getName()).isFalse();
        }
        sampler.join();
        interrupter.join();

        assertThat(violation.get()).as("invariant violation").isNull();
        SchedulerStats st = s.stats();
        assertThat(st.runningThreads().values()).as("no leaked running slot").containsOnly(0);
        assertThat(st.runQueueSize() + st.waitQueueSize() + st.suspendedThreads()).isZero();
        assertThat(st.limit()).isEqualTo(-1);
        assertThat(Pending.value()).isZero();
        assertThat(st.internalErrors()).isZero();
        assertThat(st.resumes()).isEqualTo(st.suspensions());
        // the run really exercised the timed waits
        assertThat(st.suspensions()).isPositive();
        assertThat(st.waitTimeouts()).as("waits that ran on").isPositive();
        assertThat(hostages.get()).as("control points passed with a lock held").isPositive();
        System.out.printf("deadlock-aware stress: %d threads, %d suspensions, %d run-ons, %d interrupts,"
                + " %d control points with a lock held%n", threads, st.suspensions(), st.waitTimeouts(),
                interrupts.get(), hostages.get());
    }

    /** Progress points, sometimes a stall, sometimes a lock a low thread may be holding. */
    private static void highTask(ThreadLocalRandom r, ReentrantLock[] locks) {
        int n = r.nextInt(1, 30);
        for (int k = 0; k < n; k++) {
            QoS.progressPoint();
            LockSupport.parkNanos(r.nextInt(20_000, 300_000));
            if (r.nextInt(10) == 0) {
                LockSupport.parkNanos(r.nextInt(1_000_000, 6_000_000)); // a stall: no progress
            }
            if (r.nextInt(5) == 0) {
                ReentrantLock l = locks[r.nextInt(locks.length)];
                l.lock(); // not interruptible: only a running holder lets it go
                try {
                    QoS.progressPoint();
                } finally {
                    l.unlock();
                }
            }
        }
    }

    /** Control points, some of them with a lock held that a high task may need. */
    private static void lowTask(ThreadLocalRandom r, ReentrantLock[] locks, AtomicLong hostages) {
        int n = r.nextInt(1, 20);
        ReentrantLock held = null;
        if (r.nextInt(4) == 0) {
            ReentrantLock l = locks[r.nextInt(locks.length)];
            if (l.tryLock()) {
                held = l;
            }
        }
        try {
            for (int k = 0; k < n; k++) {
                QoS.controlPoint();
                if (held != null) {
                    hostages.incrementAndGet();
                }
                LockSupport.parkNanos(r.nextInt(50_000, 500_000));
            }
        } finally {
            if (held != null) {
                held.unlock();
            }
        }
    }
}
