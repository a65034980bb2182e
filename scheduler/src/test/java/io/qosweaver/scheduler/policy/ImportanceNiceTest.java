package io.qosweaver.scheduler.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qosweaver.platform.NativeThreads;
import io.qosweaver.scheduler.QoS;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.stats.PriorityReport;
import io.qosweaver.scheduler.testing.Configs;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The importance policy's lowNice and highNice, against a fake NativeThreads. */
class ImportanceNiceTest {
    private final LinuxPriorityPolicyTest.FakeNative fake = new LinuxPriorityPolicyTest.FakeNative();

    @AfterEach
    void tearDown() {
        Scheduler.uninstall();
        NativeThreads.register(null);
        ThreadStates.removeForTests();
    }

    private Scheduler install(Map<String, String> params) {
        NativeThreads.register(fake);
        Scheduler s = Scheduler.install(Configs.config("importance", params));
        fake.calls.clear(); // the probe's own calls
        return s;
    }

    @Test
    void aLowThreadRunsAtLowNiceInsideItsScopeAndGetsItsOwnValueBack() {
        Scheduler s = install(Map.of("lowLimit", "1", "lowNice", "19"));
        int me = fake.currentNativeThreadId();
        fake.nice.put(me, 3); // the thread's own value, e.g. a JVM started niced
        QoS.enter("chart");
        assertThat(fake.getNice(me)).isEqualTo(19);
        QoS.exit();
        assertThat(fake.getNice(me)).isEqualTo(3);
        QoS.enter("chart");
        QoS.enter("collect"); // a high scope nested in a low one: the role is high; no highNice, its own value
        assertThat(fake.getNice(me)).isEqualTo(3);
        QoS.exit();
        assertThat(fake.getNice(me)).isEqualTo(19);
        QoS.exit();
        assertThat(fake.calls).containsExactly(me + ":19", me + ":3", me + ":19", me + ":3", me + ":19", me + ":3");
        PriorityReport r = s.stats().priority();
        assertThat(r.effective()).isTrue();
        assertThat(r.reason()).isEqualTo("setpriority: low nice 19");
        assertThat(r.changes()).isEqualTo(6);
    }

    @Test
    void aThreadBornAtLowNiceFromAHeavyThreadGetsTheProcesssValueBackWhateverScopeItEnters() throws Exception {
        install(Map.of("lowLimit", "1", "lowNice", "19"));
        // Linux gives a new thread its creator's value: a pool thread started by a heavy request at 19
        int[] tids = new int[2];
        Thread light = new Thread(() -> {
            tids[0] = fake.currentNativeThreadId();
            fake.nice.put(tids[0], 19);
            QoS.enter("collect"); // a high scope, no highNice: nothing to set, but not 19
            QoS.exit();
        });
        Thread heavy = new Thread(() -> {
            tids[1] = fake.currentNativeThreadId();
            fake.nice.put(tids[1], 19);
            QoS.enter("chart");
            QoS.exit(); // back to the process's value, not to the 19 it was born with
        });
        light.start();
        light.join();
        heavy.start();
        heavy.join();
        assertThat(fake.getNice(tids[0])).isZero();
        assertThat(fake.getNice(tids[1])).isZero();
        assertThat(fake.calls).containsExactly(tids[0] + ":0", tids[1] + ":0");
    }

    @Test
    void lowNiceIdlePutsALowThreadInSchedIdleKeepingItsNiceValueAndTakesItOutWhenItLeaves() {
        Scheduler s = install(Map.of("lowCap", "1x", "lowNice", "idle"));
        int me = fake.currentNativeThreadId();
        fake.nice.put(me, 3);
        QoS.enter("chart");
        assertThat(fake.isIdle(me)).isTrue();
        assertThat(fake.getNice(me)).isEqualTo(3);
        QoS.enter("collect"); // high inside low: out of SCHED_IDLE, its own nice value
        assertThat(fake.isIdle(me)).isFalse();
        QoS.exit();
        QoS.exit();
        assertThat(fake.isIdle(me)).isFalse();
        assertThat(fake.getNice(me)).isEqualTo(3);
        assertThat(fake.calls).containsExactly(me + ":idle", me + ":other", me + ":idle", me + ":other");
        PriorityReport r = s.stats().priority();
        assertThat(r.effective()).isTrue();
        assertThat(r.reason()).isEqualTo("setpriority, sched_setscheduler: low SCHED_IDLE");
    }

    @Test
    void theProbeEntersAndLeavesSchedIdleAndWithoutPermissionToLeaveItNothingChanges() {
        NativeThreads.register(fake);
        Scheduler.install(Configs.config("importance", Map.of("lowNice", "idle")));
        assertThat(fake.calls).hasSize(2);
        assertThat(fake.calls.get(0)).endsWith(":idle");
        assertThat(fake.calls.get(1)).endsWith(":other");
        Scheduler.uninstall();

        fake.calls.clear();
        fake.canRaise = false;
        Scheduler s = Scheduler.install(Configs.config("importance", Map.of("lowNice", "idle")));
        int me = fake.currentNativeThreadId();
        QoS.enter("chart");
        assertThat(fake.isIdle(me)).isFalse();
        QoS.exit();
        assertThat(fake.calls).as("only the probe's").hasSize(1);
        PriorityReport r = s.stats().priority();
        assertThat(r.effective()).isFalse();
        assertThat(r.reason()).startsWith("EPERM").contains("SCHED_IDLE");
    }

    @Test
    void aThreadBornInSchedIdleFromAHeavyThreadIsTakenOutOfItWhateverScopeItEnters() throws Exception {
        install(Map.of("lowCap", "1x", "lowNice", "idle"));
        int[] tid = new int[1];
        Thread light = new Thread(() -> {
            tid[0] = fake.currentNativeThreadId();
            fake.idle.put(tid[0], true); // Linux gives a new thread its creator's policy
            QoS.enter("collect");
            QoS.exit();
        });
        light.start();
        light.join();
        assertThat(fake.isIdle(tid[0])).isFalse();
        assertThat(fake.calls).containsExactly(tid[0] + ":other");
    }

    @Test
    void aValueTheApplicationSetItselfIsKeptThoughTheThreadIsNew() throws Exception {
        install(Map.of("lowLimit", "1", "lowNice", "19"));
        int[] tid = new int[1];
        Thread t = new Thread(() -> {
            tid[0] = fake.currentNativeThreadId();
            fake.nice.put(tid[0], 5); // not one of the policy's values
            QoS.enter("collect");
            QoS.exit();
            QoS.enter("chart");
            QoS.exit();
        });
        t.start();
        t.join();
        assertThat(fake.calls).containsExactly(tid[0] + ":19", tid[0] + ":5");
    }

    @Test
    void highNiceAppliesToHighThreadsAndTheProbeChecksBothEnds() {
        NativeThreads.register(fake);
        Scheduler.install(Configs.config("importance", Map.of("lowNice", "10", "highNice", "-5")));
        // the probe set the highest and the lowest value and went back, on its own thread
        assertThat(fake.calls).hasSize(3);
        assertThat(fake.calls.get(0)).endsWith(":10");
        assertThat(fake.calls.get(1)).endsWith(":-5");
        assertThat(fake.calls.get(2)).endsWith(":0");
        fake.calls.clear();
        int me = fake.currentNativeThreadId();
        QoS.enter("chart");
        assertThat(fake.getNice(me)).isEqualTo(10);
        QoS.enter("collect");
        assertThat(fake.getNice(me)).isEqualTo(-5);
        QoS.exit();
        assertThat(fake.getNice(me)).isEqualTo(10);
        QoS.exit();
        assertThat(fake.getNice(me)).isZero();
    }

    @Test
    void withoutPermissionToUndoItNothingChangesAndItSaysWhy() {
        fake.canRaise = false;
        Scheduler s = install(Map.of("lowLimit", "0", "lowNice", "19"));
        int me = fake.currentNativeThreadId();
        QoS.enter("chart"); // lowering would work, but could never be undone: not done either
        assertThat(fake.getNice(me)).isZero();
        QoS.exit();
        assertThat(fake.calls).isEmpty();
        PriorityReport r = s.stats().priority();
        assertThat(r.effective()).isFalse();
        assertThat(r.reason()).startsWith("EPERM").contains("CAP_SYS_NICE");
    }

    @Test
    void withoutNiceKeysNoPriorityIsTouchedNorReported() {
        Scheduler s = install(Map.of("lowLimit", "1"));
        QoS.enter("chart");
        QoS.exit();
        assertThat(fake.calls).isEmpty();
        assertThat(s.stats().priority()).isNull();
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> ImportancePolicy.create(Views.context("importance", Map.of("lowNice", "20"), fake)))
                .hasMessageContaining("[-20, 19]").hasMessageContaining("or idle")
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.lowNice");
        assertThatThrownBy(() -> ImportancePolicy.create(Views.context("importance", Map.of("highNice", "x"), fake)))
                .extracting(e -> ((PolicyConfigException) e).key()).isEqualTo("policy.highNice");
    }

    /**
     * Fails with the priority set under the scheduler's lock: the other thread's entry then waits for the
     * thread lowering its priority, which the kernel deschedules at once (0.9 s stalls on Fuseki).
     */
    @Test
    void anotherThreadsScopeChangeNeverWaitsForAThreadLoweringItsPriority() throws Exception {
        install(Map.of("lowCap", "1x", "lowNice", "19"));
        boolean[] otherDone = {false};
        fake.onSet = (tid, value) -> {
            if (value != 19) {
                return;
            }
            fake.onSet = null;
            Thread other = new Thread(() -> {
                QoS.enter("collect");
                QoS.exit();
            }, "light");
            other.start();
            try {
                other.join(3_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            otherDone[0] = !other.isAlive();
        };
        QoS.enter("chart");
        QoS.exit();
        assertThat(fake.calls).as("the lowering happened, with the other thread's entry inside it")
                .contains(fake.currentNativeThreadId() + ":19");
        assertThat(otherDone[0]).as("the other thread entered and left its scope meanwhile").isTrue();
    }

    @Test
    void aThreadLeavingALowScopeLeavesSchedIdleBeforeItReleasesTheThreadWaitingForItsPlace() throws Exception {
        Scheduler s = install(Map.of("lowCap", "1", "lowNice", "idle", "suspendAtEntry", "true"));
        int me = fake.currentNativeThreadId();
        QoS.enter("chart"); // the cap's one place, in SCHED_IDLE
        assertThat(fake.isIdle(me)).isTrue();
        Thread second = new Thread(() -> {
            QoS.enter("chart"); // waits at its entry for the place
            QoS.exit();
        }, "second");
        second.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().waitQueueSize() == 1);
        int[] waitingWhenRaised = {-1};
        fake.onIdle = (tid, on) -> {
            if (tid == me && !on) {
                waitingWhenRaised[0] = s.stats().waitQueueSize();
            }
        };
        QoS.exit();
        second.join(5_000);
        assertThat(second.isAlive()).isFalse();
        assertThat(waitingWhenRaised[0]).as("out of SCHED_IDLE while the other thread still waited for the place: "
                + "a normal thread it wakes cannot leave it runnable in SCHED_IDLE behind the low threads").isEqualTo(1);
        assertThat(fake.isIdle(me)).isFalse();
        assertThat(fake.calls).as("one change each way for this thread").containsSubsequence(me + ":idle", me + ":other")
                .filteredOn(c -> c.startsWith(me + ":")).hasSize(2);
    }

    @Test
    void aThreadLeavingALowScopeGetsItsNiceValueBackBeforeItReleasesTheThreadWaitingForItsPlace() throws Exception {
        Scheduler s = install(Map.of("lowCap", "1", "lowNice", "19", "suspendAtEntry", "true"));
        int me = fake.currentNativeThreadId();
        QoS.enter("chart");
        assertThat(fake.getNice(me)).isEqualTo(19);
        Thread second = new Thread(() -> {
            QoS.enter("chart");
            QoS.exit();
        }, "second");
        second.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().waitQueueSize() == 1);
        int[] waitingWhenRaised = {-1};
        fake.onSet = (tid, value) -> {
            if (tid == me && value == 0) {
                waitingWhenRaised[0] = s.stats().waitQueueSize();
            }
        };
        QoS.exit();
        second.join(5_000);
        assertThat(waitingWhenRaised[0]).isEqualTo(1);
        assertThat(fake.getNice(me)).isZero();
    }

    @Test
    void aLowThreadWaitingForItsPlaceIsOutOfSchedIdleWhileItWaitsAndBackInItOnceAdmitted() throws Exception {
        Scheduler s = install(Map.of("lowCap", "1", "lowNice", "idle", "suspendAtEntry", "true"));
        QoS.enter("chart"); // the cap's one place
        int[] second = {0};
        boolean[] idleInside = {false};
        CountDownLatch admitted = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        Thread t = new Thread(() -> {
            second[0] = fake.currentNativeThreadId();
            QoS.enter("chart"); // lowered by the entry, then waits for the place
            idleInside[0] = fake.isIdle(second[0]);
            admitted.countDown();
            try {
                leave.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            QoS.exit();
        }, "second");
        t.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().waitQueueSize() == 1);
        assertThat(fake.isIdle(second[0])).as("out of SCHED_IDLE while it waits: it takes the scheduler's lock to "
                + "park and again when released, and descheduled there it would hold up every scope change").isFalse();
        QoS.exit(); // the place is free
        assertThat(admitted.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(idleInside[0]).as("back in SCHED_IDLE for its task once admitted").isTrue();
        leave.countDown();
        t.join(5_000);
        assertThat(fake.isIdle(second[0])).isFalse();
        assertThat(fake.calls.stream().filter(c -> c.startsWith(second[0] + ":")))
                .as("lowered by the entry, raised for the wait, lowered once admitted, raised by the exit")
                .containsExactly(second[0] + ":idle", second[0] + ":other", second[0] + ":idle", second[0] + ":other");
    }

    @Test
    void aWaitOfAThreadAtItsOwnValueChangesNothingAndEndingOneNeverRaisesOrLowersAnotherSchedulersThread() {
        ThreadNice n = new ThreadNice(fake, "importance", 0, ThreadNice.IDLE, w -> { }).probe("low SCHED_IDLE");
        ThreadNice other = new ThreadNice(fake, "importance", 0, ThreadNice.IDLE, w -> { }).probe("low SCHED_IDLE");
        fake.calls.clear();
        ThreadView view = Views.of(Thread.currentThread());
        int me = fake.currentNativeThreadId();
        n.onRoleChange(view, null, Policy.Cause.SCOPE);
        n.afterScopeChange(view, view.slot()); // seen, at its own value
        n.lendForWait(view);
        n.endWait(view);
        assertThat(fake.calls).as("at its own value: nothing to lend").isEmpty();
        n.onRoleChange(view, ThreadNice.IDLE, Policy.Cause.SCOPE);
        n.afterScopeChange(view, view.slot());
        other.lendForWait(view); // the slot is n's
        assertThat(fake.isIdle(me)).isTrue();
        n.lendForWait(view);
        assertThat(fake.isIdle(me)).isFalse();
        other.endWait(view);
        assertThat(fake.isIdle(me)).as("only the lender takes it back").isFalse();
        n.endWait(view);
        assertThat(fake.isIdle(me)).isTrue();
        n.endWait(view); // a second end: nothing lent any more
        assertThat(fake.calls).containsExactly(me + ":idle", me + ":other", me + ":idle");
    }

    @Test
    void raisingBeforeTheLockNeverLowersAndLeavesAThreadOfAnotherSchedulerAlone() {
        ThreadNice n = new ThreadNice(fake, "importance", 0, ThreadNice.IDLE, w -> { }).probe("low SCHED_IDLE");
        ThreadNice other = new ThreadNice(fake, "importance", 0, ThreadNice.IDLE, w -> { }).probe("low SCHED_IDLE");
        fake.calls.clear();
        int me = fake.currentNativeThreadId();
        io.qosweaver.scheduler.spi.ThreadView view = Views.of(Thread.currentThread());
        n.raiseBefore(view, ThreadNice.IDLE); // never seen: nothing
        n.onRoleChange(view, ThreadNice.IDLE, io.qosweaver.scheduler.spi.Policy.Cause.SCOPE);
        n.raiseBefore(view, ThreadNice.IDLE); // entering low: lowering waits for afterScopeChange
        assertThat(fake.calls).isEmpty();
        n.afterScopeChange(view, view.slot());
        assertThat(fake.calls).containsExactly(me + ":idle");
        other.raiseBefore(view, null); // the slot is n's: another scheduler's policy does not apply it
        assertThat(fake.calls).containsExactly(me + ":idle");
        n.raiseBefore(view, null); // leaving: its own value at once
        assertThat(fake.calls).containsExactly(me + ":idle", me + ":other");
        n.onRoleChange(view, null, io.qosweaver.scheduler.spi.Policy.Cause.SCOPE);
        n.afterScopeChange(view, view.slot()); // already applied: no second call
        assertThat(fake.calls).containsExactly(me + ":idle", me + ":other");
        assertThat(n.report().changes()).isEqualTo(2);
    }

    @Test
    void aChangeIsOnlyNotedUnderTheLockAndNotAppliedOnceTheSchedulerHasDetachedTheThread() {
        ThreadNice n = new ThreadNice(fake, "importance", 0, 19, w -> { }).probe("low nice 19");
        fake.calls.clear();
        int me = fake.currentNativeThreadId();
        io.qosweaver.scheduler.spi.ThreadView view = Views.of(Thread.currentThread());
        n.onRoleChange(view, 19, io.qosweaver.scheduler.spi.Policy.Cause.SCOPE);
        assertThat(fake.calls).as("nothing applied under the lock").isEmpty();
        n.afterScopeChange(view, view.slot());
        assertThat(fake.calls).containsExactly(me + ":19");
        n.onRoleChange(view, null, io.qosweaver.scheduler.spi.Policy.Cause.SCOPE); // leaves: its own value wanted
        n.onRoleChange(view, 19, io.qosweaver.scheduler.spi.Policy.Cause.SCOPE); // and enters again, then
        n.onDetach(view); // the scheduler goes before the thread's deferred change: its own value, for good
        n.afterScopeChange(view, view.slot());
        assertThat(fake.getNice(me)).isZero();
        assertThat(fake.calls).containsExactly(me + ":19", me + ":0");
        assertThat(n.report().changes()).isEqualTo(2);
    }

    @Test
    void uninstallPutsBackTheValueOfAThreadStillInsideAScope() throws Exception {
        install(Map.of("lowNice", "19"));
        int[] tid = {0};
        CountDownLatch in = new CountDownLatch(1);
        CountDownLatch out = new CountDownLatch(1);
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
}
