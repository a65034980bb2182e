package io.qosweaver.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.StateMachine;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.scheduler.testing.Configs;
import io.qosweaver.scheduler.testing.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The defects the mechanism was rebuilt to exclude, each with real threads. The scheduler
 * module's tests run with the park's safety net at one hour ({@code qosweaver.parkSafetyNanos}),
 * so a missing unpark hangs the thread and fails the test instead of being hidden by a timed
 * wake-up.
 */
class CorrectnessTest {
    private final List<Worker> workers = new ArrayList<>();

    @AfterEach
    void tearDown() throws InterruptedException {
        Scheduler.uninstall();
        for (Worker w : workers) {
            w.stop = true;
        }
        for (Worker w : workers) {
            w.thread.join(5_000);
            assertThat(w.thread.isAlive()).as("worker %s finished", w.thread.getName()).isFalse();
        }
        ThreadStates.removeForTests();
        assertThat(Pending.value()).isZero();
    }

    private Worker start(String name) {
        Worker w = Worker.start("chart", name);
        workers.add(w);
        await().atMost(Duration.ofSeconds(5)).until(() -> w.passes.get() > 0);
        return w;
    }

    /**
     * The yield-flag ABA: a release (flag cleared, thread unparked) followed at once by a new
     * demotion (flag set again) before the woken thread ran. It must begin a new, counted wait and
     * be woken by the next release.
     */
    @Test
    void aReleaseAndAnImmediateDemotionLeaveTheThreadParkedCountedAndWakeable() {
        Scheduler s = Scheduler.install(Configs.importance(0));
        Worker w = start("aba");
        QoS.enter("collect");
        await().atMost(Duration.ofSeconds(5)).until(w::parkedInScheduler);
        StateMachine m = s.controller.machine();
        s.controller.locked(() -> {
            m.setLimit(Control.UNLIMITED);
            m.setLimit(0);
            return null;
        });
        await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().suspendedThreads() == 1 && w.parkedInScheduler());
        long passes = w.passes.get();
        SchedulerStats st = s.stats();
        assertThat(st.suspensions()).as("two waits, both counted").isEqualTo(2);
        assertThat(st.runningThreads()).containsEntry("chart", 0);
        assertThat(st.suspensionTimeCount()).as("two limit drops, each closed when the thread parked").isEqualTo(2);
        QoS.exit(); // the next release must wake it: with an hour's safety net nothing else would
        await().atMost(Duration.ofSeconds(5)).until(() -> w.passes.get() > passes);
        assertThat(s.stats().suspendedThreads()).isZero();
    }

    /**
     * An interrupt reaches the application at once, and the thread stays under control: it keeps
     * its place in the wait queue, passes control points while its status is set, and parks again
     * at the first control point after the application cleared the status.
     */
    @Test
    void anInterruptedWaiterGetsItsInterruptAtOnceAndStaysUnderControl() throws Exception {
        Scheduler s = Scheduler.install(Configs.importance(0));
        AtomicLong passes = new AtomicLong();
        AtomicBoolean sawInterrupt = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch cleared = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            QoS.enter("chart");
            try {
                while (!stop.get()) {
                    QoS.controlPoint();
                    passes.incrementAndGet();
                    if (Thread.currentThread().isInterrupted() && !sawInterrupt.get()) {
                        sawInterrupt.set(true);
                        QoS.controlPoint(); // still interrupted: passes without parking
                        QoS.controlPoint();
                        Thread.interrupted(); // the application handles it and goes on
                        cleared.countDown();
                    }
                    Thread.onSpinWait();
                }
            } finally {
                QoS.exit();
            }
        }, "interrupted");
        t.setDaemon(true);
        t.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> passes.get() > 0);
        QoS.enter("collect");
        await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().suspendedThreads() == 1);
        t.interrupt();
        assertThat(cleared.await(5, java.util.concurrent.TimeUnit.SECONDS)).as("the interrupt arrived").isTrue();
        await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().suspendedThreads() == 1);
        SchedulerStats st = s.stats();
        assertThat(st.interruptedPasses()).isEqualTo(2);
        assertThat(st.waitQueueSize()).as("kept its place").isEqualTo(1);
        assertThat(st.runQueueSize()).isZero();
        assertThat(st.suspensions()).as("parked again after clearing its status").isEqualTo(2);
        long before = passes.get();
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2)).until(() -> passes.get() == before);
        QoS.exit();
        await().atMost(Duration.ofSeconds(5)).until(() -> passes.get() > before);
        stop.set(true);
        t.join(5_000);
        assertThat(t.isAlive()).isFalse();
    }

    /**
     * Exits pair with enters whatever is installed in between: the exit of a scope entered while no
     * scheduler was installed pops that scope, not the one below it.
     */
    @Test
    void aScopeEnteredWithoutASchedulerIsPoppedByItsOwnExitAfterAnInstall() {
        Scheduler.install(Configs.importance(1));
        QoS.enter("chart");   // X, under the first scheduler
        Scheduler.uninstall(); // X is stale now
        QoS.enter("collect"); // A, with no scheduler: an inert scope
        assertThat(Configs.depth()).isEqualTo(2);
        Scheduler s = Scheduler.install(Configs.importance(1));
        QoS.enter("chart");
        assertThat(s.stats().runningThreads()).containsEntry("chart", 1).containsEntry("collect", 0);
        assertThat(s.stats().limit()).as("the inert collect is no high task").isEqualTo(-1);
        QoS.exit();
        assertThat(Configs.depth()).isEqualTo(2);
        QoS.exit(); // A's own exit pops A
        assertThat(Configs.depth()).as("X is still open").isEqualTo(1);
        QoS.exit(); // X's exit
        assertThat(Configs.depth()).isZero();
        assertThat(s.stats().runningThreads()).containsEntry("chart", 0);
    }

    /** A flagged thread at a control point inside a monitor is never suspended there. */
    @Test
    void aControlPointInsideAMonitorNeverSuspends() {
        Scheduler s = Scheduler.install(Configs.importance(0));
        Object lock = new Object();
        AtomicLong inMonitor = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        Thread t = new Thread(() -> {
            QoS.enter("chart");
            try {
                while (!stop.get()) {
                    synchronized (lock) {
                        QoS.controlPointInMonitor();
                        inMonitor.incrementAndGet();
                    }
                    Thread.onSpinWait();
                }
            } finally {
                QoS.exit();
            }
        }, "in-monitor");
        t.setDaemon(true);
        t.start();
        QoS.enter("collect");
        await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().monitorSkips() > 10);
        assertThat(s.stats().suspendedThreads()).isZero();
        assertThat(s.stats().waitQueueSize()).as("flagged all the same").isEqualTo(1);
        QoS.exit();
        stop.set(true);
    }
}
