package io.qosweaver.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The adaptive policy with real threads: during a high task a middle thread that finds the middle
 * cap full waits at its scope's entry, and when a slot frees it sleeps the pacing delay before its
 * body runs; that delay is not counted as waiting for admission.
 */
class AdaptiveThreadsTest {

    @AfterEach
    void tearDown() {
        Scheduler.uninstall();
        ThreadStates.removeForTests();
        assertThat(Pending.value()).isZero();
    }

    @Test
    void aMiddleThreadWokenFromItsEntryWaitIsPacedBeforeItsBodyRuns() throws Exception {
        Scheduler s = Scheduler.install(new SchedulerConfig(List.of(
                new TaskClassSpec("collect", Map.of("importance", "high")),
                new TaskClassSpec("levels", Map.of("importance", "middle")),
                new TaskClassSpec("chart", Map.of("importance", "low"))),
                new SchedulerConfig.PolicySpec("adaptive", Map.of("middleCap", "1", "middlePacing", "300ms"))));
        QoS.enter("collect");
        CountDownLatch firstIn = new CountDownLatch(1), firstMayLeave = new CountDownLatch(1);
        Thread first = new Thread(() -> {
            QoS.enter("levels");
            try {
                firstIn.countDown();
                firstMayLeave.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                QoS.exit();
            }
        }, "first");
        AtomicLong secondEnterAt = new AtomicLong(), secondReleasedAt = new AtomicLong(), secondBodyAt = new AtomicLong();
        Thread second = new Thread(() -> {
            secondEnterAt.set(System.nanoTime());
            QoS.enter("levels"); // the cap is full: waits here, then is paced
            secondBodyAt.set(System.nanoTime());
            QoS.exit();
        }, "second");
        try {
            first.start();
            firstIn.await();
            second.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().suspendedThreads() == 1);
            secondReleasedAt.set(System.nanoTime());
            firstMayLeave.countDown(); // frees the slot: second is admitted, then paced
            second.join(5_000);
            assertThat(second.isAlive()).isFalse();
        } finally {
            firstMayLeave.countDown();
            first.join(5_000);
            QoS.exit();
        }
        long paced = secondBodyAt.get() - secondReleasedAt.get();
        assertThat(paced).as("pacing after the entry wait").isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(300));
        assertThat(s.stats().admissionWaits()).isEqualTo(1);
        long enterToBody = secondBodyAt.get() - secondEnterAt.get();
        assertThat(s.stats().admissionWaitNanos()).as("the pacing is not an admission wait")
                .isPositive().isLessThan(enterToBody - TimeUnit.MILLISECONDS.toNanos(250));
    }
}
