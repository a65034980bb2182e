package io.qosweaver.jcstress;

import io.qosweaver.scheduler.core.Controller;
import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.Control;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LL_Result;

/**
 * A runner leaves its scope (its slot goes to the parked waiter) while the limit is lifted (which
 * releases the waiter too): the waiter is woken exactly once, by whichever comes first, and nobody
 * is left parked, flagged or counted twice.
 */
@JCStressTest
@Outcome(id = "OK, run=1 wait=0 parked=0", expect = Expect.ACCEPTABLE, desc = "The waiter runs, woken once.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A broken invariant, a waiter left parked, or a slot lost.")
@State
public class ExitRacingReleaseTest {
    private final Controller controller = Machines.controller();
    private final ThreadState runner = new ThreadState(new Thread("runner"));
    private final ThreadState waiter = new ThreadState(new Thread("waiter"));

    public ExitRacingReleaseTest() {
        Machines.locked(controller, m -> {
            m.setLimit(1);
            m.admit(runner);
            m.admit(waiter);
            m.beginWait(waiter); // parked at a control point
        });
    }

    @Actor
    public void runnerExits() {
        Machines.locked(controller, m -> m.release(runner));
    }

    @Actor
    public void limitLifted() {
        Machines.locked(controller, m -> m.setLimit(Control.UNLIMITED));
    }

    @Arbiter
    public void check(LL_Result r) {
        r.r1 = Machines.invariants(controller);
        r.r2 = controller.locked(() -> "run=" + controller.machine().runQueueSize()
                + " wait=" + controller.machine().waitQueueSize()
                + " parked=" + controller.machine().parkedCount());
    }
}
