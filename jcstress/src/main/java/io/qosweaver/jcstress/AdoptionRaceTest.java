package io.qosweaver.jcstress;

import io.qosweaver.scheduler.core.Controller;
import io.qosweaver.scheduler.core.Scopes;
import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LL_Result;

/**
 * Adoption's handshake ({@link Controller#shutdownInto}): the owner leaves its only scope while a
 * new scheduler replaces the one it entered under. Whichever comes first, the role is left exactly
 * once: by the old policy (the exit came first), or adopted by the new one and then left there. A
 * lost exit leaves the new scheduler with a member (or its policy with a role) nobody will leave; a
 * doubled one makes a count negative.
 */
@JCStressTest
@Outcome(id = {"OK, exit first, OK", "OK, adopted then left, OK"}, expect = Expect.ACCEPTABLE,
        desc = "The role left exactly once, under one policy or the other.")
@Outcome(expect = Expect.FORBIDDEN, desc = "A lost or doubled role.")
@State
public class AdoptionRaceTest {
    /** Counts the roles it holds (under its controller's lock). */
    static final class Counting implements Policy {
        int roles;
        int adopted;

        @Override public String name() { return "counting"; }
        @Override public int rank(TaskClassSpec taskClass) { return 1; }

        @Override
        public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
            roles += (to == null ? 0 : 1) - (from == null ? 0 : 1);
            if (cause == Cause.ADOPTED) {
                adopted++;
            }
        }

        @Override
        public void onDetach(ThreadView t, TaskClass role) {
            roles--;
        }
    }

    private final Counting oldPolicy = new Counting(), newPolicy = new Counting();
    private final Controller old = Machines.controller(oldPolicy);
    private final Controller next = Machines.controller(newPolicy);
    private final ThreadState owner = new ThreadState(new Thread("owner"));

    public AdoptionRaceTest() {
        Scopes.enter(owner, old, "work");
    }

    @Actor
    public void ownerExits() {
        Scopes.exit(owner);
    }

    @Actor
    public void replaced() {
        old.shutdownInto(next);
    }

    @Arbiter
    public void check(LL_Result r) {
        String broken = next.locked(() -> {
            int members = next.machine().classOrUnknown("work").members();
            if (members != 0 || owner.role() != null || owner.depth() != 0) {
                return "members=" + members + " role=" + owner.role() + " depth=" + owner.depth();
            }
            return null;
        });
        int oldRoles = old.locked(() -> oldPolicy.roles);
        int newRoles = next.locked(() -> newPolicy.roles);
        int adopted = next.locked(() -> newPolicy.adopted);
        r.r1 = broken != null ? broken
                : oldRoles != 0 || newRoles != 0 ? "roles old=" + oldRoles + " new=" + newRoles
                : adopted == 0 ? "OK, exit first" : "OK, adopted then left";
        r.r2 = Machines.invariants(next);
    }
}
