package io.qosweaver.scheduler.policy;

import static io.qosweaver.scheduler.policy.MtrLsMachine.cls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.RuntimeShare;
import io.qosweaver.scheduler.stats.EntityShare;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Run-time shares (the Java API's entities) under MTR-LS, on the real state machine with a fake
 * clock and a fake CPU clock: their fractions, changes of fraction at run time, joining and leaving
 * the service list, the capacity they are admitted against, and their metrics.
 */
class MtrLsRuntimeSharesTest {

    private static MtrLsMachine machine(Map<String, String> params) {
        return new MtrLsMachine(params, 2, List.of(cls("file", "fraction", "0.25")));
    }

    @Test
    void twoSharesAt70And20PercentOnOneCoreGetTheirFractions() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0"));
        RuntimeShare a = new RuntimeShare("a", 0.7), b = new RuntimeShare("b", 0.2);
        ThreadState ta = m.thread("ta"), tb = m.thread("tb");
        m.enter(ta, a);
        m.enter(tb, b);
        m.run(10_000);
        double total = m.cpuMillis(ta) + m.cpuMillis(tb);
        assertThat(total).as("work-conserving").isEqualTo(10_000);
        assertThat(m.cpuMillis(ta) / total).as("0.7 / 0.9").isCloseTo(0.7 / 0.9, within(0.01));
        assertThat(m.maxRunners).isEqualTo(1);
        assertThat(m.policy.serviceList()).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void aFractionChangedAtRunTimeTakesEffectWithinATick() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0", "sample", "5ms"));
        RuntimeShare a = new RuntimeShare("a", 0.2), b = new RuntimeShare("b", 0.2);
        ThreadState ta = m.thread("ta"), tb = m.thread("tb");
        m.enter(ta, a);
        m.enter(tb, b);
        m.run(4_000);
        long a0 = m.cpuMillis(ta), b0 = m.cpuMillis(tb);
        assertThat((double) a0 / (a0 + b0)).as("equal fractions").isCloseTo(0.5, within(0.02));
        a.setFraction(0.6); // what Share.setFraction does: a volatile write, no lock
        m.run(10_000);
        long da = m.cpuMillis(ta) - a0, db = m.cpuMillis(tb) - b0;
        assertThat((double) da / (da + db)).as("0.6 / (0.6 + 0.2) after the change").isCloseTo(0.75, within(0.02));
        assertThat(m.policy.shares()).filteredOn(s -> s.entity().equals("a")).singleElement()
                .extracting(EntityShare::fraction).isEqualTo(0.6);
    }

    @Test
    void aShareLeavesTheServiceListWithItsLastThreadAndComesBackAtTheRearWithItsDebt() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0", "quantum", "100ms"));
        RuntimeShare a = new RuntimeShare("a", 0.5), b = new RuntimeShare("b", 0.3);
        ThreadState ta1 = m.thread("ta1"), ta2 = m.thread("ta2"), tb = m.thread("tb");
        m.enter(ta1, a);
        m.enter(ta2, a);
        m.enter(tb, b);
        assertThat(m.policy.serviceList()).containsExactly("a", "b");
        m.run(30); // a runs, 30 ms of its 50 ms quantum used
        m.exit(ta1);
        assertThat(m.policy.serviceList()).as("one thread still inside").containsExactly("a", "b");
        m.exit(ta2);
        assertThat(m.policy.serviceList()).as("the last thread gone").containsExactly("b");
        m.run(10);
        m.enter(ta1, a);
        assertThat(m.policy.serviceList()).as("back at the rear").containsExactly("b", "a");
        assertThat(m.policy.left("a")).as("what it had left is not carried: no hoarding; a debt would be")
                .isEqualTo(50_000_000L);
        assertThat(m.policy.shares()).extracting(EntityShare::entity).contains("a", "b", "file");
        assertThat(m.policy.shares()).filteredOn(s -> s.entity().equals("a")).singleElement()
                .extracting(EntityShare::taskClass).isEqualTo(MtrLsPolicy.RUNTIME_TASK_CLASS);
    }

    @Test
    void sharesAreAdmittedAgainstWhatTheFileAndTheReservedShareLeave() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "5%"));
        assertThat(m.policy.shareCapacity()).as("1 - 5 % - the file's 25 %").isCloseTo(0.70, within(1e-9));
        m.policy.setFraction("file", 0.5);
        assertThat(m.policy.shareCapacity()).isCloseTo(0.45, within(1e-9));
    }

    @Test
    void nestedSharesMoveTheThreadToTheInnermostAndBack() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0"));
        RuntimeShare outer = new RuntimeShare("outer", 0.3), inner = new RuntimeShare("inner", 0.1);
        ThreadState t = m.thread("t");
        m.enter(t, outer);
        assertThat(t.role().share()).isSameAs(outer);
        m.machine.changeRole(t, m.machine.shareClass(inner), io.qosweaver.scheduler.spi.Policy.Cause.SCOPE);
        assertThat(m.policy.serviceList()).containsExactly("inner");
        m.machine.changeRole(t, m.machine.shareClass(outer), io.qosweaver.scheduler.spi.Policy.Cause.SCOPE);
        assertThat(m.policy.serviceList()).containsExactly("outer");
        assertThat(m.machine.shareClass(outer)).as("cached on the share: entering again allocates nothing")
                .isSameAs(m.machine.shareClass(outer));
    }
}
