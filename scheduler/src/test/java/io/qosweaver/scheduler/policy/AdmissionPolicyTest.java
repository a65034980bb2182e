package io.qosweaver.scheduler.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qosweaver.scheduler.QoS;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.SchedulerConfig;
import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.Policy.Cause;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.stats.PrometheusText;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.scheduler.testing.Configs;
import io.qosweaver.scheduler.testing.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Admission control (paper 5.1): a scripted Control for the decisions, then real threads for
 * waiting at entry. The queues and the suspension-time episode on a fake clock are in
 * {@code StateMachineTest}.
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
        ThreadStates.removeForTests();
        assertThat(Pending.value()).isZero();
    }

    static SchedulerConfig admission(int lowLimit) {
        return Configs.config("admission", lowLimit);
    }

    private static Policy create(Map<String, String> params) {
        return AdmissionPolicy.create(Views.context("admission", params));
    }

    @Test
    void limitsOnlyAtEntryAndNeverPreempts() {
        Policy p = create(Map.of("lowLimit", "1"));
        ScriptedControl c = new ScriptedControl();
        TaskClass high = Views.cls("collect", Importance.HIGH);
        TaskClass low = Views.cls("chart", Importance.LOW);
        ThreadView l1 = Views.thread("l1");
        ThreadView h = Views.thread("h");
        p.onRoleChange(c, l1, null, low, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        p.onRoleChange(c, l1, low, null, Cause.SCOPE);
        p.onRoleChange(c, h, high, null, Cause.SCOPE);
        assertThat(c.calls).containsExactly("admitAtEntry l1", "limitNoPreempt 1", "release l1",
                "limitNoPreempt unlimited");
    }

    @Test
    void sharesImportancesParameterAndAttribute() {
        assertThat(((AdmissionPolicy) create(Map.of())).lowLimit()).isEqualTo(1);
        assertThatThrownBy(() -> create(Map.of("limit", "1")))
                .hasMessageContaining("for policy admission")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.limit");
        assertThatThrownBy(() -> create(Map.of("lowLimit", "-2")))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowLimit");
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
        assertThat(Pending.value()).as("waiting at entry keeps control points fast").isZero();
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
