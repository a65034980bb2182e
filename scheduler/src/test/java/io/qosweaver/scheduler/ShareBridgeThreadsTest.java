package io.qosweaver.scheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.stats.EntityShare;
import io.qosweaver.scheduler.stats.SchedulerStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Java API's bridge with real threads on the real mechanism under MTR-LS: many threads opening
 * nested scopes of random run-time shares whose fractions change while they run, with control
 * points between; never more than P run, every thread finishes (nobody is left parked), the stats
 * name the shares; and the same calls are inert without a scheduler and under a policy without
 * shares.
 */
class ShareBridgeThreadsTest {
    private static final int THREADS = 32, SHARES = 8, P = 2;

    @AfterEach
    void tearDown() {
        Scheduler.uninstall();
        ThreadStates.removeForTests();
        assertThat(Pending.value()).isZero();
    }

    private static void work(Random r) {
        long x = 0;
        for (int i = 0; i < 2_000 + r.nextInt(20_000); i++) {
            x += i ^ (x >>> 3);
        }
        if (x == 42) {
            System.out.print("");
        }
        QoS.controlPoint();
    }

    @Test
    void manyThreadsInNestedSharesWithFractionsChangingFinishAndNeverExceedP() throws Exception {
        Scheduler s = Scheduler.install(new SchedulerConfig(List.of(new TaskClassSpec("file", Map.of("fraction", "0.1"))),
                new SchedulerConfig.PolicySpec("mtr-ls", Map.of("cores", Integer.toString(P), "sample", "1ms",
                        "quantum", "20ms", "window", "200ms"))));
        assertThat(ShareBridge.active()).isTrue();
        assertThat(ShareBridge.capacity()).as("1 - 5 % - the file's 10 %").isCloseTo(0.85, within(1e-9));
        Object[] shares = new Object[SHARES];
        for (int i = 0; i < SHARES; i++) {
            shares[i] = ShareBridge.newShare("s" + i, 0.05 + 0.01 * i);
        }
        AtomicInteger done = new AtomicInteger();
        long end = System.nanoTime() + 2_000_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int k = 0; k < THREADS; k++) {
            long seed = k;
            threads.add(new Thread(() -> {
                Random r = new Random(seed);
                while (System.nanoTime() < end) {
                    ShareBridge.enter(shares[r.nextInt(SHARES)]);
                    try {
                        work(r);
                        if (r.nextInt(3) == 0) { // nested: the inner share decides until it closes
                            ShareBridge.enter(shares[r.nextInt(SHARES)]);
                            try {
                                work(r);
                            } finally {
                                ShareBridge.exit();
                            }
                        }
                        work(r);
                    } finally {
                        ShareBridge.exit();
                    }
                }
                done.incrementAndGet();
            }, "api-" + k));
        }
        threads.forEach(Thread::start);
        Random r = new Random(99);
        int maxRunning = 0;
        List<String> seen = new ArrayList<>();
        while (System.nanoTime() < end) {
            ShareBridge.setFraction(shares[r.nextInt(SHARES)], 0.02 + 0.08 * r.nextDouble()); // no lock taken
            SchedulerStats st = s.stats();
            maxRunning = Math.max(maxRunning, st.runQueueSize());
            st.shares().forEach(e -> seen.add(e.entity()));
            Thread.sleep(5);
        }
        for (Thread t : threads) {
            t.join(10_000);
        }
        assertThat(done).as("every thread finished: nobody left parked").hasValue(THREADS);
        assertThat(maxRunning).as("never more than P").isLessThanOrEqualTo(P);
        assertThat(s.stats().suspendedThreads()).isZero();
        assertThat(seen).as("the shares are entities in the stats").contains("s0", "s7");
        assertThat(s.stats().shares()).as("a share with no thread inside has left the service list")
                .extracting(EntityShare::taskClass).doesNotContain("api");
    }

    @Test
    void withoutASchedulerAndUnderAPolicyWithoutSharesScopesAreInertAndPaired() {
        Object share = ShareBridge.newShare("x", 0.3);
        assertThat(ShareBridge.active()).isFalse();
        assertThat(ShareBridge.capacity()).isNaN();
        ShareBridge.enter(share);
        ShareBridge.exit();
        Scheduler.install(new SchedulerConfig(List.of(new TaskClassSpec("chart", Map.of("importance", "low"))),
                new SchedulerConfig.PolicySpec("importance", Map.of())));
        assertThat(ShareBridge.active()).isFalse();
        QoS.enter("chart");
        ShareBridge.enter(share); // inert: the thread's role stays the chart scope's
        assertThat(ThreadStates.peek().role().name()).isEqualTo("chart");
        ShareBridge.exit(); // pops the share's scope, not the chart's
        assertThat(ThreadStates.peek().depth()).isEqualTo(1);
        QoS.exit();
        assertThat(ThreadStates.peek().depth()).isZero();
    }
}
