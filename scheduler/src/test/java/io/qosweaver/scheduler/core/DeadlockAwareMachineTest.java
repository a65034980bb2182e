package io.qosweaver.scheduler.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.scheduler.Policies;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.testing.Configs;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The deadlock-aware policy on the real state machine, stepped from one thread on a fake clock as
 * the simulator steps it: a timed wait that expires without progress lets the thread run on with
 * its flag set, its control points skip suspension while there is no progress, and it suspends
 * again once progress resumes. Parking with a real time-out: {@code DeadlockAwareThreadsTest}.
 */
class DeadlockAwareMachineTest {
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
        controller = Controller.create(Policies.create("deadlock-aware",
                PolicyContext.of("deadlock-aware", params, clock, w -> {})), clock, Configs.riverClasses());
        return controller.machine();
    }

    private static ThreadState state() {
        return new ThreadState(Thread.currentThread());
    }

    private <T> T locked(java.util.function.Supplier<T> s) {
        return controller.locked(s);
    }

    @Test
    void theTimeoutIsThePolicysAndAWaitWithoutProgressRunsOnFlaggedUntilProgressResumes() {
        StateMachine m = machine(Map.of());
        assertThat(m.policy().waitTimeoutNanos()).isEqualTo(200_000_000L);
        TaskClassState collect = m.classOrUnknown("collect");
        ThreadState a = state(), b = state(), h = state();
        Scopes.enter(a, controller, "chart");
        Scopes.enter(b, controller, "chart");
        Scopes.enter(h, controller, "collect");
        assertThat(b.yield).isTrue();
        int pending = Pending.value();

        assertThat(locked(() -> m.mayPark(b) && m.beginWait(b))).as("b suspends").isTrue();
        collect.progress.increment();
        clock.advanceMillis(200);
        assertThat(locked(() -> m.waitExpired(b))).as("the collector progressed: wait on").isTrue();
        assertThat(b.parked).isTrue();

        clock.advanceMillis(200);
        assertThat(locked(() -> m.waitExpired(b))).as("no progress for 200 ms: run on").isFalse();
        assertThat(b.parked).isFalse();
        assertThat(b.yield).as("flag still set").isTrue();
        assertThat(b.queue).as("still waiting for a slot").isEqualTo(ThreadState.WAIT);
        assertThat(Pending.value()).as("still pending").isEqualTo(pending);
        assertThat(m.executingControlled()).as("runs over the limit for now").isEqualTo(2);
        assertThat(controller.stats(0, 0).waitTimeouts()).isEqualTo(1);
        assertThat(m.checkInvariants()).isNull();

        for (int i = 0; i < 3; i++) {
            assertThat(locked(() -> m.mayPark(b))).as("control point %d: no progress, skipped", i).isFalse();
        }
        collect.progress.increment();
        assertThat(locked(() -> m.mayPark(b) && m.beginWait(b))).as("progress resumed: suspends").isTrue();
        assertThat(m.parkedCount()).isEqualTo(1);

        Scopes.exit(h); // the collection ends: b released, woken
        assertThat(b.parked || b.yield).isFalse();
        assertThat(m.checkInvariants()).isNull();
        Scopes.exit(a);
        Scopes.exit(b);
    }

    @Test
    void theCollectorsEndReleasesARunningOnThreadAndANewCollectionSuspendsItAgain() {
        StateMachine m = machine(Map.of("timeout", "50ms"));
        ThreadState a = state(), b = state(), h = state();
        Scopes.enter(a, controller, "chart");
        Scopes.enter(b, controller, "chart");
        Scopes.enter(h, controller, "collect");
        locked(() -> m.mayPark(b) && m.beginWait(b));
        assertThat(locked(() -> m.waitExpired(b))).isFalse();
        Scopes.exit(h);
        assertThat(b.yield).isFalse();
        Scopes.enter(h, controller, "collect");
        assertThat(b.yield).isTrue();
        assertThat(locked(() -> m.mayPark(b))).as("a new collection, no progress yet: suspends").isTrue();
        Scopes.exit(h);
        Scopes.exit(a);
        Scopes.exit(b);
        assertThat(m.checkInvariants()).isNull();
    }
}
