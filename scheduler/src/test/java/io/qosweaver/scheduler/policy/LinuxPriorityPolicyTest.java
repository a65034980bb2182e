package io.qosweaver.scheduler.policy;

import io.qosweaver.scheduler.QoS;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.SchedulerConfig;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.stats.PriorityReport;
import io.qosweaver.scheduler.stats.PrometheusText;
import io.qosweaver.scheduler.testing.Configs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.platform.ProcThreadStat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Linux priority scheduling (paper 5.1) against a fake NativeThreads, and the /proc fallback. */
class LinuxPriorityPolicyTest {

    /** Gives each Java thread a fake tid and records nice values; can refuse raising (EPERM). */
    static final class FakeNative implements NativeThreads {
        final Map<Integer, Integer> nice = new ConcurrentHashMap<>();
        final List<String> calls = java.util.Collections.synchronizedList(new ArrayList<>());
        final AtomicInteger nextTid = new AtomicInteger(1000);
        final ThreadLocal<Integer> tid = ThreadLocal.withInitial(nextTid::incrementAndGet);
        volatile boolean canRaise = true;
        /** Runs inside {@link #setNice} before the value is set (thread id, value); null: nothing. */
        volatile java.util.function.BiConsumer<Integer, Integer> onSet;

        @Override public boolean available() { return true; }
        @Override public String unavailableReason() { return null; }
        @Override public int currentNativeThreadId() { return tid.get(); }

        @Override
        public void setNice(int t, int n) throws NativePriorityException {
            java.util.function.BiConsumer<Integer, Integer> hook = onSet;
            if (hook != null) {
                hook.accept(t, n);
            }
            int old = nice.getOrDefault(t, 0);
            if (n < old && !canRaise) {
                throw new NativePriorityException("Operation not permitted", NativePriorityException.EPERM);
            }
            nice.put(t, n);
            calls.add(t + ":" + n);
        }

        @Override public int getNice(int t) { return nice.getOrDefault(t, 0); }

        /** Runs inside {@link #setIdle} before the policy is set (thread id, on); null: nothing. */
        volatile java.util.function.BiConsumer<Integer, Boolean> onIdle;
        /** Threads in SCHED_IDLE; leaving it is refused as raising the nice value is. */
        final Map<Integer, Boolean> idle = new ConcurrentHashMap<>();

        @Override
        public void setIdle(int t, boolean on) throws NativePriorityException {
            java.util.function.BiConsumer<Integer, Boolean> hook = onIdle;
            if (hook != null) {
                hook.accept(t, on);
            }
            if (!on && idle.getOrDefault(t, false) && !canRaise) {
                throw new NativePriorityException("Operation not permitted", NativePriorityException.EPERM);
            }
            idle.put(t, on);
            calls.add(t + ":" + (on ? "idle" : "other"));
        }

        @Override public boolean isIdle(int t) { return idle.getOrDefault(t, false); }
    }

    private final FakeNative fake = new FakeNative();

    @AfterEach
    void tearDown() {
        Scheduler.uninstall();
        NativeThreads.register(null);
        ThreadStates.removeForTests();
    }

    private Scheduler install(Map<String, String> params) {
        NativeThreads.register(fake);
        return Scheduler.install(new SchedulerConfig(Configs.config("linux-priority", 1).taskClasses(),
                new SchedulerConfig.PolicySpec("linux-priority", params)));
    }

    @Test
    void niceMinus20ForHigh19ForLowZeroAfterwards() {
        Scheduler s = install(Map.of());
        fake.calls.clear(); // the probe's own calls
        int me = fake.currentNativeThreadId();
        QoS.enter("chart");
        assertThat(fake.getNice(me)).isEqualTo(19);
        QoS.enter("collect");
        assertThat(fake.getNice(me)).isEqualTo(-20);
        QoS.exit();
        QoS.exit();
        assertThat(fake.getNice(me)).isZero();
        assertThat(fake.calls).containsExactly(me + ":19", me + ":-20", me + ":19", me + ":0");
        PriorityReport r = s.stats().priority();
        assertThat(r.effective()).isTrue();
        assertThat(r.mechanism()).isEqualTo("linux-nice");
        assertThat(r.changes()).isEqualTo(4);
        assertThat(s.stats().yields()).isZero();
    }

    @Test
    void parametersChangeTheNiceValuesAndAreValidated() {
        install(Map.of("highNice", "-5", "lowNice", "10"));
        int me = fake.currentNativeThreadId();
        QoS.enter("collect");
        assertThat(fake.getNice(me)).isEqualTo(-5);
        QoS.exit();
        assertThatThrownBy(() -> LinuxPriorityPolicy.create(Views.context("linux-priority", Map.of("lowNice", "20"), fake)))
                .hasMessageContaining("[-20, 19]")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowNice");
        assertThatThrownBy(() -> LinuxPriorityPolicy.create(Views.context("linux-priority", Map.of("nice", "1"), fake)))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.nice");
    }

    @Test
    void withoutPermissionToRaiseItChangesNothingAndSaysWhy() {
        fake.canRaise = false;
        Scheduler s = install(Map.of());
        int me = fake.currentNativeThreadId();
        QoS.enter("chart"); // lowering would work, but could never be undone: not done either
        assertThat(fake.getNice(me)).isZero();
        QoS.exit();
        PriorityReport r = s.stats().priority();
        assertThat(r.effective()).isFalse();
        assertThat(r.reason()).startsWith("EPERM").contains("CAP_SYS_NICE");
        assertThat(PrometheusText.render(s.stats())).contains("qosweaver_priority_effective{mechanism=\"linux-nice\",reason=\"EPERM");
    }

    @Test
    void permissionLostLaterDisablesItAndCountsTheFailure() {
        Scheduler s = install(Map.of());
        fake.canRaise = false;
        QoS.enter("collect");
        QoS.exit();
        PriorityReport r = s.stats().priority();
        assertThat(r.failures()).isEqualTo(1);
        assertThat(r.effective()).isFalse();
    }

    @Test
    void uninstallResetsThreadsStillInsideAScope() throws Exception {
        install(Map.of());
        int[] tid = {0};
        java.util.concurrent.CountDownLatch in = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch out = new java.util.concurrent.CountDownLatch(1);
        Thread t = new Thread(() -> {
            QoS.enter("chart");
            tid[0] = fake.currentNativeThreadId();
            in.countDown();
            try {
                out.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            QoS.exit();
        });
        t.start();
        in.await();
        assertThat(fake.getNice(tid[0])).isEqualTo(19);
        Scheduler.uninstall();
        assertThat(fake.getNice(tid[0])).isZero();
        out.countDown();
        t.join(5_000);
    }

    @Test
    void theFallbackReadsProcButCannotSetAndThePolicySaysSo() throws Exception {
        NativeThreads fb = NativeThreads.get();
        assertThat(fb.available()).isFalse();
        assertThat(fb.unavailableReason()).contains("no native implementation registered");
        if (new java.io.File("/proc/thread-self").exists()) {
            int tid = fb.currentNativeThreadId();
            assertThat(tid).isPositive();
            assertThat(ProcThreadStat.nice(tid)).isBetween(-20, 19);
        }
        assertThatThrownBy(() -> fb.setNice(1, 0)).isInstanceOf(NativePriorityException.class);
        Scheduler s = Scheduler.install(Configs.config("linux-priority", 1));
        assertThat(s.stats().priority().effective()).isFalse();
        assertThat(s.stats().priority().reason()).contains("no native implementation registered");
    }
}
