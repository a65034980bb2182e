package io.qosweaver.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Admission control (paper 5.1): a scripted Control for the decisions, the mechanism on a fake
 * clock for the queues and the suspension-time episode, then real threads for waiting at entry.
 */
class AdmissionPolicyTest {
    private final List<Worker> workers = new ArrayList<>();

    @AfterEach
    void tearDown() throws InterruptedException {
        Scheduler.uninstall();
        for (Worker w : workers) {
            w.stop = true;
        }
        for (Worker w : workers) {
            w.thread.join(5_000);
        }
        QoS.STATE.remove();
        assertThat(ThreadController.pending).isZero();
    }

    static SchedulerConfig admission(int lowLimit) {
        return PolicyContractTest.config("admission", lowLimit);
    }

    /** Records the calls, admission's two in particular. */
    static final class ScriptedControl implements Control {
        final List<String> calls = new ArrayList<>();

        @Override public void admit(ManagedThread t) { calls.add("admit " + t.thread().getName()); }
        @Override public void admitAtEntry(ManagedThread t) { calls.add("admitAtEntry " + t.thread().getName()); }
        @Override public void release(ManagedThread t) { calls.add("release " + t.thread().getName()); }
        @Override public void setLimit(int permits) { calls.add("setLimit " + permits); }
        @Override public void setLimitWithoutPreemption(int permits) {
            calls.add("limitNoPreempt " + (permits == UNLIMITED ? "unlimited" : permits));
        }
        @Override public int limit() { return 0; }
        @Override public int runQueueSize() { return 0; }
        @Override public int waitQueueSize() { return 0; }
        @Override public long nanos() { return 0; }
    }

    @Test
    void limitsOnlyAtEntryAndNeverPreempts() {
        Policy p = AdmissionPolicy.create(Map.of("lowLimit", "1"));
        ScriptedControl c = new ScriptedControl();
        TaskClass high = new TaskClass("collect", Map.of(), ImportancePolicy.RANK_HIGH, 0, null);
        TaskClass low = new TaskClass("chart", Map.of(), ImportancePolicy.RANK_LOW, 1, null);
        ManagedThread l1 = new ManagedThread(new Thread(() -> {}, "l1"));
        ManagedThread h = new ManagedThread(new Thread(() -> {}, "h"));
        p.onRoleChange(c, l1, null, low);
        p.onRoleChange(c, h, null, high);
        p.onRoleChange(c, l1, low, null);
        p.onRoleChange(c, h, high, null);
        assertThat(c.calls).containsExactly("admitAtEntry l1", "limitNoPreempt 1", "release l1",
                "limitNoPreempt unlimited");
    }

    @Test
    void sharesImportancesParameterAndAttribute() {
        assertThat(((AdmissionPolicy) AdmissionPolicy.create(Map.of())).lowLimit()).isEqualTo(1);
        assertThatThrownBy(() -> AdmissionPolicy.create(Map.of("limit", "1")))
                .hasMessageContaining("for policy admission")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.limit");
        assertThatThrownBy(() -> AdmissionPolicy.create(Map.of("lowLimit", "-2")))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowLimit");
    }

    @Test
    void mechanismOnAFakeClock_runnersDrainAndTheEpisodeLastsUntilTheyHave() {
        Configs.FakeTicker clock = new Configs.FakeTicker();
        ThreadController c = ThreadController.create(admission(1), clock);
        TaskClass chart = c.byName.get("chart"), collect = c.byName.get("collect");
        ManagedThread a = new ManagedThread(Thread.currentThread()), b = new ManagedThread(Thread.currentThread());
        ManagedThread late = new ManagedThread(Thread.currentThread()), h = new ManagedThread(Thread.currentThread());
        int pending = ThreadController.pending;
        ThreadController.moveRole(a, chart);
        ThreadController.moveRole(b, chart);
        ThreadController.moveRole(h, collect);
        // nobody preempted: both runners keep running, over the limit of 1
        assertThat(a.yield || b.yield).isFalse();
        assertThat(c.runQueueSize()).isEqualTo(2);
        assertThat(c.limit()).isEqualTo(1);
        // a newcomer waits, at entry, without sending control points down the slow path
        ThreadController.moveRole(late, chart);
        assertThat(late.yield).isTrue();
        assertThat(late.atEntry).isTrue();
        assertThat(ThreadController.pending).isEqualTo(pending);
        clock.advanceMillis(30);
        ThreadController.moveRole(a, null); // 1 runner left: not fewer than lowLimit, still waiting
        assertThat(late.yield).isTrue();
        // but the running low threads are within the limit now: the episode ends here
        assertThat(c.suspensionTimes.snapshot()[0]).isEqualTo(1);
        clock.advanceMillis(20);
        ThreadController.moveRole(b, null); // 0 runners: late admitted
        assertThat(late.yield).isFalse();
        assertThat(late.atEntry).isFalse();
        assertThat(c.runQueueSize()).isEqualTo(1);
        long[] t = c.suspensionTimes.snapshot();
        assertThat(t[0]).isEqualTo(1);
        assertThat(t[2]).as("suspension time: until running low threads were within the limit")
                .isEqualTo(30_000_000L);
        ThreadController.moveRole(h, null);
        ThreadController.moveRole(late, null);
        assertThat(c.runQueueSize()).isZero();
        assertThat(ThreadController.pending).isEqualTo(pending);
    }

    @Test
    void lateLowThreadWaitsAtEntryWhileRunningOnesAreNeverStopped() {
        Scheduler s = Scheduler.install(admission(1));
        List<Worker> running = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Worker w = Worker.start("chart", "running-" + i);
            running.add(w);
            workers.add(w);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> running.stream().allMatch(w -> w.passes.get() > 2));
        QoS.enter("collect");
        Worker late = Worker.start("chart", "late");
        workers.add(late);
        await().atMost(Duration.ofSeconds(5)).until(late::parkedInScheduler);
        assertThat(ThreadController.pending).as("waiting at entry keeps control points fast").isZero();
        long[] before = running.stream().mapToLong(w -> w.passes.get()).toArray();
        await().atMost(Duration.ofSeconds(5)).until(() ->
                running.get(0).passes.get() > before[0] + 5 && running.get(1).passes.get() > before[1] + 5);
        assertThat(late.passes.get()).as("waited before its body ran").isZero();
        SchedulerStats st = s.stats();
        assertThat(st.admissionWaits()).isEqualTo(1);
        assertThat(st.suspendedThreads()).isEqualTo(1);
        assertThat(st.runningThreads()).containsEntry("chart", 2);
        assertThat(st.yields()).isEqualTo(1);

        running.get(0).stop = true; // 1 running: not fewer than lowLimit 1
        await().atMost(Duration.ofSeconds(5)).until(() -> running.get(0).done);
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2)).until(() -> late.passes.get() == 0);
        running.get(1).stop = true;
        await().atMost(Duration.ofSeconds(5)).until(() -> late.passes.get() > 0);
        assertThat(s.stats().suspensionTimeCount()).isEqualTo(1);
        QoS.exit();
        assertThat(PrometheusText.render(s.stats())).contains("qosweaver_admission_waits_total 1\n");
    }

    @Test
    void highEndAdmitsEveryoneWaiting() {
        Scheduler s = Scheduler.install(admission(0));
        QoS.enter("collect");
        List<Worker> late = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Worker w = Worker.start("chart", "late-" + i);
            late.add(w);
            workers.add(w);
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> late.stream().allMatch(Worker::parkedInScheduler));
        QoS.exit();
        await().atMost(Duration.ofSeconds(5)).until(() -> late.stream().allMatch(w -> w.passes.get() > 0));
        SchedulerStats st = s.stats();
        assertThat(st.admissionWaits()).isEqualTo(3);
        assertThat(st.admissionWaitNanos()).isPositive();
        assertThat(st.resumes()).isEqualTo(3);
    }
}
