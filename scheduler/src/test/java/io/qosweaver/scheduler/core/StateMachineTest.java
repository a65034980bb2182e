package io.qosweaver.scheduler.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.scheduler.Policies;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.testing.Configs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The mechanism driven step by step from one thread with several thread records and a fake
 * clock: queue moves, yield flags, order keys, caps, pacing, the suspension-time episode, reaping.
 * Nothing parks here (parking is tested with real threads in the root package's tests).
 */
class StateMachineTest {
    private final Configs.FakeTicker clock = new Configs.FakeTicker();
    private final List<Controller> controllers = new ArrayList<>();

    @AfterEach
    void tearDown() {
        for (Controller c : controllers) {
            c.shutdown();
        }
        assertThat(Pending.value()).as("every flag cleared by shutdown").isZero();
    }

    private Controller controller(String policy, int lowLimit) {
        Policy p = Policies.create(policy, PolicyContext.of(policy, Configs.parameters(policy, lowLimit), clock, w -> {}));
        return controller(p);
    }

    private Controller controller(Policy p) {
        Controller c = Controller.create(p, clock, Configs.riverClasses());
        controllers.add(c);
        return c;
    }

    private static ThreadState state() {
        return new ThreadState(Thread.currentThread());
    }

    private static void enter(Controller c, ThreadState t, String name) {
        Scopes.enter(t, c, name);
    }

    private static void exit(ThreadState t) {
        Scopes.exit(t);
    }

    private static void assertInvariants(Controller c) {
        assertThat(c.machine().checkInvariants()).isNull();
    }

    @Test
    void aPolicysStartLimitHoldsBeforeAnyThreadIsSeen() {
        Policy p = Policies.create("importance", PolicyContext.of("importance", Map.of("lowCap", "2"), clock, w -> {}));
        Controller c = controller(p);
        StateMachine m = c.machine();
        assertThat(m.limit()).as("set by onStart, at creation").isEqualTo(2);
        ThreadState a = state(), b = state(), d = state();
        enter(c, a, "chart");
        enter(c, b, "chart");
        enter(c, d, "chart");
        assertThat(a.yield).isFalse();
        assertThat(b.yield).isFalse();
        assertThat(d.yield).as("the third low thread, with no high one anywhere").isTrue();
        exit(d);
        exit(b);
        exit(a);
        assertInvariants(c);
    }

    @Test
    void highEntryFlagsAllButLimitAndHighExitClearsThem() {
        Controller c = controller("importance", 1);
        StateMachine m = c.machine();
        ThreadState a = state(), b = state(), d = state(), h = state();
        enter(c, a, "chart");
        enter(c, b, "chart");
        enter(c, d, "chart");
        assertThat(m.runQueueSize()).isEqualTo(3);
        int pendingBefore = Pending.value();

        enter(c, h, "collect");
        assertThat(m.limit()).isEqualTo(1);
        // the oldest runner keeps its slot; the newer ones are told to yield
        assertThat(a.yield).isFalse();
        assertThat(b.yield).isTrue();
        assertThat(d.yield).isTrue();
        assertThat(Pending.value() - pendingBefore).isEqualTo(2);
        assertInvariants(c);

        exit(h);
        assertThat(m.limit()).isEqualTo(Control.UNLIMITED);
        assertThat(b.yield || d.yield).isFalse();
        assertThat(m.runQueueSize()).isEqualTo(3);
        assertThat(Pending.value()).isEqualTo(pendingBefore);
        exit(a);
        exit(b);
        exit(d);
        assertThat(m.runQueueSize()).isZero();
        assertInvariants(c);
    }

    @Test
    void lowExitHandsItsSlotToTheWaiterWithTheSmallestKey() {
        Controller c = controller("importance", 1);
        ThreadState h = state(), a = state(), b = state(), d = state();
        enter(c, h, "collect");
        enter(c, a, "chart");
        enter(c, b, "chart");
        enter(c, d, "chart");
        assertThat(a.yield).isFalse();
        assertThat(b.yield).isTrue();
        assertThat(d.yield).isTrue();
        exit(a);
        assertThat(b.yield).isFalse(); // FIFO: admitted before d
        assertThat(d.yield).isTrue();
        assertThat(c.machine().runQueueSize()).isEqualTo(1);
        exit(h);
        assertThat(d.yield).isFalse();
        exit(b);
        exit(d);
        assertInvariants(c);
    }

    @Test
    void suspensionTimeIsMeasuredFromHighEntryUntilRunningLowIsWithinLimit() {
        Controller c = controller("importance", 1);
        StateMachine m = c.machine();
        ThreadState a = state(), b = state(), d = state(), h = state();
        enter(c, a, "chart");
        enter(c, b, "chart");
        enter(c, d, "chart");
        enter(c, h, "collect");             // episode starts; 3 executing > 1
        clock.advanceMillis(7);
        exit(d);                            // 2 executing
        assertThat(m.suspensionTimes.snapshot()[0]).isZero();
        clock.advanceMillis(5);
        exit(b);                            // 1 executing: within the limit after 12 ms
        long[] s = m.suspensionTimes.snapshot();
        assertThat(s[0]).isEqualTo(1);
        assertThat(s[2]).isEqualTo(12_000_000L);
        exit(h);

        enter(c, h, "collect");             // already within: recorded as 0
        s = m.suspensionTimes.snapshot();
        assertThat(s[0]).isEqualTo(2);
        assertThat(s[3]).isZero();          // p50 of {0, 12ms}
        assertThat(s[4]).isEqualTo(12_000_000L);
        exit(h);
        exit(a);
    }

    @Test
    void nestedAndReentrantScopesKeepTheHighestRankedRole() {
        Controller c = controller("importance", 1);
        StateMachine m = c.machine();
        ThreadState h = state(), l = state();
        enter(c, l, "chart");
        enter(c, h, "collect");
        enter(c, h, "chart");      // low work inside the high task: still high, not limited
        enter(c, h, "collect");    // re-entrant
        assertThat(h.role.name()).isEqualTo("collect");
        assertThat(m.limit()).isEqualTo(1);
        exit(h);
        exit(h);
        assertThat(m.limit()).isEqualTo(1);
        exit(h);
        assertThat(m.limit()).isEqualTo(Control.UNLIMITED);
        // a low thread entering a normal class inside stays low
        enter(c, l, "update");
        assertThat(l.role.name()).isEqualTo("chart");
        exit(l);
        exit(l);
        assertThat(l.role).isNull();
        exit(l);  // unbalanced: no-op
        assertThat(l.depth).isZero();
        assertThat(m.runQueueSize()).isZero();
    }

    @Test
    void unknownClassNamesKeepExitsBalanced() {
        Controller c = controller("importance", 1);
        ThreadState l = state();
        enter(c, l, "chart");
        enter(c, l, "no-such-class");
        assertThat(l.role.name()).isEqualTo("chart");
        exit(l);
        assertThat(l.role.name()).isEqualTo("chart");
        exit(l);
        assertThat(l.role).isNull();
    }

    @Test
    void deadThreadsAreReapedAndFreeTheirSlot() throws Exception {
        Controller c = controller("importance", 1);
        Thread dead = new Thread(() -> {});
        dead.start();
        dead.join();
        ThreadState ghost = new ThreadState(dead), h = state(), w = state();
        enter(c, h, "collect");
        enter(c, ghost, "chart");  // holds the only slot, then "dies" in its scope
        enter(c, w, "chart");
        assertThat(w.yield).isTrue();
        clock.advanceMillis(200);  // past the reap interval: the next decision reaps
        ThreadState other = state();
        enter(c, other, "update");   // unobserved: takes no lock, reaps nothing
        assertThat(w.yield).isTrue();
        c.stats(0, 0);               // a decision point
        assertThat(w.yield).isFalse();
        assertThat(ghost.role).isNull();
        assertThat(c.machine().runQueueSize()).isEqualTo(1);
        exit(w);
        exit(h);
        exit(other);
        assertInvariants(c);
    }

    /** Fails without the fix: the reaper's policy exception used to abort the caller's own change. */
    @Test
    void aPolicyExceptionDuringReapingNeverReachesTheThreadWhoseDecisionReaped() throws Exception {
        List<String> seen = new ArrayList<>();
        Controller c = controller(new Policy() {
            @Override public String name() { return "throws-on-death"; }
            @Override public int rank(TaskClassSpec s) { return s.name().equals("update") ? 0 : 1; }
            @Override public void onRoleChange(Control ctl, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
                seen.add(cause + " " + (from == null ? "-" : from.name()) + ">" + (to == null ? "-" : to.name()));
                if (cause == Cause.DEATH) {
                    throw new IllegalStateException("policy bug on death");
                }
                if (to != null) {
                    ctl.admit(t);
                }
            }
        });
        Thread dead = new Thread(() -> {});
        dead.start();
        dead.join();
        ThreadState ghost = new ThreadState(dead), me = state();
        enter(c, ghost, "chart");
        clock.advanceMillis(200);
        long errors = InternalErrors.count();
        enter(c, me, "collect"); // reaps the ghost first, whose callback throws
        assertThat(me.role.name()).as("the caller's own role change happened").isEqualTo("collect");
        assertThat(c.machine().runQueueSize()).as("the ghost released, the caller admitted").isEqualTo(1);
        assertThat(ghost.queue).isEqualTo(ThreadState.NONE);
        assertThat(InternalErrors.count()).isEqualTo(errors + 1);
        assertThat(seen).containsExactly("SCOPE ->chart", "DEATH chart>-", "SCOPE ->collect");
        exit(me);
    }

    /** What a policy defers past the lock runs on the thread, lock released, with its slot; a throw stays inside. */
    @Test
    void afterAScopeChangeThePolicyRunsOnTheThreadOutsideTheLockAndItsExceptionNeverReachesTheApp() {
        List<String> seen = new ArrayList<>();
        Controller[] cs = new Controller[1];
        cs[0] = controller(new Policy() {
            @Override public String name() { return "defers"; }
            @Override public int rank(TaskClassSpec s) { return 1; }
            @Override public void onRoleChange(Control ctl, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
                t.setSlot((to == null ? "-" : to.name()) + " decided");
                if (to != null) {
                    ctl.admit(t);
                }
            }
            @Override public void afterScopeChange(ThreadView t, Object slot) {
                seen.add(slot + (cs[0].lockHeldByCurrentThread() ? " under the lock" : " after it")
                        + (t.thread() == Thread.currentThread() ? " on the thread" : " elsewhere"));
                if ("- decided".equals(slot)) {
                    throw new IllegalStateException("policy bug after the change");
                }
            }
        });
        ThreadState me = state();
        long errors = InternalErrors.count();
        enter(cs[0], me, "chart");
        exit(me);
        assertThat(seen).containsExactly("chart decided after it on the thread", "- decided after it on the thread");
        assertThat(me.role).as("the exit happened").isNull();
        assertThat(InternalErrors.count()).isEqualTo(errors + 1);
        assertInvariants(cs[0]);
    }

    /** Before a scope change the policy runs on the thread, before the lock, with the classes it will be told of. */
    @Test
    void beforeAScopeChangeThePolicyRunsOnTheThreadBeforeTheLockAndItsExceptionNeverReachesTheApp() {
        List<String> seen = new ArrayList<>();
        Controller[] cs = new Controller[1];
        cs[0] = controller(new Policy() {
            @Override public String name() { return "raises"; }
            @Override public int rank(TaskClassSpec s) { return 1; }
            @Override public void onRoleChange(Control ctl, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
                seen.add("decided " + (from == null ? "-" : from.name()) + ">" + (to == null ? "-" : to.name()));
            }
            @Override public void beforeScopeChange(ThreadView t, TaskClass from, TaskClass to) {
                seen.add("before " + (from == null ? "-" : from.name()) + ">" + (to == null ? "-" : to.name())
                        + (cs[0].lockHeldByCurrentThread() ? " under the lock" : " outside it")
                        + (t.thread() == Thread.currentThread() ? " on the thread" : " elsewhere"));
                if (to == null) {
                    throw new IllegalStateException("policy bug before the change");
                }
            }
        });
        ThreadState me = state();
        long errors = InternalErrors.count();
        enter(cs[0], me, "chart");
        exit(me);
        assertThat(seen).containsExactly("before ->chart outside it on the thread", "decided ->chart",
                "before chart>- outside it on the thread", "decided chart>-");
        assertThat(me.role).as("the exit happened despite the throw").isNull();
        assertThat(InternalErrors.count()).isEqualTo(errors + 1);
        assertInvariants(cs[0]);
    }

    /** Around a wait the policy runs on the thread, outside the lock, once each way, whatever ends the wait. */
    @Test
    void aroundAWaitThePolicyRunsOnTheThreadOutsideTheLockAndItsExceptionNeverReachesTheApp() {
        List<String> seen = new ArrayList<>();
        Controller[] cs = new Controller[1];
        cs[0] = controller(new Policy() {
            @Override public String name() { return "lends"; }
            @Override public int rank(TaskClassSpec s) { return 1; }
            @Override public void onRoleChange(Control ctl, ThreadView t, TaskClass from, TaskClass to, Cause cause) { }
            @Override public void beforeWait(ThreadView t) {
                seen.add("before" + where(t));
                throw new IllegalStateException("policy bug before the wait");
            }
            @Override public void afterWait(ThreadView t) {
                seen.add("after" + where(t));
                throw new IllegalStateException("policy bug after the wait");
            }
            private String where(ThreadView t) {
                return (cs[0].lockHeldByCurrentThread() ? " under the lock" : " outside it")
                        + (t.thread() == Thread.currentThread() ? " on the thread" : " elsewhere");
            }
        });
        ThreadState me = state();
        enter(cs[0], me, "chart");
        assertThat(seen).as("no wait, no call").isEmpty();
        long errors = InternalErrors.count();
        cs[0].await(me); // released meanwhile (never flagged): the wait ends at once, under the lock
        assertThat(seen).containsExactly("before outside it on the thread", "after outside it on the thread");
        assertThat(InternalErrors.count()).isEqualTo(errors + 2);
        exit(me);
        assertInvariants(cs[0]);
    }

    @Test
    void admissionRunnersDrainAndTheEpisodeLastsUntilTheyHave() {
        Controller c = controller("admission", 1);
        StateMachine m = c.machine();
        TaskClassState chart = m.classOrUnknown("chart"), collect = m.classOrUnknown("collect");
        ThreadState a = state(), b = state(), late = state(), h = state();
        int pending = Pending.value();
        Scopes.moveRole(a, chart);
        Scopes.moveRole(b, chart);
        Scopes.moveRole(h, collect);
        // nobody preempted: both runners keep running, over the limit of 1
        assertThat(a.yield || b.yield).isFalse();
        assertThat(m.runQueueSize()).isEqualTo(2);
        assertThat(m.limit()).isEqualTo(1);
        // a newcomer waits, at entry, without sending control points down the slow path
        Scopes.moveRole(late, chart);
        assertThat(late.yield).isTrue();
        assertThat(late.atEntry).isTrue();
        assertThat(Pending.value()).isEqualTo(pending);
        clock.advanceMillis(30);
        Scopes.moveRole(a, null); // 1 runner left: not fewer than lowLimit, still waiting
        assertThat(late.yield).isTrue();
        // but the running low threads are within the limit now: the episode ends here
        assertThat(m.suspensionTimes.snapshot()[0]).isEqualTo(1);
        clock.advanceMillis(20);
        Scopes.moveRole(b, null); // 0 runners: late admitted
        assertThat(late.yield).isFalse();
        assertThat(late.atEntry).isFalse();
        assertThat(m.runQueueSize()).isEqualTo(1);
        long[] t = m.suspensionTimes.snapshot();
        assertThat(t[0]).isEqualTo(1);
        assertThat(t[2]).as("suspension time: until running low threads were within the limit")
                .isEqualTo(30_000_000L);
        Scopes.moveRole(h, null);
        Scopes.moveRole(late, null);
        assertThat(m.runQueueSize()).isZero();
        assertThat(Pending.value()).isEqualTo(pending);
    }

    @Test
    void thePeakOfThreadsWaitingAtEntryIsKeptUntilTakenThenRestartsAtTheCountNow() {
        Controller c = controller("admission", 1);
        StateMachine m = c.machine();
        TaskClassState chart = m.classOrUnknown("chart"), collect = m.classOrUnknown("collect");
        ThreadState a = state(), b = state(), h = state(), w1 = state(), w2 = state(), w3 = state();
        Scopes.moveRole(a, chart);
        Scopes.moveRole(b, chart);
        Scopes.moveRole(h, collect); // the limit of 1 from now on; a and b keep running
        assertThat(c.takeAtEntryPeak()).as("runners, nobody waiting").isZero();
        Scopes.moveRole(w1, chart);
        Scopes.moveRole(w2, chart);
        Scopes.moveRole(w3, chart);
        assertThat(w1.atEntry && w2.atEntry && w3.atEntry).isTrue();
        Scopes.moveRole(a, null);
        Scopes.moveRole(b, null); // one admitted: two still wait
        ThreadState admitted = !w1.atEntry ? w1 : !w2.atEntry ? w2 : w3;
        Scopes.moveRole(admitted, null); // the next admitted: one waits
        assertThat(List.of(w1, w2, w3).stream().filter(t -> t.atEntry).count()).isEqualTo(1);
        assertThat(c.takeAtEntryPeak()).as("three waited at once, though one waits now").isEqualTo(3);
        assertThat(c.takeAtEntryPeak()).as("the next period starts at the count now").isEqualTo(1);
        for (ThreadState t : List.of(w1, w2, w3)) {
            if (t != admitted) {
                Scopes.moveRole(t, null);
            }
        }
        assertThat(c.takeAtEntryPeak()).isEqualTo(1);
        assertThat(c.takeAtEntryPeak()).isZero();
        Scopes.moveRole(h, null);
        assertInvariants(c);
    }

    /** A policy that admits every observed thread and lets the test drive the Control. */
    private static final class Admitting implements Policy {
        Control control;

        @Override public String name() { return "admitting"; }
        @Override public int rank(TaskClassSpec s) { return s.name().equals("update") ? 0 : 1; }
        @Override public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
            control = c;
            if (from != null) {
                c.release(t);
            }
            if (to != null) {
                c.admit(t);
            }
        }
    }

    @Test
    void capsLimitOneClassAndPromotionSkipsWaitersOfAFullClass() {
        Admitting p = new Admitting();
        Controller c = controller(p);
        StateMachine m = c.machine();
        TaskClassState chart = m.classOrUnknown("chart"), collect = m.classOrUnknown("collect");
        ThreadState c1 = state(), c2 = state(), c3 = state(), k1 = state();
        enter(c, c1, "chart");
        enter(c, c2, "chart");
        enter(c, c3, "chart");
        c.locked(() -> {
            m.setCap(chart, 1); // preempts the two most recent chart runners
            return null;
        });
        assertThat(c1.yield).isFalse();
        assertThat(c2.yield).isTrue();
        assertThat(c3.yield).isTrue();
        assertThat(m.running(chart)).isEqualTo(1);
        assertThat(m.cap(chart)).isEqualTo(1);
        assertInvariants(c);
        enter(c, k1, "collect"); // another class: runs although chart threads wait
        assertThat(k1.yield).isFalse();
        assertThat(m.running(collect)).isEqualTo(1);
        c.locked(() -> {
            m.setLimit(2); // full: collect 1 + chart 1
            return null;
        });
        exit(k1); // a free slot, but the only waiters are of the capped class
        assertThat(c2.yield).isTrue();
        assertInvariants(c);
        exit(c1); // the chart slot frees: the waiter with the smallest key gets it
        assertThat(c2.yield).isFalse();
        assertThat(c3.yield).isTrue();
        c.locked(() -> {
            m.setCap(chart, Control.UNLIMITED);
            return null;
        });
        assertThat(c3.yield).isFalse();
        assertThatThrownBy(() -> m.setCap(new TaskClassState("x", Map.of(), 1, 0, null), 1))
                .isInstanceOf(IllegalArgumentException.class);
        exit(c2);
        exit(c3);
        assertInvariants(c);
    }

    @Test
    void aSmallerKeyPreemptsTheRunnerWithTheLargestKeyAsMtrLsMovesToTheRear() {
        Admitting p = new Admitting();
        Controller c = controller(p);
        StateMachine m = c.machine();
        ThreadState a = state(), b = state(), d = state();
        enter(c, a, "chart");
        enter(c, b, "chart");
        c.locked(() -> {
            m.setLimit(2);
            return null;
        });
        enter(c, d, "chart"); // waits: the limit is full
        assertThat(d.yield).isTrue();
        c.locked(() -> {
            m.setOrder(a, 100); // a used up its quantum: a later time stamp, moved to the rear
            return null;
        });
        // d (key 3) is now ahead of a (key 100): they swap
        assertThat(a.yield).isTrue();
        assertThat(d.yield).isFalse();
        assertThat(b.yield).isFalse();
        assertInvariants(c);
        c.locked(() -> {
            m.setOrder(a, 1); // ahead of everyone again: the largest runner (d) yields
            return null;
        });
        assertThat(a.yield).isFalse();
        assertThat(d.yield).isTrue();
        assertThat(a.order()).isEqualTo(1);
        assertInvariants(c);
        exit(a);
        exit(b);
        exit(d);
    }

    @Test
    void pacingDelaysAPromotedParkedThreadButNotAReleasedOne() {
        Admitting p = new Admitting();
        Controller c = controller(p);
        StateMachine m = c.machine();
        TaskClassState chart = m.classOrUnknown("chart");
        ThreadState a = state(), b = state();
        enter(c, a, "chart");
        enter(c, b, "chart");
        c.locked(() -> {
            m.setPacing(chart, 100_000_000L);
            m.setLimit(1);
            assertThat(m.beginWait(b)).as("b parks").isTrue();
            m.setLimit(2); // promotes b: woken, paced
            return null;
        });
        assertThat(b.parked).isFalse();
        assertThat(b.resumeAt).isEqualTo(clock.now + 100_000_000L);
        b.resumeAt = 0;
        c.locked(() -> {
            m.setLimit(1);
            assertThat(m.beginWait(b)).isTrue();
            m.release(b); // taken out of control: no pacing
            return null;
        });
        assertThat(b.resumeAt).isZero();
        exit(a);
        exit(b);
    }

    @Test
    void aReleaseFollowedByADemotionLeavesTheOwnerToBeginANewCountedWait() {
        Controller c = controller("importance", 0);
        StateMachine m = c.machine();
        ThreadState h = state(), l = state();
        enter(c, l, "chart");
        enter(c, h, "collect");
        assertThat(c.locked(() -> m.beginWait(l))).isTrue();
        assertThat(m.parkedCount()).isEqualTo(1);
        c.locked(() -> {
            m.setLimit(Control.UNLIMITED); // releases: the wait ends, the owner is woken
            m.setLimit(0);                 // and demoted again at once, before it ran
            return null;
        });
        assertThat(l.parked).as("the first wait ended").isFalse();
        assertThat(l.yield).as("flagged again").isTrue();
        assertThat(m.parkedCount()).isZero();
        assertThat(m.executingControlled()).as("counted as executing until it parks again").isEqualTo(1);
        assertThat(c.locked(() -> m.beginWait(l))).as("the woken owner begins a new wait").isTrue();
        assertThat(m.parkedCount()).isEqualTo(1);
        assertInvariants(c);
        exit(h);
        assertThat(l.parked).isFalse();
        exit(l);
    }
}
