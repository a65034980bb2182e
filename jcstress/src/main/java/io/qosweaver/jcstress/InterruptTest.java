package io.qosweaver.jcstress;

import io.qosweaver.scheduler.core.Controller;
import io.qosweaver.scheduler.core.ThreadState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/** An interrupt, at any moment of the wait, ends it: the application sees its interrupt at once. */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = Expect.ACCEPTABLE, desc = "The interrupt ended the wait.")
@Outcome(id = "STALE", expect = Expect.FORBIDDEN, desc = "The interrupted owner still waits.")
@State
public class InterruptTest {
    private final Controller controller = Machines.controller();
    private volatile Thread owner;

    public InterruptTest() {
        Machines.locked(controller, m -> m.setLimit(0));
    }

    @Actor
    public void owner() {
        ThreadState t = new ThreadState(Thread.currentThread());
        Machines.locked(controller, m -> m.admit(t));
        owner = Thread.currentThread();
        controller.await(t);
        Thread.interrupted(); // leave the harness's thread as it was
    }

    @Signal
    public void interrupt() {
        Thread t;
        while ((t = owner) == null) {
            Thread.onSpinWait();
        }
        t.interrupt();
    }
}
