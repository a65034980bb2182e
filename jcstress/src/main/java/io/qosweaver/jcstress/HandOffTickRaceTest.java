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
 * to that runner. The runner reaching its control point and the tick (which wakes every successor
 * still waiting: the deferral's bound) race; whatever the order, the successor is woken exactly
 * once and the invariants hold.
 */
@JCStressTest
@Outcome(id = "OK, 1", expect = Expect.ACCEPTABLE, desc = "The runner or the tick woke the successor, once.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Woken twice or never, or a broken invariant.")
@State
public class HandOffTickRaceTest {
    private final ThreadState runner = new ThreadState(new Thread("runner"));
    private final ThreadState successor = new ThreadState(new Thread("successor"));
    private final Controller controller = Machines.handOffPending(runner, successor);

    @Actor
    public void runnerReachesItsControlPoint() {
        Machines.locked(controller, m -> m.beginWait(runner));
    }

    @Actor
    public void tick() {
        Machines.locked(controller, m -> m.tick(System.nanoTime()));
    }

    @Arbiter
    public void check(LL_Result r) {
        String inv = Machines.invariants(controller);
        boolean dangling = successor.wakeDeferred();
        r.r1 = dangling ? "successor still deferred" : inv;
        r.r2 = Long.toString(controller.handOffStats().handOffs());
    }
}
