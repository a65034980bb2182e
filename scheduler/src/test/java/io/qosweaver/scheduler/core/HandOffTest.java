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
 * The hand-off, step by step on one thread with recorded effects: a parked thread promoted while
 * the runner demoted for it is still on its CPU is woken by that runner, in its place, when it
 * parks; plainly when it runs on instead; by the tick at the latest; by nobody when it woke first.
 */
class HandOffTest {
    private final Configs.FakeTicker clock = new Configs.FakeTicker();
    private final List<String> effects = new ArrayList<>();
    private StateMachine m;
    private ThreadState a, b;

    /** Admits every thread of the one class; a tick, so that hand-offs are on. */
    private static final class TickingPolicy implements Policy {
        @Override
        public String name() {
            return "ticking";
        }

        @Override
        public int rank(TaskClassSpec taskClass) {
            return 1; // observed
        }

        @Override
        public void onStart(Control control) {
            control.setLimit(1);
        }

        @Override
        public void onRoleChange(Control control, ThreadView thread, TaskClass from, TaskClass to, Cause cause) {
            if (to != null) {
                control.admit(thread);
            } else {
                control.release(thread);
            }
        }

        @Override
        public long tickNanos() {
            return 1_000_000;
        }
    }

    @BeforeEach
    void setUp() {
        Effects recording = new RecordingEffects(effects, this::name);
        m = StateMachine.create(new TickingPolicy(), clock, List.of(new TaskClassSpec("work", Map.of())), recording);
        a = new ThreadState(Thread.currentThread());
        b = new ThreadState(Thread.currentThread());
        m.changeRole(a, m.classOrUnknown("work"), Policy.Cause.SCOPE);
        m.changeRole(b, m.classOrUnknown("work"), Policy.Cause.SCOPE);
        assertThat(a.yield).as("a runs").isFalse();
        assertThat(b.yield).as("b waits").isTrue();
        assertThat(m.beginWait(b)).isTrue();
        // a is demoted while on its CPU, b (parked) promoted: b's wake waits for a
        m.setLimit(0);
        m.setOrder(a, 1_000);
        m.setLimit(1);
        assertThat(b.yield).isFalse();
        assertThat(a.yield).isTrue();
        assertThat(b.wakeDeferred).isTrue();
        assertThat(effects).as("nobody woken yet").isEmpty();
        assertThat(m.checkInvariants()).isNull();
    }

    private String name(ThreadState t) {
        return t == a ? "a" : t == b ? "b" : "?";
    }

    @Test
    void theDemotedRunnerWakesItsSuccessorInItsPlaceWhenItParks() {
        assertThat(m.beginWait(a)).isTrue();
        assertThat(effects).containsExactly("wake b in place of a");
        assertThat(b.wakeDeferred).isFalse();
        assertThat(m.checkInvariants()).isNull();
    }

    @Test
    void aDemotedRunnerPromotedAgainBeforeItsControlPointWakesItsSuccessorPlainly() {
        m.setLimit(2); // a runs on: both hold a slot
        assertThat(a.yield).isFalse();
        assertThat(effects).containsExactly("wake b");
        assertThat(m.checkInvariants()).isNull();
    }

    @Test
    void theTickWakesASuccessorWhoseRunnerHasNotReachedAControlPoint() {
        m.tick(clock.nanos());
        assertThat(effects).containsExactly("wake b");
        assertThat(m.beginWait(a)).isTrue();
        assertThat(effects).as("woken once").containsExactly("wake b");
        assertThat(m.checkInvariants()).isNull();
    }

    @Test
    void aSuccessorAwakeOnItsOwnIsNoLongerHandedOff() {
        m.awake(b); // a safety-net wake-up found b released
        assertThat(b.wakeDeferred).isFalse();
        assertThat(m.checkInvariants()).isNull();
        assertThat(m.beginWait(a)).isTrue();
        assertThat(effects).as("b runs already: nobody to wake").isEmpty();
        assertThat(m.checkInvariants()).isNull();
    }

    @Test
    void shutdownWakesADeferredSuccessor() {
        m.shutdown();
        assertThat(effects).contains("wake b");
    }
}
