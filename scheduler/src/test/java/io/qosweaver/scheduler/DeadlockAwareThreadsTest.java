package io.qosweaver.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.testing.Configs;
import io.qosweaver.scheduler.testing.Worker;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The deadlock-aware policy with real threads and the real park with a time-out: a suspended low
 * thread runs on once a wait times out without progress of the high task, passes its control
 * points while there is still none, and is suspended again by the high task's next progress point.
 */
class DeadlockAwareThreadsTest {
    private Worker low;

    @AfterEach
    void tearDown() throws InterruptedException {
        Scheduler.uninstall();
        if (low != null) {
            low.stop = true;
            low.thread.join(5_000);
            assertThat(low.thread.isAlive()).isFalse();
        }
        ThreadStates.removeForTests();
        assertThat(Pending.value()).isZero();
    }

    @Test
    void aWaitTimesOutWithoutProgressRunsOnAndParksAgainAtTheNextProgress() {
        Scheduler s = Scheduler.install(Configs.config("deadlock-aware", Map.of("lowLimit", "0", "timeout", "20ms")));
        low = Worker.start("chart", "low");
        await().atMost(Duration.ofSeconds(5)).until(() -> low.passes.get() > 0);
        QoS.enter("collect");
        try {
            // it parks for one wait of 20 ms (too short to poll for): counted
            await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().suspensions() >= 1);
            long parkedAt = low.passes.get();
            // no progress point passes: after 20 ms the wait times out and the thread runs on, flagged
            await().atMost(Duration.ofSeconds(5)).until(() -> low.passes.get() > parkedAt + 5);
            assertThat(s.stats().waitTimeouts()).isPositive();
            assertThat(s.stats().waitQueueSize()).as("still told to yield").isEqualTo(1);
            long suspensions = s.stats().suspensions();
            assertThat(suspensions).as("one park: it skipped its control points since").isEqualTo(1);
            // running on, it asks the policy under the lock at one control point in 64 (no convoy)
            long passes = low.passes.get();
            long lockFree = s.controller.machine().lockFreeRunOnPasses();
            await().atMost(Duration.ofSeconds(5)).until(() -> low.passes.get() > passes + 1000);
            long moreLockFree = s.controller.machine().lockFreeRunOnPasses() - lockFree;
            long morePasses = low.passes.get() - passes;
            assertThat(moreLockFree).as("lock-free passes of " + morePasses).isGreaterThanOrEqualTo(morePasses * 9 / 10);
            long timeouts = s.stats().waitTimeouts();
            QoS.progressPoint(); // the high task progresses: the low thread suspends again, and, with
            // no progress after that one, runs on again 20 ms later
            await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().suspensions() > suspensions
                    && s.stats().waitTimeouts() > timeouts);
            assertThat(s.stats().progressPoints()).containsEntry("collect", 1L);
        } finally {
            QoS.exit();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> !low.parkedInScheduler() && s.stats().waitQueueSize() == 0);
    }
}
