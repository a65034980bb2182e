package io.qosweaver.jcstress;

import io.qosweaver.scheduler.core.Controller;
import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.Control;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * A thread told to yield waits in the controller; a release on another thread, at any moment
 * (before the owner began to wait, while it parks, after), must let it go on. Run with the park's
 * safety net at an hour, a lost wake-up leaves the owner stuck.
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "The release woke the waiting owner.")
@Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "Lost wake-up: the owner waits although released.")
@State
public class WakeUpTest {
    private final Controller controller = Machines.controller();

    public WakeUpTest() {
        Machines.locked(controller, m -> m.setLimit(0));
    }

    @Actor
    public void owner() {
        ThreadState t = new ThreadState(Thread.currentThread());
        Machines.locked(controller, m -> m.admit(t)); // limit 0: flagged, unless released already
        controller.await(t);
    }

    @Signal
    public void release() {
        Machines.locked(controller, m -> m.setLimit(Control.UNLIMITED));
    }
}
