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
 * Concurrent admit, release and setLimit on one run/wait-queue machine: a runner leaves (its slot
 * goes to the waiter) while the limit drops to 0 (everyone is demoted) and then a newcomer arrives. In every
 * order the machine's invariants hold and the queues end the same: a gone, b and c waiting.
 */
@JCStressTest
@Outcome(id = "OK, run=0 wait=2 flags=-YY", expect = Expect.ACCEPTABLE,
        desc = "Every order ends with a released, b and c waiting (b ahead of c).")
@Outcome(expect = Expect.FORBIDDEN, desc = "A broken invariant or impossible queues.")
@State
public class QueueRaceTest {
    private final Controller controller = Machines.controller();
    private final ThreadState a = named("a"), b = named("b"), c = named("c");

    public QueueRaceTest() {
        Machines.locked(controller, m -> {
            m.setLimit(1);
            m.admit(a); // runs
            m.admit(b); // waits
        });
    }

    private static ThreadState named(String name) {
        return new ThreadState(new Thread(name));
    }

    @Actor
    public void runnerLeaves() {
        Machines.locked(controller, m -> m.release(a));
    }

    /** Two decisions, so the release can fall before, between or after them (two CPUs: two actors). */
    @Actor
    public void limitDropsThenANewcomer() {
        Machines.locked(controller, m -> m.setLimit(0));
        Machines.locked(controller, m -> m.admit(c));
    }

    @Arbiter
    public void check(LL_Result r) {
        r.r1 = Machines.invariants(controller);
        r.r2 = controller.locked(() -> "run=" + controller.machine().runQueueSize()
                + " wait=" + controller.machine().waitQueueSize()
                + " flags=" + flag(a) + flag(b) + flag(c));
    }

    private static char flag(ThreadState t) {
        return t.yieldFlag() ? 'Y' : '-';
    }
}
