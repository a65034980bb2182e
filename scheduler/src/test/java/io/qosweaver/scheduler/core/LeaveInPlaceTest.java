package io.qosweaver.scheduler.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.testing.Configs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A thread leaving its last scope wakes the parked thread its leave promotes in its place (on the
 * CPU it frees); every other promotion wakes plainly. No tick: the hand-off's deferral is off, as
 * for the importance policy without a grace.
 */
class LeaveInPlaceTest {
    private final Configs.FakeTicker clock = new Configs.FakeTicker();
    private final List<String> effects = new ArrayList<>();
    private StateMachine m;
    private ThreadState a, b, c;

    /** One running thread at a time, admitted at entry; a nested class "inner" that is not capped. */
    private static final class CapPolicy implements Policy {
        /** The limit a leave sets before it releases the leaver (0: unchanged). */
        int limitOnLeave;

        @Override
        public String name() {
            return "cap";
        }

        @Override
        public int rank(TaskClassSpec taskClass) {
            return taskClass.name().equals("work") ? 1 : 0; // "inner" is not observed
        }

        @Override
        public void onStart(Control control) {
            control.setLimit(1);
        }

        @Override
        public void onRoleChange(Control control, ThreadView thread, TaskClass from, TaskClass to, Cause cause) {
            if (to != null) {
                control.admitAtEntry(thread);
            } else {
                if (limitOnLeave > 0) {
                    control.setLimit(limitOnLeave);
                }
                control.release(thread);
            }
        }
    }

    private final CapPolicy policy = new CapPolicy();

    @BeforeEach
    void setUp() {
        Effects recording = new RecordingEffects(effects, this::name);
        m = StateMachine.create(policy, clock,
                List.of(new TaskClassSpec("work", Map.of()), new TaskClassSpec("inner", Map.of())), recording);
        a = new ThreadState(Thread.currentThread());
        b = new ThreadState(Thread.currentThread());
        c = new ThreadState(Thread.currentThread());
        for (ThreadState t : List.of(a, b, c)) {
            m.changeRole(t, m.classOrUnknown("work"), Policy.Cause.SCOPE);
        }
        assertThat(a.yield).as("a runs").isFalse();
        assertThat(b.atEntry && c.atEntry).as("b and c wait at entry").isTrue();
        assertThat(m.beginWait(b)).isTrue();
        assertThat(m.beginWait(c)).isTrue();
        assertThat(m.checkInvariants()).isNull();
    }

    private String name(ThreadState t) {
        return t == a ? "a" : t == b ? "b" : t == c ? "c" : "?";
    }

    @Test
    void aThreadLeavingItsLastScopeWakesTheOneItPromotesInItsPlace() {
        m.changeRole(a, null, Policy.Cause.SCOPE);
        assertThat(effects).containsExactly("wake b in place of a");
        assertThat(b.yield).isFalse();
        assertThat(c.yield).as("the one slot is b's").isTrue();
        assertThat(m.checkInvariants()).isNull();

        // b leaves in turn: c takes b's CPU
        m.changeRole(b, null, Policy.Cause.SCOPE);
        assertThat(effects).containsExactly("wake b in place of a", "wake c in place of b");
    }

    @Test
    void oneLeaveFreesOneCpuSoOnlyTheFirstItPromotesIsWokenInItsPlace() {
        policy.limitOnLeave = 3; // b and c both promoted by a's leave
        m.changeRole(a, null, Policy.Cause.SCOPE);
        assertThat(effects).containsExactly("wake b in place of a", "wake c");
        assertThat(m.checkInvariants()).isNull();
    }

    @Test
    void aChangeToAnotherClassOrAPromotionFromOutsideWakesPlainly() {
        m.changeRole(a, m.classOrUnknown("inner"), Policy.Cause.SCOPE); // a goes on running, unobserved
        assertThat(effects).as("a still runs: its CPU is not free").containsExactly("wake b");
        m.setLimit(2);
        assertThat(effects).containsExactly("wake b", "wake c");
        assertThat(m.checkInvariants()).isNull();
    }
}
