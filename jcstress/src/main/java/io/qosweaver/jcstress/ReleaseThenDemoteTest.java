package io.qosweaver.jcstress;

import io.qosweaver.scheduler.core.Controller;
import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.Control;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * The yield-flag ABA: a release, a new demotion of the same thread before it ran, and a final
 * release, each a separate decision. Wherever the owner is in its wait when they happen, the final
 * release must wake it.
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "The final release woke the owner.")
@Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "The owner re-parked uncounted and missed the final release.")
@State
public class ReleaseThenDemoteTest {
    private final Controller controller = Machines.controller();
    private volatile Thread ownerThread;

    public ReleaseThenDemoteTest() {
        Machines.locked(controller, m -> m.setLimit(0));
    }

    @Actor
    public void owner() {
        ThreadState t = new ThreadState(Thread.currentThread());
        ownerThread = Thread.currentThread();
        Machines.locked(controller, m -> m.admit(t));
        controller.await(t);
        // demoted again after it left its wait: it parks again at its next control point
        controller.await(t);
    }

    @Signal
    public void releaseDemoteRelease() {
        Machines.locked(controller, m -> m.setLimit(Control.UNLIMITED));
        Machines.locked(controller, m -> m.setLimit(0));
        // Give the woken owner time to see its new flag and park again (up to 1 ms): the window in
        // which a protocol that waits on the flag instead of its own wait would miss the release.
        long until = System.nanoTime() + 1_000_000L;
        Thread o;
        while (System.nanoTime() < until
                && ((o = ownerThread) == null || LockSupport.getBlocker(o) != controller)) {
            Thread.onSpinWait();
        }
        Machines.locked(controller, m -> m.setLimit(Control.UNLIMITED));
    }
}
