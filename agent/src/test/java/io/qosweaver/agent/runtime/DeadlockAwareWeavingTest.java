package io.qosweaver.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.testtargets.HostageWorker;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * End to end in one JVM (the agent attached to the test JVM, the policy file woven, the real
 * scheduler): a low thread suspended at a control point while it holds a {@code ReentrantLock}
 * that the high thread needs. Under the importance policy that is a deadlock; under the
 * deadlock-aware policy, with a progress point woven into the high task, the low thread's wait
 * times out without progress, it runs on and lets the lock go, the high task completes, and once
 * the high task progresses again the low thread is suspended again.
 */
class DeadlockAwareWeavingTest {
    private static Instrumentation inst;
    private Weaving weaving;
    private Thread low, high;
    private HostageWorker w;

    private static final String POLICY = """
            taskClasses:
              - name: collect
                entry: execution(int io.qosweaver.testtargets.HostageWorker.collect(int))
                importance: high
              - name: chart
                entry: execution(int io.qosweaver.testtargets.HostageWorker.chart())
                importance: low
            controlPoints:
              - call(int io.qosweaver.testtargets.HostageWorker.step(int)) && withincode(* io.qosweaver.testtargets.HostageWorker.chart())
            progressPoints:
              - call(int io.qosweaver.testtargets.HostageWorker.measure(int)) && withincode(* io.qosweaver.testtargets.HostageWorker.collect(int))
            policy:
            """;

    @BeforeAll
    static void attach() {
        inst = ByteBuddyAgent.install();
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        if (w != null) {
            w.stop = w.done = w.highMayEnd = true;
        }
        Scheduler.uninstall();
        for (Thread t : new Thread[] {low, high}) {
            if (t != null) {
                t.join(5_000);
                assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
            }
        }
        if (weaving != null) {
            weaving.reset();
        }
    }

    private void weave(String policy) throws Exception {
        PolicyFile file = PolicyFile.parse("deadlock.yaml", POLICY + policy);
        Scheduler.install(SchedulerGateway.configOf(file));
        weaving = PolicyWeaving.install(inst, file, new AgentLog(new PrintStream(new ByteArrayOutputStream()), false));
    }

    private static SchedulerStats stats() {
        return Scheduler.current().stats();
    }

    /** The low thread holds the lock and is suspended at a control point; the high one waits for the lock. */
    private AtomicInteger holdHostage() {
        w = new HostageWorker();
        low = new Thread(w::chart, "low");
        low.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> w.holdsLock);
        AtomicInteger result = new AtomicInteger(-1);
        high = new Thread(() -> result.set(w.collect(100)), "high");
        high.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> stats().suspensions() >= 1);
        w.stop = true; // the low task would let the lock go, if it ran
        return result;
    }

    @Test
    void underTheImportancePolicyTheLowThreadHoldsTheHighOneHostage() throws Exception {
        weave("  name: importance\n  lowLimit: 0\n");
        AtomicInteger result = holdHostage();
        high.join(1_000);
        assertThat(high.isAlive()).as("deadlocked: the high task waits for the lock of a suspended thread").isTrue();
        assertThat(stats().suspendedThreads()).isEqualTo(1);
        assertThat(w.holdsLock).isTrue();
        Scheduler.uninstall(); // releases the low thread: the lock goes, the high task goes on
        w.highMayEnd = true;
        high.join(5_000);
        assertThat(result.get()).isPositive();
    }

    @Test
    void underTheDeadlockAwarePolicyTheLowThreadRunsOnAndTheHighTaskCompletes() throws Exception {
        weave("  name: deadlock-aware\n  lowLimit: 0\n  timeout: 50ms\n");
        AtomicInteger result = holdHostage();
        await().atMost(Duration.ofSeconds(10)).until(() -> !w.holdsLock);
        SchedulerStats runOn = stats();
        assertThat(runOn.waitTimeouts()).as("a wait timed out without progress").isPositive();
        // the high task has the lock and progresses again: the low thread, still flagged, is suspended
        // again (a second park: while it ran on without progress it skipped every control point)
        await().atMost(Duration.ofSeconds(10)).until(() -> stats().suspensions() == 2
                && stats().suspendedThreads() == 1);
        assertThat(stats().progressPoints().get("collect")).isGreaterThan(100);
        w.highMayEnd = true;
        high.join(10_000);
        assertThat(high.isAlive()).isFalse();
        assertThat(result.get()).isPositive();
        await().atMost(Duration.ofSeconds(5)).until(() -> stats().suspendedThreads() == 0);
        w.done = true;
        low.join(5_000);
        assertThat(low.isAlive()).isFalse();
        assertThat(stats().runQueueSize() + stats().waitQueueSize()).as("nobody left controlled").isZero();
        assertThat(stats().resumes()).as("every park resumed").isEqualTo(stats().suspensions());
    }
}
