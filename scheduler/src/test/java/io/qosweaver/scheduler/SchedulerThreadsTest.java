package io.qosweaver.scheduler;

import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.scheduler.testing.Configs;
import io.qosweaver.scheduler.testing.Worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The mechanism with real threads parking and unparking. */
class SchedulerThreadsTest {
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
        ThreadStates.removeForTests(); // forget the test thread's own scopes
        assertThat(Pending.value()).as("no thread left flagged").isZero();
    }

    private List<Worker> startLow(int n) {
        List<Worker> ws = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Worker w = Worker.start("chart", "low-" + i);
            ws.add(w);
            workers.add(w);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> ws.stream().allMatch(w -> w.passes.get() > 2));
        return ws;
    }

    private static List<Worker> parked(List<Worker> ws) {
        return ws.stream().filter(Worker::parkedInScheduler).collect(Collectors.toList());
    }

    @Test
    void lowThreadsSuspendAtNextControlPointAndAllResumeWhenHighLeaves() {
        Scheduler s = Scheduler.install(Configs.importance(1));
        List<Worker> low = startLow(3);
        assertThat(s.stats().runningThreads()).containsEntry("chart", 3);

        QoS.enter("collect"); // the test thread is the high task
        await().atMost(Duration.ofSeconds(5)).until(() -> parked(low).size() == 2);
        SchedulerStats st = s.stats();
        assertThat(st.suspendedThreads()).isEqualTo(2);
        assertThat(st.runningThreads()).containsEntry("chart", 1).containsEntry("collect", 1);
        assertThat(st.suspensionTimeCount()).isEqualTo(1);
        assertThat(st.yields()).isEqualTo(2);

        List<Worker> held = parked(low);
        long[] before = held.stream().mapToLong(w -> w.passes.get()).toArray();
        await().during(Duration.ofMillis(150)).atMost(Duration.ofSeconds(2)).until(() ->
                held.get(0).passes.get() == before[0] && held.get(1).passes.get() == before[1]);

        QoS.exit();
        await().atMost(Duration.ofSeconds(5)).until(() ->
                held.get(0).passes.get() > before[0] && held.get(1).passes.get() > before[1]);
        assertThat(s.stats().suspendedThreads()).isZero();
        assertThat(s.stats().resumes()).isEqualTo(2);
        assertThat(Pending.value()).isZero();
    }

    @Test
    void lowExitHandsTheSlotToAWaiter() {
        Scheduler.install(Configs.importance(1));
        List<Worker> low = startLow(2);
        QoS.enter("collect");
        await().atMost(Duration.ofSeconds(5)).until(() -> parked(low).size() == 1);
        Worker runner = low.stream().filter(w -> !w.parkedInScheduler()).findFirst().orElseThrow();
        Worker waiter = parked(low).get(0);
        long before = waiter.passes.get();
        runner.stop = true;
        await().atMost(Duration.ofSeconds(5)).until(() -> runner.done && waiter.passes.get() > before);
        assertThat(Scheduler.current().stats().runningThreads()).containsEntry("chart", 1);
        QoS.exit();
    }

    @Test
    void lowThreadEnteringWhileRestrictedParksAtItsFirstControlPoint() {
        Scheduler.install(Configs.importance(0));
        QoS.enter("collect");
        Worker w = Worker.start("chart", "late");
        workers.add(w);
        await().atMost(Duration.ofSeconds(5)).until(w::parkedInScheduler);
        assertThat(w.passes.get()).isZero();
        QoS.exit();
        await().atMost(Duration.ofSeconds(5)).until(() -> w.passes.get() > 0);
    }

    @Test
    void interruptWhileParkedKeepsTheStatusAndReleasesThePlace() {
        Scheduler s = Scheduler.install(Configs.importance(0));
        List<Worker> low = startLow(2);
        QoS.enter("collect");
        await().atMost(Duration.ofSeconds(5)).until(() -> parked(low).size() == 2);
        Worker victim = low.get(0);
        victim.thread.interrupt();
        await().atMost(Duration.ofSeconds(5)).until(() -> victim.done);
        assertThat(victim.interruptSeenAfterControlPoint).isTrue();
        SchedulerStats st = s.stats();
        assertThat(st.suspendedThreads()).isEqualTo(1);
        assertThat(st.waitQueueSize()).isEqualTo(1);
        assertThat(st.runningThreads()).containsEntry("chart", 0);
        assertThat(low.get(1).parkedInScheduler()).isTrue();
        QoS.exit();
    }

    @Test
    void exceptionThroughAScopeReleasesIt() {
        Scheduler s = Scheduler.install(Configs.importance(1));
        assertThatThrownBy(() -> {
            QoS.enter("chart");
            try {
                QoS.controlPoint();
                throw new IllegalStateException("boom");
            } finally {
                QoS.exit();
            }
        }).hasMessage("boom");
        assertThat(s.stats().runningThreads()).containsEntry("chart", 0);
        assertThat(s.stats().runQueueSize()).isZero();
    }

    @Test
    void unbalancedExitsAndControlPointsOutsideScopesAreHarmless() {
        Scheduler s = Scheduler.install(Configs.importance(1));
        QoS.exit();
        QoS.controlPoint();
        QoS.enter("chart");
        QoS.enter("chart"); // re-entrant
        QoS.controlPoint();
        QoS.exit();
        QoS.exit();
        QoS.exit();
        assertThat(s.stats().runningThreads()).containsEntry("chart", 0);
        assertThat(s.stats().internalErrors()).isZero();
    }

    @Test
    void uninstallReleasesEveryParkedThread() {
        Scheduler.install(Configs.importance(0));
        List<Worker> low = startLow(3);
        QoS.enter("collect");
        await().atMost(Duration.ofSeconds(5)).until(() -> parked(low).size() == 3);
        long[] before = low.stream().mapToLong(w -> w.passes.get()).toArray();
        Scheduler.uninstall();
        assertThat(Scheduler.current()).isNull();
        await().atMost(Duration.ofSeconds(5)).until(() ->
                low.get(0).passes.get() > before[0] && low.get(1).passes.get() > before[1]
                        && low.get(2).passes.get() > before[2]);
        assertThat(Pending.value()).isZero();
        QoS.exit();
    }

    @Test
    void installReplacesTheSchedulerAndReleasesThreadsTheOldOneHeld() {
        Scheduler old = Scheduler.install(Configs.importance(0));
        List<Worker> low = startLow(2);
        QoS.enter("collect");
        await().atMost(Duration.ofSeconds(5)).until(() -> parked(low).size() == 2);
        Scheduler fresh = Scheduler.install(Configs.importance(1));
        assertThat(Scheduler.current()).isSameAs(fresh);
        assertThat(old.isInstalled()).isFalse();
        // released by the old one; the new one adopted the running collection (this thread) and the
        // low threads, and its lowLimit 1 lets one of them run: the other parks again under it
        assertThat(fresh.adopted()).containsEntry("collect", 1).containsEntry("chart", 2);
        await().atMost(Duration.ofSeconds(5)).until(() -> parkedIn(low, old).isEmpty()
                && parkedIn(low, fresh).size() == 1);
        // the adopted collection's exit reaches the new scheduler: both run
        QoS.exit();
        await().atMost(Duration.ofSeconds(5)).until(() -> parked(low).isEmpty()
                && low.stream().allMatch(w -> w.passes.get() > 3));
        assertThat(Pending.value()).isZero();
        for (Worker w : low) {
            w.stop = true;
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> low.stream().allMatch(w -> w.done));
        // the new scheduler governs threads that enter under it
        QoS.enter("collect");
        List<Worker> next = startLowUnder(3);
        await().atMost(Duration.ofSeconds(5)).until(() -> parked(next).size() == 2);
        QoS.exit();
        await().atMost(Duration.ofSeconds(5)).until(() -> parked(next).isEmpty());
    }

    private static List<Worker> parkedIn(List<Worker> ws, Scheduler s) {
        return ws.stream().filter(w -> java.util.concurrent.locks.LockSupport.getBlocker(w.thread) == s.controller)
                .collect(Collectors.toList());
    }

    private List<Worker> startLowUnder(int n) {
        List<Worker> ws = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Worker w = Worker.start("chart", "next-" + i);
            ws.add(w);
            workers.add(w);
        }
        return ws;
    }

    @Test
    void invalidConfigurationIsRejectedAndTheOldSchedulerKeepsRunning() {
        Scheduler s = Scheduler.install(Configs.importance(1));
        assertThatThrownBy(() -> Scheduler.install(new SchedulerConfig(List.of(),
                new SchedulerConfig.PolicySpec("fastest", Map.of()))))
                .isInstanceOf(PolicyConfigException.class)
                .hasMessageContaining("importance")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.name");
        assertThatThrownBy(() -> Scheduler.install(new SchedulerConfig(List.of(
                new TaskClassSpec("chart", Map.of()),
                new TaskClassSpec("chart", Map.of())),
                new SchedulerConfig.PolicySpec("importance", Map.of()))))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("taskClasses.chart");
        assertThatThrownBy(() -> Scheduler.install(new SchedulerConfig(List.of(
                new TaskClassSpec("chart", Map.of("importance", "urgent"))),
                new SchedulerConfig.PolicySpec("importance", Map.of()))))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("taskClasses.chart.importance");
        assertThatThrownBy(() -> Scheduler.install(Configs.importance(-3)))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowLimit");
        assertThatThrownBy(() -> Scheduler.install(new SchedulerConfig(List.of(), null)))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy");
        assertThat(Scheduler.current()).isSameAs(s);
        assertThat(s.isInstalled()).isTrue();
    }

    @Test
    void aBrokenPolicyFailsOpenAndIsCounted() {
        Policies.register("broken", context -> new Policy() {
            @Override public String name() { return "broken"; }
            @Override public int rank(TaskClassSpec c) { return 1; }
            @Override public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
                if (to != null) {
                    c.admit(t);
                    c.setLimit(0); // flags the thread ...
                    throw new IllegalStateException("policy bug"); // ... then breaks
                }
            }
        });
        Scheduler s = Scheduler.install(new SchedulerConfig(
                List.of(new TaskClassSpec("x", Map.of())),
                new SchedulerConfig.PolicySpec("broken", Map.of())));
        QoS.enter("x");       // must not throw
        QoS.controlPoint();   // must not park: the mechanism released the thread when the policy threw
        QoS.exit();
        assertThat(s.stats().internalErrors()).isEqualTo(1);
        assertThat(Pending.value()).isZero();
    }

    @Test
    void statsAreExposedOverJmxWhileInstalled() throws Exception {
        Scheduler.install(Configs.importance(2));
        ObjectName name = new ObjectName("io.qosweaver:type=Scheduler");
        var server = ManagementFactory.getPlatformMBeanServer();
        assertThat(server.isRegistered(name)).isTrue();
        assertThat(server.getAttribute(name, "Policy")).isEqualTo("importance");
        QoS.enter("collect");
        assertThat(server.getAttribute(name, "Limit")).isEqualTo(2);
        QoS.exit();
        Scheduler.uninstall();
        assertThat(server.isRegistered(name)).isFalse();
    }

    @Test
    void nothingHappensWithoutAScheduler() {
        Scheduler.uninstall();
        QoS.enter("chart");
        QoS.controlPoint();
        QoS.exit();
        assertThat(Configs.depth()).isZero();
    }
}
