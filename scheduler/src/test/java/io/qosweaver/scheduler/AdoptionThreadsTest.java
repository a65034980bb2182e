package io.qosweaver.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.scheduler.testing.Configs;
import io.qosweaver.scheduler.testing.Worker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Adoption with real threads through {@link Scheduler#install}: the river monitor's {@code ctl set
 * policy.lowLimit=2} while a collection runs and low threads are parked under the old scheduler.
 */
class AdoptionThreadsTest {
    private final List<Worker> workers = new ArrayList<>();

    @AfterEach
    void tearDown() throws InterruptedException {
        Scheduler.uninstall();
        for (Worker w : workers) {
            w.stop = true;
        }
        for (Worker w : workers) {
            w.thread.join(5_000);
            assertThat(w.thread.isAlive()).as("worker %s finished", w.thread.getName()).isFalse();
        }
        ThreadStates.removeForTests();
        assertThat(Pending.value()).as("no thread left flagged").isZero();
    }

    private Worker start(String cls, String name) {
        Worker w = Worker.start(cls, name);
        workers.add(w);
        return w;
    }

    private static List<Worker> parkedIn(List<Worker> ws, Scheduler s) {
        return ws.stream().filter(w -> LockSupport.getBlocker(w.thread) == s.controller).collect(Collectors.toList());
    }

    @Test
    void aReplacementWhileACollectionRunsKeepsTheLowThreadsHeldUntilItEnds() {
        Scheduler old = Scheduler.install(Configs.importance(1));
        Worker high = start("collect", "high");
        await().atMost(Duration.ofSeconds(5)).until(() -> high.passes.get() > 2);
        List<Worker> low = List.of(start("chart", "low-0"), start("chart", "low-1"), start("chart", "low-2"));
        await().atMost(Duration.ofSeconds(5)).until(() -> parkedIn(low, old).size() == 2);

        Scheduler next = Scheduler.install(Configs.importance(2));

        assertThat(next.adopted()).containsExactly(Map.entry("collect", 1), Map.entry("chart", 3));
        assertThat(next.stats().limit()).as("lowLimit applied at once: a high task runs").isEqualTo(2);
        // released by the old scheduler, one of them parks again at its next control point under the new one
        await().atMost(Duration.ofSeconds(5)).until(() -> parkedIn(low, next).size() == 1);
        assertThat(parkedIn(low, old)).isEmpty();
        await().during(Duration.ofMillis(100)).atMost(Duration.ofSeconds(2))
                .until(() -> parkedIn(low, next).size() == 1);

        high.stop = true; // the adopted collection ends: its exit reaches the new scheduler
        await().atMost(Duration.ofSeconds(5)).until(() -> high.done);
        await().atMost(Duration.ofSeconds(5)).until(() -> parkedIn(low, next).isEmpty());
        SchedulerStats st = next.stats();
        assertThat(st.limit()).as("no high task: the limit is lifted").isEqualTo(-1);
        assertThat(st.runningThreads()).containsEntry("collect", 0).containsEntry("chart", 3);
        for (Worker w : low) {
            w.stop = true;
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> low.stream().allMatch(w -> w.done));
        assertThat(next.stats().runningThreads().values()).containsOnly(0);
    }
}
