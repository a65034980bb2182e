package io.qosweaver.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The importance policy (paper 4.2) against a scripted Control: deterministic, no threads. */
class ImportancePolicyTest {

    /** Records the calls a policy makes. */
    static final class ScriptedControl implements Control {
        final List<String> calls = new ArrayList<>();
        int limit = UNLIMITED;

        @Override public void admit(ManagedThread t) { calls.add("admit " + t.thread().getName()); }
        @Override public void release(ManagedThread t) { calls.add("release " + t.thread().getName()); }
        @Override public void setLimit(int permits) { limit = permits; calls.add("limit " + (permits == UNLIMITED ? "unlimited" : permits)); }
        @Override public int limit() { return limit; }
        @Override public int runQueueSize() { return 0; }
        @Override public int waitQueueSize() { return 0; }
        @Override public long nanos() { return 0; }
    }

    private static TaskClass cls(String name, int rank) {
        return new TaskClass(name, Map.of(), rank, 0, null);
    }

    private static ManagedThread thread(String name) {
        return new ManagedThread(new Thread(() -> {}, name));
    }

    @Test
    void limitsLowThreadsWhileAnyHighRunsAndRestoresAfterTheLast() {
        ImportancePolicy p = (ImportancePolicy) ImportancePolicy.create(Map.of("lowLimit", "2"));
        ScriptedControl c = new ScriptedControl();
        TaskClass high = cls("collect", ImportancePolicy.RANK_HIGH);
        TaskClass low = cls("chart", ImportancePolicy.RANK_LOW);
        ManagedThread l1 = thread("l1"), h1 = thread("h1"), h2 = thread("h2");

        p.onRoleChange(c, l1, null, low);
        p.onRoleChange(c, h1, null, high);
        p.onRoleChange(c, h2, null, high); // second high: no new limit
        p.onRoleChange(c, h1, high, null); // one high left: still limited
        assertThat(c.limit).isEqualTo(2);
        p.onRoleChange(c, h2, high, null);
        p.onRoleChange(c, l1, low, null);

        assertThat(c.calls).containsExactly("admit l1", "limit 2", "limit unlimited", "release l1");
        assertThat(p.highThreads()).isZero();
    }

    @Test
    void lowThreadBecomingHighFreesItsSlotBeforeTheLimitApplies() {
        Policy p = ImportancePolicy.create(Map.of());
        ScriptedControl c = new ScriptedControl();
        TaskClass high = cls("collect", ImportancePolicy.RANK_HIGH);
        TaskClass low = cls("chart", ImportancePolicy.RANK_LOW);
        ManagedThread t = thread("t");
        p.onRoleChange(c, t, null, low);
        p.onRoleChange(c, t, low, high);
        p.onRoleChange(c, t, high, low);
        assertThat(c.calls).containsExactly(
                "admit t", "release t", "limit 1", "limit unlimited", "admit t");
    }

    @Test
    void defaultLowLimitIsOneAsInThePaper() {
        assertThat(((ImportancePolicy) ImportancePolicy.create(Map.of())).lowLimit()).isEqualTo(1);
        assertThat(((ImportancePolicy) ImportancePolicy.create(Map.of("lowLimit", " 0 "))).lowLimit()).isZero();
    }

    @Test
    void rejectsBadParametersNamingTheKey() {
        assertThatThrownBy(() -> ImportancePolicy.create(Map.of("lowLimit", "-1")))
                .isInstanceOf(PolicyConfigException.class)
                .hasMessageContaining("integer >= 0")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowLimit");
        assertThatThrownBy(() -> ImportancePolicy.create(Map.of("lowLimit", "one")))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowLimit");
        assertThatThrownBy(() -> ImportancePolicy.create(Map.of("lowlimit", "1")))
                .hasMessageContaining("lowLimit")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowlimit");
    }

    @Test
    void ranksByImportanceAttribute() {
        Policy p = ImportancePolicy.create(Map.of());
        assertThat(p.rank(new SchedulerConfig.TaskClassSpec("a", Map.of("importance", "high")))).isEqualTo(2);
        assertThat(p.rank(new SchedulerConfig.TaskClassSpec("a", Map.of("importance", "low")))).isEqualTo(1);
        assertThat(p.rank(new SchedulerConfig.TaskClassSpec("a", Map.of("importance", "normal")))).isZero();
        assertThat(p.rank(new SchedulerConfig.TaskClassSpec("a", Map.of()))).isZero();
        assertThatThrownBy(() -> p.rank(new SchedulerConfig.TaskClassSpec("chart", Map.of("importance", "urgent"))))
                .hasMessageContaining("high, low or normal")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("taskClasses.chart.importance");
    }
}
