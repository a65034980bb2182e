package io.qosweaver.scheduler;

import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.stats.PrometheusText;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.scheduler.testing.Configs;
import io.qosweaver.scheduler.testing.Worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every registered policy passes (STYLE.md item 9), with real threads on the real
 * mechanism: install and uninstall; nobody left parked or flagged after the high task ends or
 * after uninstall; exceptions through scopes; interrupts while waiting; enter/exit balance; sane
 * stats; a pooled thread leaves its scopes with its normal priority. Task classes are those of the
 * river monitor's policy file: {@code collect} (importance high), {@code chart} (low), {@code
 * update} (not observed). A new policy registers its parameters in {@link #parameters}.
 */
class PolicyContractTest {
    private final List<Worker> workers = new ArrayList<>();

    /** Every policy the module ships (tests may register throw-away ones; those are not policies). */
    static Stream<String> policies() {
        return Policies.builtInNames().stream();
    }

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

    private List<Worker> start(int n, String prefix) {
        List<Worker> ws = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Worker w = Worker.start("chart", prefix + i);
            ws.add(w);
            workers.add(w);
        }
        return ws;
    }

    private static void awaitProgress(List<Worker> ws) {
        long[] before = ws.stream().mapToLong(w -> w.passes.get()).toArray();
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            for (int i = 0; i < before.length; i++) {
                if (ws.get(i).passes.get() <= before[i]) {
                    return false;
                }
            }
            return true;
        });
    }

    private static void stopAll(List<Worker> ws) throws InterruptedException {
        for (Worker w : ws) {
            w.stop = true;
        }
        for (Worker w : ws) {
            w.thread.join(5_000);
            assertThat(w.done).as("%s done", w.thread.getName()).isTrue();
        }
    }

    /** Invariants of any snapshot. */
    static void assertSane(SchedulerStats s, String policy) {
        assertThat(s.policy()).isEqualTo(policy);
        assertThat(s.controlPoints()).isNotNegative();
        assertThat(s.yields()).isNotNegative();
        assertThat(s.resumes()).isBetween(0L, s.suspensions());
        assertThat(s.admissionWaits()).isBetween(0L, s.suspensions());
        assertThat(s.admissionWaitNanos()).isNotNegative();
        assertThat(s.suspendedThreads()).isBetween(0, s.waitQueueSize());
        assertThat(s.runQueueSize()).isNotNegative();
        assertThat(s.runningThreads().values()).allSatisfy(n -> assertThat(n).isNotNegative());
        assertThat(s.limit()).isGreaterThanOrEqualTo(-1);
        assertThat(s.suspensionTimeMaxNanos()).isNotNegative();
        if (s.priority() != null) {
            assertThat(s.priority().mechanism()).isNotBlank();
            assertThat(s.priority().reason()).isNotBlank();
            assertThat(s.priority().changes()).isNotNegative();
            assertThat(s.priority().failures()).isNotNegative();
        }
        assertThat(PrometheusText.render(s)).contains("qosweaver_admission_waits_total ");
    }

    /** Nobody controlled, nobody inside a scope. */
    static void assertQuiet(Scheduler s) {
        SchedulerStats st = s.stats();
        assertSane(st, s.policyName());
        assertThat(st.runningThreads().values()).allSatisfy(n -> assertThat(n).isZero());
        assertThat(st.suspendedThreads()).isZero();
        assertThat(st.runQueueSize()).isZero();
        assertThat(st.waitQueueSize()).isZero();
        assertThat(st.limit()).isEqualTo(-1);
        assertThat(st.resumes()).as("every park resumed").isEqualTo(st.suspensions());
        assertThat(Pending.value()).isZero();
    }

    @Test
    void everyRegisteredPolicyIsInTheContract() {
        assertThat(Policies.builtInNames()).contains("importance", "admission", "java-priority", "linux-priority");
        Policies.builtInNames().forEach(n -> Configs.parameters(n, 1));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void installsAndUninstalls(String policy) {
        Scheduler s = Scheduler.install(Configs.config(policy, 1));
        assertThat(Scheduler.current()).isSameAs(s);
        assertThat(s.policyName()).isEqualTo(policy);
        assertThat(s.isInstalled()).isTrue();
        assertQuiet(s);
        Scheduler.uninstall();
        assertThat(s.isInstalled()).isFalse();
        assertThat(Scheduler.current()).isNull();
        QoS.enter("chart"); // no-ops without a scheduler
        QoS.controlPoint();
        QoS.exit();
        assertThat(Configs.depth()).isZero();
    }

    @ParameterizedTest
    @MethodSource("policies")
    void highEndLetsEveryoneGoOnAndLeavesNothingBehind(String policy) throws InterruptedException {
        Scheduler s = Scheduler.install(Configs.config(policy, 1));
        List<Worker> early = start(3, "early-");
        awaitProgress(early);
        QoS.enter("collect");
        List<Worker> late = start(2, "late-");
        await().pollDelay(Duration.ofMillis(50)).atMost(Duration.ofSeconds(5)).until(() -> {
            SchedulerStats st = s.stats();
            assertSane(st, policy);
            return st.runningThreads().get("collect") == 1;
        });
        QoS.exit();
        List<Worker> all = new ArrayList<>(early);
        all.addAll(late);
        awaitProgress(all);
        assertThat(s.stats().suspendedThreads()).isZero();
        stopAll(all);
        for (Worker w : all) {
            assertThat(w.priorityAfterExit).as("%s priority after its scope", w.thread.getName())
                    .isEqualTo(Thread.NORM_PRIORITY);
        }
        assertQuiet(s);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void uninstallLetsEveryoneGoOnAndUndoesPriorities(String policy) throws InterruptedException {
        Scheduler s = Scheduler.install(Configs.config(policy, 0));
        List<Worker> early = start(2, "early-");
        awaitProgress(early);
        QoS.enter("collect");
        List<Worker> late = start(2, "late-");
        await().pollDelay(Duration.ofMillis(50)).atMost(Duration.ofSeconds(5))
                .until(() -> late.stream().allMatch(w -> w.thread.getState() != Thread.State.NEW));
        Scheduler.uninstall();
        List<Worker> all = new ArrayList<>(early);
        all.addAll(late);
        awaitProgress(all);
        for (Worker w : all) {
            assertThat(w.thread.getPriority()).as("%s priority after uninstall", w.thread.getName())
                    .isEqualTo(Thread.NORM_PRIORITY);
        }
        assertThat(Pending.value()).isZero();
        QoS.exit(); // the test thread's stale scope: a no-op now
        stopAll(all);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void exceptionsThroughScopesKeepThemBalanced(String policy) throws InterruptedException {
        Scheduler s = Scheduler.install(Configs.config(policy, 1));
        AtomicReference<Throwable> seen = new AtomicReference<>();
        int[] depthAfter = {-1};
        Thread t = new Thread(() -> {
            try {
                QoS.enter("chart");
                try {
                    QoS.enter("collect");
                    try {
                        QoS.controlPoint();
                        throw new IllegalStateException("boom");
                    } finally {
                        QoS.exit();
                    }
                } finally {
                    QoS.exit();
                }
            } catch (IllegalStateException e) {
                seen.set(e);
            }
            depthAfter[0] = Configs.depth();
        });
        t.start();
        t.join(5_000);
        assertThat(seen.get()).hasMessage("boom");
        assertThat(depthAfter[0]).isZero();
        assertThat(t.getPriority()).isIn(Thread.NORM_PRIORITY, -1, 0); // dead threads may report anything
        assertQuiet(s);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void interruptWhileWaitingLetsTheThreadGoOnWithItsStatus(String policy) throws InterruptedException {
        Scheduler s = Scheduler.install(Configs.config(policy, 0));
        List<Worker> early = start(2, "early-");
        awaitProgress(early);
        QoS.enter("collect");
        List<Worker> late = start(2, "late-");
        await().pollDelay(Duration.ofMillis(50)).atMost(Duration.ofSeconds(5)).until(() ->
                late.stream().allMatch(w -> w.passes.get() > 0 || w.parkedInScheduler()));
        List<Worker> all = new ArrayList<>(early);
        all.addAll(late);
        for (Worker w : all) {
            w.thread.interrupt();
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> all.stream().allMatch(w -> w.done));
        assertThat(all).allSatisfy(w -> assertThat(w.interruptSeenAfterControlPoint).isTrue());
        assertSane(s.stats(), policy);
        assertThat(s.stats().suspendedThreads()).isZero();
        QoS.exit();
        assertQuiet(s);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void randomNestingStaysBalanced(String policy) throws InterruptedException {
        Scheduler s = Scheduler.install(Configs.config(policy, 1));
        String[] names = {"collect", "chart", "update", "unknown"};
        List<Thread> ts = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            long seed = i;
            Thread t = new Thread(() -> {
                Random r = new Random(seed);
                for (int round = 0; round < 40; round++) {
                    int depth = 1 + r.nextInt(3);
                    for (int d = 0; d < depth; d++) {
                        QoS.enter(names[r.nextInt(names.length)]);
                        QoS.controlPoint();
                    }
                    for (int d = 0; d < depth; d++) {
                        QoS.controlPoint();
                        QoS.exit();
                    }
                }
                if (Configs.depth() != 0 || Thread.currentThread().getPriority() != Thread.NORM_PRIORITY) {
                    synchronized (failures) {
                        failures.add(new AssertionError(Thread.currentThread().getName() + " unbalanced"));
                    }
                }
            }, "nest-" + i);
            ts.add(t);
            t.start();
        }
        for (Thread t : ts) {
            t.join(10_000);
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(failures).isEmpty();
        assertQuiet(s);
    }

    @ParameterizedTest
    @MethodSource("policies")
    void replacingThePolicyReleasesEveryone(String policy) throws InterruptedException {
        Scheduler s1 = Scheduler.install(Configs.config(policy, 0));
        List<Worker> early = start(2, "early-");
        awaitProgress(early);
        QoS.enter("collect");
        List<Worker> late = start(1, "late-");
        await().pollDelay(Duration.ofMillis(30)).atMost(Duration.ofSeconds(5))
                .until(() -> late.get(0).thread.getState() != Thread.State.NEW);
        Set<String> others = Policies.builtInNames();
        String next = others.stream().filter(n -> !n.equals(policy)).findFirst().orElse(policy);
        Scheduler s2 = Scheduler.install(Configs.config(next, 1));
        List<Worker> all = new ArrayList<>(early);
        all.addAll(late);
        // the old one released everyone; the new one adopted them and this thread's collection,
        // and its own limits decide who runs until the collection ends
        await().atMost(Duration.ofSeconds(5)).until(() -> all.stream()
                .noneMatch(w -> java.util.concurrent.locks.LockSupport.getBlocker(w.thread) == s1.controller));
        assertThat(s2.adopted()).containsEntry("collect", 1);
        QoS.exit(); // reaches the new scheduler: everyone runs
        awaitProgress(all);
        stopAll(all);
        assertQuiet(s2);
    }
}
