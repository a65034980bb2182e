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
 * The owner of a flagged thread begins its wait while another thread promotes it and demotes it
 * again. Whatever the order, the handshake stays consistent: the owner is parked exactly when the
 * machine counts it parked, and a parked owner is always flagged (so a later release wakes it).
 */
@JCStressTest
@Outcome(id = "OK, parked", expect = Expect.ACCEPTABLE, desc = "The owner began its wait after the demotion.")
@Outcome(id = "OK, woken", expect = Expect.ACCEPTABLE,
        desc = "The owner began its wait first; the promotion woke it and the demotion flagged it again.")
@Outcome(expect = Expect.FORBIDDEN, desc = "Parked without being counted or flagged, or a broken invariant.")
@State
public class DemoteVersusWaitTest {
    private final Controller controller = Machines.controller();
    private final ThreadState owner = new ThreadState(new Thread("owner"));

    public DemoteVersusWaitTest() {
        Machines.locked(controller, m -> {
            m.setLimit(0);
            m.admit(owner); // flagged
        });
    }

    @Actor
    public void ownerBeginsItsWait() {
        Machines.locked(controller, m -> m.beginWait(owner));
    }

    @Actor
    public void promoteThenDemote() {
        Machines.locked(controller, m -> m.setLimit(Control.UNLIMITED));
        Machines.locked(controller, m -> m.setLimit(0));
    }

    @Arbiter
    public void check(LL_Result r) {
        String inv = Machines.invariants(controller);
        boolean parked = owner.parked();
        int counted = controller.locked(() -> controller.machine().parkedCount());
        boolean consistent = (parked ? 1 : 0) == counted && (!parked || owner.yieldFlag()) && owner.yieldFlag();
        r.r1 = consistent ? inv : "inconsistent: parked=" + parked + " counted=" + counted + " flag=" + owner.yieldFlag();
        r.r2 = parked ? "parked" : "woken";
    }
}
