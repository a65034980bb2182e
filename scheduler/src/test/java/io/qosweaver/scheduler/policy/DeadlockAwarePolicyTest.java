package io.qosweaver.scheduler.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.scheduler.spi.Policy.Cause;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.ThreadView;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The deadlock-aware policy's decisions (paper 3.4, 4.4) against a scripted Control and classes
 * whose counters the test moves; the waits themselves are timed by the mechanism
 * ({@code core.DeadlockAwareMachineTest}, {@code DeadlockAwareThreadsTest}).
 */
class DeadlockAwarePolicyTest {
    private final Views.Counted high = new Views.Counted("collect", Importance.HIGH);
    private final Views.Counted low = new Views.Counted("chart", Importance.LOW);
    private final ScriptedControl c = new ScriptedControl();

    private static DeadlockAwarePolicy create(Map<String, String> params) {
        return (DeadlockAwarePolicy) DeadlockAwarePolicy.create(Views.context("deadlock-aware", params, 2));
    }

    @Test
    void aWaitWithoutProgressRunsOnAndSkipsControlPointsUntilProgressResumes() {
        DeadlockAwarePolicy p = create(Map.of());
        ThreadView l = Views.thread("l"), h = Views.thread("h");
        p.onRoleChange(c, l, null, low, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        assertThat(p.mayPark(c, l)).as("a fresh wait saves the progress").isTrue();
        high.progress += 3;
        assertThat(p.onWaitTimeout(c, l)).as("the high task progressed: wait on").isTrue();
        assertThat(p.onWaitTimeout(c, l)).as("no progress since: run on").isFalse();
        assertThat(p.mayPark(c, l)).as("still no progress: skip").isFalse();
        assertThat(p.mayPark(c, l)).isFalse();
        assertThat(p.skips()).isEqualTo(2);
        high.progress++;
        assertThat(p.mayPark(c, l)).as("progress resumed: suspend normally").isTrue();
        assertThat(p.onWaitTimeout(c, l)).as("and the new wait compares with the new value").isFalse();
    }

    @Test
    void whileAHighTaskRunsOnlyTheHighClassesProgressCounts() {
        DeadlockAwarePolicy p = create(Map.of());
        ThreadView l = Views.thread("l"), h = Views.thread("h");
        p.onRoleChange(c, l, null, low, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        assertThat(p.mayPark(c, l)).isTrue();
        low.progress += 10;
        low.completed += 2;
        assertThat(p.onWaitTimeout(c, l)).as("the low runner's progress is not what it waits for").isFalse();
    }

    @Test
    void aCompletedTaskOfAClassWaitedForCountsAsProgress() {
        DeadlockAwarePolicy p = create(Map.of());
        ThreadView l = Views.thread("l"), h = Views.thread("h");
        p.onRoleChange(c, l, null, low, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        p.onRoleChange(c, Views.thread("h2"), null, high, Cause.SCOPE);
        assertThat(p.mayPark(c, l)).isTrue();
        high.completed++;
        assertThat(p.onWaitTimeout(c, l)).isTrue();
    }

    @Test
    void underALowCapWithoutAHighTaskTheWaiterWaitsForTheLowClasses() {
        DeadlockAwarePolicy p = create(Map.of("lowCap", "1"));
        p.onStart(c);
        ThreadView a = Views.thread("a"), b = Views.thread("b");
        p.onRoleChange(c, a, null, low, Cause.SCOPE);
        p.onRoleChange(c, b, null, low, Cause.SCOPE);
        assertThat(p.mayPark(c, b)).isTrue();
        low.progress++;
        assertThat(p.onWaitTimeout(c, b)).as("the low runner progressed").isTrue();
        assertThat(p.onWaitTimeout(c, b)).isFalse();
    }

    @Test
    void aChangeOfRegimeIsProgressAndEndsARunOn() {
        DeadlockAwarePolicy p = create(Map.of());
        ThreadView l = Views.thread("l"), h = Views.thread("h");
        p.onRoleChange(c, l, null, low, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        assertThat(p.mayPark(c, l)).isTrue();
        assertThat(p.onWaitTimeout(c, l)).isFalse();
        assertThat(p.mayPark(c, l)).isFalse();
        p.onRoleChange(c, h, high, null, Cause.SCOPE); // the limit lifted: released
        p.onRoleChange(c, h, null, high, Cause.SCOPE); // flagged again by a new high task
        assertThat(p.mayPark(c, l)).as("a new high task: parks although no progress point passed").isTrue();
        ThreadView w = Views.thread("w");
        p.onRoleChange(c, w, null, low, Cause.SCOPE);
        assertThat(p.mayPark(c, w)).isTrue();
        p.onRoleChange(c, h, high, null, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        assertThat(p.onWaitTimeout(c, w)).as("a regime change during a wait: wait on").isTrue();
    }

    @Test
    void aThreadThatComesBackDuringAStallRunsOnAndAfterItSuspendsAfresh() {
        DeadlockAwarePolicy p = create(Map.of());
        ThreadView l = Views.thread("l"), h = Views.thread("h");
        p.onRoleChange(c, l, null, low, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        assertThat(p.mayPark(c, l)).isTrue();
        assertThat(p.onWaitTimeout(c, l)).isFalse();
        p.onRoleChange(c, l, low, null, Cause.SCOPE);
        p.onRoleChange(c, l, null, low, Cause.SCOPE);
        assertThat(p.mayPark(c, l)).as("the collector is still stalled").isFalse();
        p.onRoleChange(c, l, low, null, Cause.SCOPE);
        high.progress++;
        p.onRoleChange(c, l, null, low, Cause.SCOPE);
        assertThat(p.mayPark(c, l)).as("progress since: a fresh wait").isTrue();
        assertThat(p.onWaitTimeout(c, l)).as("compared with the value saved at that wait").isFalse();
    }

    @Test
    void aStallOneWaiterFoundLetsEveryThreadRunOnUntilProgress() {
        DeadlockAwarePolicy p = create(Map.of());
        ThreadView a = Views.thread("a"), b = Views.thread("b"), h = Views.thread("h");
        p.onRoleChange(c, a, null, low, Cause.SCOPE);
        p.onRoleChange(c, b, null, low, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        assertThat(p.mayPark(c, a)).isTrue();
        assertThat(p.onWaitTimeout(c, a)).as("no progress: a runs on").isFalse();
        assertThat(p.mayPark(c, b))
                .as("b never waited, but the collector is stalled: b must not hold a monitor for a timeout too")
                .isFalse();
        assertThat(p.mayPark(c, b)).isFalse();
        assertThat(p.skips()).isEqualTo(2);
        high.progress++;
        assertThat(p.mayPark(c, b)).as("progress resumed: b suspends normally").isTrue();
        assertThat(p.mayPark(c, a)).isTrue();
    }

    @Test
    void aStallEndsWithItsRegime() {
        DeadlockAwarePolicy p = create(Map.of());
        ThreadView a = Views.thread("a"), b = Views.thread("b"), h = Views.thread("h");
        p.onRoleChange(c, a, null, low, Cause.SCOPE);
        p.onRoleChange(c, b, null, low, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        assertThat(p.mayPark(c, a)).isTrue();
        assertThat(p.onWaitTimeout(c, a)).isFalse();
        p.onRoleChange(c, h, high, null, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        assertThat(p.mayPark(c, b)).as("a new high task with the same counters: no stall found in it yet").isTrue();
    }

    @Test
    void actsAsImportanceOnTheLimits() {
        DeadlockAwarePolicy p = create(Map.of("lowLimit", "0.5x", "lowCap", "2x"));
        p.onStart(c);
        ThreadView l = Views.thread("l"), h = Views.thread("h");
        p.onRoleChange(c, l, null, low, Cause.SCOPE);
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        p.onRoleChange(c, h, high, null, Cause.SCOPE);
        p.onRoleChange(c, l, low, null, Cause.SCOPE);
        assertThat(c.calls).containsExactly("limit 4", "admit l", "limit 1", "limit 4", "release l");
    }

    @Test
    void defaultsAreThePapersAndBadParametersAreNamed() {
        DeadlockAwarePolicy p = create(Map.of());
        assertThat(p.waitTimeoutNanos()).as("200 ms").isEqualTo(200_000_000L);
        assertThat(p.lowLimit()).isEqualTo(1);
        assertThat(create(Map.of("timeout", "50ms")).waitTimeoutNanos()).isEqualTo(50_000_000L);
        assertThatThrownBy(() -> create(Map.of("timeout", "200")))
                .isInstanceOf(PolicyConfigException.class).hasMessageContaining("with a unit")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.timeout");
        assertThatThrownBy(() -> create(Map.of("timeout", "10us")))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.timeout");
        assertThatThrownBy(() -> create(Map.of("suspendAtEntry", "true")))
                .as("waits at entry are not timed").hasMessageContaining("unknown parameter 'suspendAtEntry'")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.suspendAtEntry");
    }
}
