package io.qosweaver.scheduler.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.Policy.Cause;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The importance policy (paper 4.2) against a scripted Control: deterministic, no threads. */
class ImportancePolicyTest {
    private final TaskClass high = Views.cls("collect", Importance.HIGH);
    private final TaskClass low = Views.cls("chart", Importance.LOW);

    private static ImportancePolicy create(Map<String, String> params) {
        return (ImportancePolicy) ImportancePolicy.create(Views.context("importance", params));
    }

    @Test
    void limitsLowThreadsWhileAnyHighRunsAndRestoresAfterTheLast() {
        ImportancePolicy p = create(Map.of("lowLimit", "2"));
        ScriptedControl c = new ScriptedControl();
        ThreadView l1 = Views.thread("l1"), h1 = Views.thread("h1"), h2 = Views.thread("h2");

        p.onRoleChange(c, l1, null, low, Cause.SCOPE);
        p.onRoleChange(c, h1, null, high, Cause.SCOPE);
        p.onRoleChange(c, h2, null, high, Cause.SCOPE); // second high: no new limit
        p.onRoleChange(c, h1, high, null, Cause.SCOPE); // one high left: still limited
        assertThat(c.limit).isEqualTo(2);
        p.onRoleChange(c, h2, high, null, Cause.SCOPE);
        p.onRoleChange(c, l1, low, null, Cause.SCOPE);

        assertThat(c.calls).containsExactly("admit l1", "limit 2", "limit unlimited", "release l1");
        assertThat(p.highThreads()).isZero();
    }

    @Test
    void aHighThreadThatDiesCountsAsGone() {
        ImportancePolicy p = create(Map.of());
        ScriptedControl c = new ScriptedControl();
        ThreadView h = Views.thread("h");
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        p.onRoleChange(c, h, high, null, Cause.DEATH);
        assertThat(c.calls).containsExactly("limit 1", "limit unlimited");
    }

    @Test
    void lowThreadBecomingHighFreesItsSlotBeforeTheLimitApplies() {
        Policy p = create(Map.of());
        ScriptedControl c = new ScriptedControl();
        ThreadView t = Views.thread("t");
        p.onRoleChange(c, t, null, low, Cause.SCOPE);
        p.onRoleChange(c, t, low, high, Cause.SCOPE);
        p.onRoleChange(c, t, high, low, Cause.SCOPE);
        assertThat(c.calls).containsExactly("admit t", "release t", "limit 1", "limit unlimited", "admit t");
    }

    @Test
    void suspendAtEntryAdmitsAtTheEntryAsThePapersAdd() {
        Policy p = create(Map.of("suspendAtEntry", "true"));
        ScriptedControl c = new ScriptedControl();
        ThreadView t = Views.thread("t");
        p.onRoleChange(c, t, null, low, Cause.SCOPE);
        assertThat(c.calls).containsExactly("admitAtEntry t");
        assertThatThrownBy(() -> create(Map.of("suspendAtEntry", "yes")))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.suspendAtEntry");
    }

    @Test
    void aLowCapHoldsAtAllTimesAndTheTighterLimitWhileAHighRuns() {
        ImportancePolicy p = (ImportancePolicy) ImportancePolicy.create(
                Views.context("importance", Map.of("lowCap", "1x", "lowLimit", "3"), 4));
        assertThat(p.lowCap()).isEqualTo(4);
        assertThat(p.lowLimit()).as("lowLimit 3 under a cap of 4").isEqualTo(3);
        ScriptedControl c = new ScriptedControl();
        ThreadView l1 = Views.thread("l1"), h = Views.thread("h");
        p.onStart(c);
        p.onRoleChange(c, l1, null, low, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        p.onRoleChange(c, h, high, null, Cause.SCOPE);
        p.onRoleChange(c, l1, low, null, Cause.SCOPE);
        assertThat(c.calls).as("the cap from the start, and back to it after the high task")
                .containsExactly("limit 4", "admit l1", "limit 3", "limit 4", "release l1");

        ImportancePolicy tight = (ImportancePolicy) ImportancePolicy.create(
                Views.context("importance", Map.of("lowCap", "2", "lowLimit", "5"), 4));
        assertThat(tight.lowLimit()).as("a lowLimit above the cap is the cap").isEqualTo(2);
    }

    @Test
    void withoutALowCapNothingIsLimitedOutsideHighTasks() {
        ImportancePolicy p = create(Map.of());
        assertThat(p.lowCap()).isEqualTo(io.qosweaver.scheduler.spi.Control.UNLIMITED);
        ScriptedControl c = new ScriptedControl();
        p.onStart(c);
        p.onRoleChange(c, Views.thread("l"), null, low, Cause.SCOPE);
        assertThat(c.calls).containsExactly("admit l");
    }

    @Test
    void limitsMayBeWrittenRelativeToTheCores() {
        assertThat(((ImportancePolicy) ImportancePolicy.create(Views.context("importance",
                Map.of("lowCap", "1.5x", "lowLimit", "0.5x"), 16))).lowCap()).isEqualTo(24);
        assertThat(((ImportancePolicy) ImportancePolicy.create(Views.context("importance",
                Map.of("lowLimit", "0.5x"), 16))).lowLimit()).isEqualTo(8);
        assertThat(((ImportancePolicy) ImportancePolicy.create(Views.context("importance",
                Map.of("lowLimit", "0.1x"), 2))).lowLimit()).as("a positive factor keeps one thread").isEqualTo(1);
        assertThat(((ImportancePolicy) ImportancePolicy.create(Views.context("importance",
                Map.of("lowLimit", "0x"), 2))).lowLimit()).isZero();
        for (String bad : new String[] {"x", "-1x", "1.5", "two", "1e9x"}) {
            assertThatThrownBy(() -> ImportancePolicy.create(Views.context("importance", Map.of("lowCap", bad), 2)))
                    .as(bad).isInstanceOf(PolicyConfigException.class)
                    .hasMessageContaining("a multiple of the cores such as 1x or 1.5x (2 cores here)")
                    .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowCap");
        }
        assertThat(((ImportancePolicy) AdmissionPolicy.create(Views.context("admission", Map.of("lowCap", "1x"), 2)))
                .lowCap()).as("admission takes the same parameters").isEqualTo(2);
    }

    @Test
    void defaultLowLimitIsOneAsInThePaper() {
        assertThat(create(Map.of()).lowLimit()).isEqualTo(1);
        assertThat(create(Map.of("lowLimit", " 0 ")).lowLimit()).isZero();
    }

    @Test
    void compilerNiceIsThePriorityTheAgentKeepsTheCompilerThreadsAtAndNoneByDefault() {
        assertThat(create(Map.of()).compilerPriority()).isNull();
        assertThat(create(Map.of("compilerNice", "idle")).compilerPriority()).isEqualTo(ThreadNice.IDLE);
        assertThat(create(Map.of("compilerNice", "19")).compilerPriority()).isEqualTo(19);
        assertThatThrownBy(() -> create(Map.of("compilerNice", "low")))
                .isInstanceOf(PolicyConfigException.class)
                .hasMessageContaining("idle")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.compilerNice");
        assertThatThrownBy(() -> create(Map.of("compilerNice", "20")))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.compilerNice");
    }

    @Test
    void rejectsBadParametersNamingTheKey() {
        assertThatThrownBy(() -> create(Map.of("lowLimit", "-1")))
                .isInstanceOf(PolicyConfigException.class)
                .hasMessageContaining("integer >= 0")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowLimit");
        assertThatThrownBy(() -> create(Map.of("lowLimit", "one")))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowLimit");
        assertThatThrownBy(() -> create(Map.of("lowlimit", "1")))
                .hasMessageContaining("lowLimit")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowlimit");
    }

    @Test
    void ranksByImportanceAttribute() {
        Policy p = create(Map.of());
        assertThat(p.rank(new TaskClassSpec("a", Map.of("importance", "high")))).isEqualTo(2);
        assertThat(p.rank(new TaskClassSpec("a", Map.of("importance", "low")))).isEqualTo(1);
        assertThat(p.rank(new TaskClassSpec("a", Map.of("importance", "normal")))).isZero();
        assertThat(p.rank(new TaskClassSpec("a", Map.of()))).isZero();
        assertThatThrownBy(() -> p.rank(new TaskClassSpec("chart", Map.of("importance", "urgent"))))
                .hasMessageContaining("high, low or normal")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("taskClasses.chart.importance");
    }

    // ------------------------------------------------------------------ lowLimitAfter (issue 13)

    private static final long MS = 1_000_000L;
    private final TaskClass high2 = Views.cls("lookup2", Importance.HIGH);

    /** lowCap 2, lowLimit 1, a grace of 15 ms; started (the cap applied). */
    private static ImportancePolicy graced(ScriptedControl c) {
        ImportancePolicy p = (ImportancePolicy) ImportancePolicy.create(Views.context("importance",
                Map.of("lowCap", "2", "lowLimit", "1", "lowLimitAfter", "15ms"), 2));
        p.onStart(c);
        return p;
    }

    @Test
    void lowLimitAfterKeepsTheCapDuringTheGraceAndTheTickAtItsEndAppliesTheLimit() {
        ScriptedControl c = new ScriptedControl();
        ImportancePolicy p = graced(c);
        assertThat(p.tickNanos()).as("a tick, one grace apart while none runs").isEqualTo(15 * MS);
        ThreadView l = Views.thread("l"), h = Views.thread("h");
        c.now = 1 * MS;
        p.onRoleChange(c, l, null, low, Cause.SCOPE);
        c.now = 2 * MS;
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        assertThat(c.limit).as("the cap during the grace").isEqualTo(2);

        p.onTick(c, 10 * MS);
        assertThat(c.limit).isEqualTo(2);
        assertThat(p.nextTickNanos()).as("the next tick when h's grace ends").isEqualTo(7 * MS);
        p.onTick(c, 17 * MS);
        assertThat(c.limit).as("h has been in scope 15 ms").isEqualTo(1);
        assertThat(p.limited()).isTrue();
        assertThat(p.nextTickNanos()).as("no grace running: one grace later").isEqualTo(15 * MS);
        assertThat(c.calls).containsExactly("limit 2", "admit l", "limit 1");
    }

    @Test
    void whenTheOldHighThreadLeavesAYoungOneGetsTheCapUntilItsOwnGraceEnds() {
        ScriptedControl c = new ScriptedControl();
        ImportancePolicy p = graced(c);
        ThreadView h1 = Views.thread("h1"), h2 = Views.thread("h2");
        c.now = 0;
        p.onRoleChange(c, h1, null, high, Cause.SCOPE);
        p.onTick(c, 15 * MS);
        assertThat(c.limit).isEqualTo(1);
        c.now = 20 * MS;
        p.onRoleChange(c, h2, null, high, Cause.SCOPE);
        c.now = 22 * MS;
        p.onRoleChange(c, h2, high, high2, Cause.SCOPE); // a nested high class: still since 20 ms
        c.now = 25 * MS;
        p.onRoleChange(c, h1, high, null, Cause.SCOPE);
        assertThat(c.limit).as("h2 is 5 ms in scope: the cap again").isEqualTo(2);
        assertThat(p.limited()).isFalse();

        p.onTick(c, 30 * MS);
        assertThat(c.limit).isEqualTo(2);
        assertThat(p.nextTickNanos()).as("h2's grace ends at 35 ms").isEqualTo(5 * MS);
        p.onTick(c, 35 * MS);
        assertThat(c.limit).as("h2 reached the grace").isEqualTo(1);
        c.now = 40 * MS;
        p.onRoleChange(c, h2, high2, null, Cause.SCOPE);
        assertThat(c.calls).containsExactly("limit 2", "limit 1", "limit 2", "limit 1", "limit 2");
        assertThat(p.highThreads()).isZero();
    }

    @Test
    void whenAllHighThreadsLeaveTheCapHoldsAndTheNextOneHasAGraceOfItsOwn() {
        ScriptedControl c = new ScriptedControl();
        ImportancePolicy p = graced(c);
        ThreadView h = Views.thread("h"), l = Views.thread("l");
        c.now = 0;
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        p.onTick(c, 15 * MS);
        c.now = 16 * MS;
        p.onRoleChange(c, h, high, null, Cause.DEATH);
        assertThat(c.limit).isEqualTo(2);
        c.now = 17 * MS;
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        p.onTick(c, 30 * MS);
        assertThat(c.limit).as("13 ms into the new grace").isEqualTo(2);
        c.now = 32 * MS;
        p.onRoleChange(c, l, null, low, Cause.SCOPE);
        assertThat(c.limit).as("a role change past the grace applies the limit before the tick")
                .isEqualTo(1);
        assertThat(c.calls).containsExactly("limit 2", "limit 1", "limit 2", "limit 1", "admit l");
    }

    @Test
    void withoutLowLimitAfterOrATighterLimitThereIsNoGraceAndNoTick() {
        ScriptedControl c = new ScriptedControl();
        ImportancePolicy p = create(Map.of("lowCap", "2", "lowLimit", "1"));
        assertThat(p.tickNanos()).as("no tick thread, as before").isZero();
        assertThat(p.lowLimitAfterNanos()).isZero();
        p.onStart(c);
        p.onRoleChange(c, Views.thread("h"), null, high, Cause.SCOPE);
        assertThat(c.calls).as("the limit at the entry, as before").containsExactly("limit 2", "limit 1");

        assertThat(create(Map.of("lowLimit", "1", "lowLimitAfter", "0ms")).tickNanos()).isZero();
        ImportancePolicy noTighter = create(Map.of("lowCap", "2", "lowLimit", "2", "lowLimitAfter", "15ms"));
        assertThat(noTighter.lowLimitAfterNanos()).as("nothing to delay: ignored").isZero();
        assertThat(noTighter.tickNanos()).isZero();
        assertThat(create(Map.of("lowLimitAfter", "15ms")).lowLimitAfterNanos())
                .as("the default lowLimit 1 under no cap is tighter").isEqualTo(15 * MS);
    }

    @Test
    void rejectsABadLowLimitAfterNamingTheKey() {
        for (String bad : new String[] {"15", "-5ms", "soon", "ms"}) {
            assertThatThrownBy(() -> create(Map.of("lowLimitAfter", bad))).as(bad)
                    .isInstanceOf(PolicyConfigException.class)
                    .hasMessageContaining("with a unit")
                    .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowLimitAfter");
        }
        assertThatThrownBy(() -> DeadlockAwarePolicy.create(Views.context("deadlock-aware",
                Map.of("lowLimitAfter", "15ms"), 2)))
                .isInstanceOf(PolicyConfigException.class)
                .hasMessageContaining("not supported by policy deadlock-aware")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowLimitAfter");
        assertThatThrownBy(() -> AdmissionPolicy.create(Views.context("admission",
                Map.of("lowLimitAfter", "15ms"), 2)))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowLimitAfter");
    }
}
