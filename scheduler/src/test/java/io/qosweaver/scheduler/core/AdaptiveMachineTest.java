package io.qosweaver.scheduler.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.scheduler.Policies;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.testing.Configs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The adaptive policy on the real state machine, stepped from one thread on a fake clock: the tick
 * multiplies the low cap by observed/target throughput of the middle class; a high task caps the
 * middle class and paces a middle thread woken from its entry wait; its end restores the low cap
 * and lets the middle waiters go on unpaced.
 */
class AdaptiveMachineTest {
    private final Configs.FakeTicker clock = new Configs.FakeTicker();
    private Controller controller;

    @AfterEach
    void tearDown() {
        if (controller != null) {
            controller.shutdown();
        }
        assertThat(Pending.value()).isZero();
    }

    private StateMachine machine(Map<String, String> params) {
        controller = Controller.create(Policies.create("adaptive", PolicyContext.of("adaptive", params, clock, w -> {})),
                clock, List.of(new TaskClassSpec("collect", Map.of("importance", "high")),
                        new TaskClassSpec("levels", Map.of("importance", "middle")),
                        new TaskClassSpec("chart", Map.of("importance", "low"))));
        return controller.machine();
    }

    private static ThreadState state() {
        return new ThreadState(Thread.currentThread());
    }

    /** n middle pages served (each a scope entered and left). */
    private void serve(int n) {
        ThreadState p = state();
        for (int i = 0; i < n; i++) {
            Scopes.enter(p, controller, "levels");
            Scopes.exit(p);
        }
    }

    @Test
    void theTickMultipliesTheLowCapAndAHighTaskCapsAndPacesTheMiddleClass() {
        StateMachine m = machine(Map.of("lowInitial", "5", "target", "150", "middleCap", "1"));
        assertThat(m.policy().tickNanos()).isEqualTo(1_000_000_000L);
        TaskClassState chart = m.classOrUnknown("chart"), levels = m.classOrUnknown("levels");
        ThreadState[] lows = new ThreadState[7];
        for (int i = 0; i < lows.length; i++) {
            lows[i] = state();
            Scopes.enter(lows[i], controller, "chart");
        }
        assertThat(m.cap(chart)).isEqualTo(5);
        assertThat(m.running(chart)).isEqualTo(5);
        ThreadState busy = state();
        Scopes.enter(busy, controller, "levels"); // a middle thread inside: there is demand
        serve(180);
        clock.advanceMillis(1000);
        controller.tick();
        assertThat(m.cap(chart)).as("5 x 180/150").isEqualTo(6);
        assertThat(m.running(chart)).isEqualTo(6);

        ThreadState h = state(), late = state();
        Scopes.enter(h, controller, "collect");
        assertThat(m.cap(chart)).as("lowLimit 1 during the collection").isEqualTo(1);
        assertThat(m.cap(levels)).isEqualTo(1);
        assertThat(busy.yield).as("the middle runner keeps its slot").isFalse();
        // with busy at the cap, late waits at its entry (moveRole: the role change without the park)...
        Scopes.moveRole(late, levels);
        assertThat(late.yield && late.atEntry).isTrue();
        assertThat(controller.locked(() -> m.beginWait(late))).isTrue();
        long now = clock.now;
        Scopes.exit(busy); // ...and goes on when busy leaves, paced
        assertThat(late.parked).isFalse();
        assertThat(late.takeResumeAt()).as("paced 100 ms").isEqualTo(now + 100_000_000L);

        ThreadState last = state();
        Scopes.moveRole(last, levels);
        assertThat(controller.locked(() -> m.beginWait(last))).isTrue();
        clock.advanceMillis(1000);
        controller.tick();
        assertThat(m.cap(chart)).as("no adjustment during the collection").isEqualTo(1);
        Scopes.exit(h);
        assertThat(m.cap(chart)).as("back to its value before the collection").isEqualTo(6);
        assertThat(m.cap(levels)).isEqualTo(io.qosweaver.scheduler.spi.Control.UNLIMITED);
        assertThat(last.parked || last.yield).isFalse();
        assertThat(last.takeResumeAt()).as("woken by the collection's end: not paced").isZero();
        assertThat(m.checkInvariants()).isNull();

        Scopes.moveRole(late, null);
        Scopes.moveRole(last, null);
        for (ThreadState l : lows) {
            Scopes.exit(l);
        }
        assertThat(m.runQueueSize()).isZero();
    }

    /** The adaptive low limit is the low class's cap: stats and /metrics carry it, so a run can plot it. */
    @Test
    void theStatsCarryTheAdaptiveLowLimitAsTheLowClassCap() {
        StateMachine m = machine(Map.of("lowInitial", "5", "target", "150"));
        assertThat(m.stats(0, 0, false, Map.of()).caps()).as("no class entered yet: no cap set").isEmpty();
        ThreadState low = state();
        Scopes.enter(low, controller, "chart");
        assertThat(m.stats(0, 0, false, Map.of()).caps()).containsExactly(Map.entry("chart", 5));
        ThreadState busy = state();
        Scopes.enter(busy, controller, "levels");
        serve(90);
        clock.advanceMillis(1000);
        controller.tick();
        assertThat(m.stats(0, 0, false, Map.of()).caps()).as("5 x 90/150").containsExactly(Map.entry("chart", 3));
        assertThat(io.qosweaver.scheduler.stats.PrometheusText.render(m.stats(0, 0, false, Map.of())))
                .contains("qosweaver_task_class_cap{task_class=\"chart\"} 3\n")
                .doesNotContain("task_class_cap{task_class=\"levels\"}");
        Scopes.exit(busy);
        Scopes.exit(low);
    }
}
