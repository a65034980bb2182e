package io.qosweaver.scheduler.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.scheduler.spi.Policy.Cause;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The adaptive target-throughput policy (paper 4.4, 5.5) against a scripted Control and clock. */
class AdaptivePolicyTest {
    private static final long SECOND = 1_000_000_000L;
    private final Views.Counted high = new Views.Counted("collect", Importance.HIGH3);
    private final Views.Counted middle = new Views.Counted("levels", Importance.MIDDLE3);
    private final Views.Counted low = new Views.Counted("chart", Importance.LOW3);
    private final ScriptedControl c = new ScriptedControl();

    private static AdaptivePolicy create(Map<String, String> params) {
        return create(params, 2);
    }

    private static AdaptivePolicy create(Map<String, String> params, int cores) {
        return (AdaptivePolicy) AdaptivePolicy.create(Views.context("adaptive", params, cores));
    }

    /** A started policy that has seen one low and one middle thread enter, with a middle thread in. */
    private AdaptivePolicy started(Map<String, String> params) {
        AdaptivePolicy p = create(params);
        p.onStart(c);
        p.onRoleChange(c, Views.thread("l"), null, low, Cause.SCOPE);
        p.onRoleChange(c, Views.thread("m"), null, middle, Cause.SCOPE);
        middle.members = 1;
        c.calls.clear();
        return p;
    }

    /** One period in which the middle class completed {@code pages}. */
    private void period(AdaptivePolicy p, long pages) {
        c.now += SECOND;
        middle.completed += pages;
        p.onTick(c, c.now);
    }

    @Test
    void theLowLimitIsMultipliedByObservedOverTargetThroughputAsInThePapersExample() {
        AdaptivePolicy p = started(Map.of("lowInitial", "5", "target", "150"));
        assertThat(c.caps).containsEntry("chart", 5);
        period(p, 180);
        assertThat(p.lastObserved()).isEqualTo(180.0);
        assertThat(p.low()).as("5 x 180/150").isEqualTo(6.0);
        assertThat(c.calls).containsExactly("cap chart 6");
        period(p, 75);
        assertThat(p.low()).as("6 x 75/150").isEqualTo(3.0);
        assertThat(c.caps).containsEntry("chart", 3);
    }

    @Test
    void theObservedThroughputIsOverTheTimeSinceTheLastTickNotANominalPeriod() {
        AdaptivePolicy p = started(Map.of("lowInitial", "4", "target", "100"));
        c.now += 2 * SECOND; // a late tick: 200 pages in 2 s are 100 pages/s
        middle.completed += 200;
        p.onTick(c, c.now);
        assertThat(p.lastObserved()).isEqualTo(100.0);
        assertThat(p.low()).isEqualTo(4.0);
    }

    @Test
    void theLimitStaysWithinItsBoundsAndGrowsBackFromTheLowerOne() {
        AdaptivePolicy p = started(Map.of("lowInitial", "2", "lowMin", "1", "lowMax", "6", "target", "100"));
        period(p, 10_000);
        assertThat(p.low()).as("bounded above").isEqualTo(6.0);
        period(p, 1);
        assertThat(p.low()).as("bounded below").isEqualTo(1.0);
        assertThat(c.caps).containsEntry("chart", 1);
        // kept as a real number: 1 x 1.2 is still 1 thread, but it is not stuck there
        period(p, 120);
        period(p, 120);
        assertThat(c.caps).containsEntry("chart", 1);
        period(p, 120);
        assertThat(p.low()).isCloseTo(1.728, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(c.caps).containsEntry("chart", 2);
    }

    @Test
    void ditheredTheCapAveragesTheRealValuedLimitOverEachPeriod() {
        AdaptivePolicy p = started(Map.of("lowInitial", "4", "target", "100", "dither", "true"));
        assertThat(p.tickNanos()).as("ten steps a period").isEqualTo(SECOND / 10);
        for (int i = 0; i < 9; i++) { // steps within the first period: no judgement yet
            c.now += SECOND / 10;
            middle.completed += 8;
            p.onTick(c, c.now);
            assertThat(p.low()).isEqualTo(4.0);
        }
        c.now += SECOND / 10;
        middle.completed += 13; // 85 pages in the period
        p.onTick(c, c.now);
        assertThat(p.low()).as("4 x 85/100").isCloseTo(3.4, org.assertj.core.data.Offset.offset(1e-9));
        int sum = c.caps.get("chart"), min = sum, max = sum;
        for (int i = 1; i <= 10; i++) {
            c.now += SECOND / 10;
            middle.completed += i == 10 ? 4 : 12; // 112 pages: 3.4 x 1.12 next
            p.onTick(c, c.now);
            if (i < 10) {
                int cap = c.caps.get("chart");
                sum += cap;
                min = Math.min(min, cap);
                max = Math.max(max, cap);
            }
        }
        assertThat(min).as("the integers around 3.4").isEqualTo(3);
        assertThat(max).isEqualTo(4);
        assertThat(sum / 10.0).as("the ten caps of a period average the limit").isCloseTo(3.4,
                org.assertj.core.data.Offset.offset(0.5 / 10 + 1e-9));
        assertThat(p.low()).isCloseTo(3.808, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void unditheredTheCapIsTheRoundedLimitAsInThePaper() {
        AdaptivePolicy p = started(Map.of("lowInitial", "4", "target", "100"));
        period(p, 85);
        assertThat(p.low()).isCloseTo(3.4, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(c.caps).containsEntry("chart", 3);
    }

    @Test
    void aGainBelowOneDampsTheUpdate() {
        AdaptivePolicy p = started(Map.of("lowInitial", "4", "target", "100", "gain", "0.5"));
        period(p, 144);
        assertThat(p.low()).as("4 x (144/100)^0.5").isCloseTo(4.8, org.assertj.core.data.Offset.offset(1e-9));
        period(p, 64);
        assertThat(p.low()).as("4.8 x (64/100)^0.5").isCloseTo(3.84, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void withoutMiddleDemandTheLimitGoesToItsUpperBound() {
        AdaptivePolicy p = started(Map.of("lowInitial", "2", "target", "150"));
        middle.members = 0;
        period(p, 0);
        assertThat(p.low()).isEqualTo(6.0);
        middle.members = 3; // demand, and nothing completed: starved
        period(p, 0);
        assertThat(p.low()).isEqualTo(1.0);
    }

    @Test
    void aHighTaskCapsLowAndMiddlePacesMiddleAndTheLowLimitReturnsToItsValueBefore() {
        AdaptivePolicy p = started(Map.of("lowInitial", "4", "target", "150"));
        period(p, 150); // stays at 4
        ThreadView h = Views.thread("h");
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        assertThat(c.calls).containsExactly("cap chart 4", "cap chart 1", "pacing levels 100000000", "cap levels 15");
        c.calls.clear();
        period(p, 10);
        assertThat(c.calls).as("no adjustment while a high task runs").isEmpty();
        assertThat(p.low()).isEqualTo(4.0);
        p.onRoleChange(c, h, high, null, Cause.SCOPE);
        assertThat(c.calls).containsExactly("cap chart 4", "pacing levels 0", "cap levels unlimited");
        // a new period starts at the high task's end: what completed during it does not count
        c.now += SECOND / 2;
        middle.completed += 75;
        p.onTick(c, c.now);
        assertThat(p.lastObserved()).isEqualTo(150.0);
        assertThat(p.low()).isEqualTo(4.0);
    }

    @Test
    void aTickSoonAfterAHighTaskEndsDoesNotJudgeSoShortAPeriod() {
        AdaptivePolicy p = started(Map.of("lowInitial", "4", "target", "150"));
        ThreadView h = Views.thread("h");
        c.now += SECOND / 3;
        p.onRoleChange(c, h, null, high, Cause.SCOPE);
        c.now += SECOND / 2;
        p.onRoleChange(c, h, high, null, Cause.SCOPE);
        c.calls.clear();
        c.now += SECOND / 5; // the regular tick, 200 ms after the high task's end: 1 page would be 5 pages/s
        middle.completed += 1;
        p.onTick(c, c.now);
        assertThat(c.calls).isEmpty();
        assertThat(p.low()).isEqualTo(4.0);
        c.now += SECOND; // the next one judges the 1.2 s since the end
        middle.completed += 179;
        p.onTick(c, c.now);
        assertThat(p.lastObserved()).isEqualTo(150.0);
        assertThat(p.low()).isEqualTo(4.0);
    }

    @Test
    void theCapAndPacingParametersApplyDuringAHighTaskAndTheLowLimitIsTheTighterOne() {
        AdaptivePolicy p = started(Map.of("lowInitial", "3", "lowLimit", "5", "middleCap", "2x",
                "middlePacing", "250ms"));
        p.onRoleChange(c, Views.thread("h"), null, high, Cause.SCOPE);
        assertThat(c.calls).containsExactly("cap chart 3", "pacing levels 250000000", "cap levels 4");
    }

    @Test
    void classesFirstSeenDuringAHighTaskAreCappedAsTheStateSays() {
        AdaptivePolicy p = create(Map.of("lowInitial", "3"));
        p.onStart(c);
        p.onRoleChange(c, Views.thread("h"), null, high, Cause.SCOPE);
        c.calls.clear();
        p.onRoleChange(c, Views.thread("m"), null, middle, Cause.SCOPE);
        p.onRoleChange(c, Views.thread("l"), null, low, Cause.SCOPE);
        assertThat(c.calls).containsExactly("pacing levels 100000000", "cap levels 15", "admitAtEntry m",
                "cap chart 1", "admit l");
    }

    @Test
    void middleThreadsWaitAtEntryLowOnesAtControlPointsAndBothAreReleasedOnExit() {
        AdaptivePolicy p = create(Map.of());
        ThreadView m = Views.thread("m"), l = Views.thread("l");
        p.onRoleChange(c, m, null, middle, Cause.SCOPE);
        p.onRoleChange(c, l, null, low, Cause.SCOPE);
        p.onRoleChange(c, m, middle, null, Cause.SCOPE);
        p.onRoleChange(c, l, low, null, Cause.DEATH);
        assertThat(c.calls).containsExactly("admitAtEntry m", "cap chart 6", "admit l", "release m", "release l");
    }

    @Test
    void defaultsAreThePapers() {
        AdaptivePolicy p = create(Map.of());
        assertThat(p.tickNanos()).as("period 1 s").isEqualTo(SECOND);
        assertThat(p.low()).as("starts at lowMax, 6").isEqualTo(6.0);
        p.onStart(c);
        p.onRoleChange(c, Views.thread("m"), null, middle, Cause.SCOPE);
        p.onRoleChange(c, Views.thread("h"), null, high, Cause.SCOPE);
        assertThat(c.calls).containsExactly("admitAtEntry m", "pacing levels 100000000", "cap levels 15");
        middle.members = 1;
        p.onRoleChange(c, Views.thread("l"), null, low, Cause.SCOPE);
        assertThat(c.caps).as("lowLimit 1 during a high task").containsEntry("chart", 1);

        AdaptivePolicy q = started(Map.of());
        period(q, 150);
        assertThat(q.low()).as("target 150 pages/s: 150 in a second leaves the limit alone").isEqualTo(6.0);
        period(q, 75);
        assertThat(q.low()).isEqualTo(3.0);
    }

    @Test
    void limitsMayBeWrittenRelativeToTheCores() {
        AdaptivePolicy p = create(Map.of("lowMin", "0.5x", "lowMax", "2x", "lowInitial", "1x"), 16);
        assertThat(p.low()).isEqualTo(16.0);
        p.onStart(c);
        p.onRoleChange(c, Views.thread("m"), null, middle, Cause.SCOPE);
        middle.members = 1;
        p.onRoleChange(c, Views.thread("l"), null, low, Cause.SCOPE);
        period(p, 1_000_000);
        assertThat(p.low()).isEqualTo(32.0);
        period(p, 0);
        assertThat(p.low()).isEqualTo(8.0);
    }

    @Test
    void ranksThreeLevels() {
        AdaptivePolicy p = create(Map.of());
        assertThat(p.rank(new TaskClassSpec("a", Map.of("importance", "high")))).isEqualTo(3);
        assertThat(p.rank(new TaskClassSpec("a", Map.of("importance", "middle")))).isEqualTo(2);
        assertThat(p.rank(new TaskClassSpec("a", Map.of("importance", "low")))).isEqualTo(1);
        assertThat(p.rank(new TaskClassSpec("a", Map.of()))).isZero();
        assertThatThrownBy(() -> p.rank(new TaskClassSpec("page", Map.of("importance", "medium"))))
                .hasMessageContaining("high, middle, low or normal")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("taskClasses.page.importance");
        assertThatThrownBy(() -> ImportancePolicy.create(Views.context("importance", Map.of()))
                .rank(new TaskClassSpec("page", Map.of("importance", "middle"))))
                .as("middle is the adaptive policy's level only").hasMessageContaining("high, low or normal");
    }

    @Test
    void rejectsBadParametersNamingTheKey() {
        assertRejected(Map.of("target", "0"), "policy.target", "greater than 0");
        assertRejected(Map.of("target", "fast"), "policy.target", "must be a number");
        assertRejected(Map.of("period", "1"), "policy.period", "with a unit");
        assertRejected(Map.of("lowMin", "0"), "policy.lowMin", "at least 1 thread");
        assertRejected(Map.of("lowMin", "4", "lowMax", "3"), "policy.lowMax", "must not be below lowMin");
        assertRejected(Map.of("lowInitial", "9"), "policy.lowInitial", "between lowMin (1) and lowMax (6)");
        assertRejected(Map.of("middleCap", "-1"), "policy.middleCap", "number of threads");
        assertRejected(Map.of("middlePacing", "soon"), "policy.middlePacing", "duration");
        assertRejected(Map.of("lowCap", "1x"), "policy.lowCap", "unknown parameter 'lowCap' for policy adaptive");
        assertRejected(Map.of("gain", "0"), "policy.gain", "greater than 0");
        assertRejected(Map.of("gain", "1.5"), "policy.gain", "");
        assertRejected(Map.of("dither", "yes"), "policy.dither", "");
        assertRejected(Map.of("dither", "true", "period", "5ms"), "policy.period", "at least 10ms");
        assertThat(create(Map.of("lowMin", "8")).low()).as("lowMax follows a larger lowMin").isEqualTo(8.0);
        assertThat(create(Map.of("target", "12.5"))).isNotNull();
    }

    private static void assertRejected(Map<String, String> params, String key, String message) {
        assertThatThrownBy(() -> create(params)).as(params.toString())
                .isInstanceOf(PolicyConfigException.class).hasMessageContaining(message)
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo(key);
    }
}
