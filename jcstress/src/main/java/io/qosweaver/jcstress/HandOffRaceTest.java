package io.qosweaver.jcstress;

import io.qosweaver.scheduler.core.Controller;
import io.qosweaver.scheduler.core.ThreadState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LL_Result;

/**
 * A parked thread promoted while the runner demoted for it is still on its CPU: its wake is handed
 * to that runner. The runner reaching its control point and the successor waking on its own (a
 * safety-net wake-up) race; whatever the order, the successor is woken at most once, is no longer
 * anyone's to wake at the end, and the invariants hold. {@link HandOffTickRaceTest}: the tick instead.
 */
@JCStressTest
@Outcome(id = "OK, runner first, 1 wake", expect = Expect.ACCEPTABLE, desc = "The runner woke the successor, once.")
@Outcome(id = "OK, own wake first, 0 wake", expect = Expect.ACCEPTABLE,
        desc = "The successor woke on its own first: nobody woke it.")
@Outcome(expect = Expect.FORBIDDEN,
        desc = "Woken by the runner after it woke on its own, a dangling hand-off, or a broken invariant.")
@State
public class HandOffRaceTest {
    private final ThreadState runner = new ThreadState(new Thread("runner"));
    private final ThreadState successor = new ThreadState(new Thread("successor"));
    private final Controller controller = Machines.handOffPending(runner, successor);
    /** Whether the successor was still waiting for its wake when it woke on its own (under the lock). */
    private boolean ownWakeFirst;

    @Actor
    public void runnerReachesItsControlPoint() {
        Machines.locked(controller, m -> m.beginWait(runner));
    }

    @Actor
    public void successorWakesOnItsOwn() {
        Machines.locked(controller, m -> {
            ownWakeFirst = successor.wakeDeferred();
            m.awake(successor);
        });
    }

    @Arbiter
    public void check(LL_Result r) {
        String inv = Machines.invariants(controller);
        boolean dangling = successor.wakeDeferred();
        r.r1 = dangling ? "successor still deferred" : inv;
        long wakes = controller.handOffStats().handOffs();
        r.r2 = (ownWakeFirst ? "own wake first, " : "runner first, ") + wakes + " wake";
    }
}
