package io.qosweaver.scheduler.core;

import io.qosweaver.scheduler.event.SchedulerEvents;
import io.qosweaver.scheduler.spi.RuntimeShare;

/**
 * The owner thread's scope stack: every enter pushes exactly one entry and every exit pops it, so
 * that an exit always leaves the scope its own enter opened, whatever was installed or replaced in
 * between. An entry of a scheduler since replaced stands for the replacement's class of the same
 * name (adoption, {@link Controller#shutdownInto}); entries of schedulers closed without a
 * replacement (or whose replacement lacks the name), of names the scheduler does not know, and of
 * scopes entered while none was installed ({@link TaskClassState#INERT}) stay on the stack, inert,
 * until their exits pop them. The role is the live entry of highest rank (ties: the innermost).
 *
 * <p>The stack stays confined to its owner: an installer never reads or writes it. It writes only
 * the successor pointers of the replaced classes (before the replaced machine's volatile
 * {@code closed}) and, under the controllers' locks, the roles of the replaced machine's members;
 * the owner sees the change at its next enter or exit (through {@link TaskClassState#current()},
 * and by retrying a role change that reached a closed controller, {@link #moveRole}).
 */
public final class Scopes {
    private Scopes() {}

    /** The owner enters a scope of {@code name}; {@code c} is the installed controller or null. */
    public static void enter(ThreadState t, Controller c, String name) {
        enter(t, c, c == null ? TaskClassState.INERT : c.machine.classOrUnknown(name));
    }

    /**
     * The owner enters a scope of a run-time share: a class of its own in {@code c}'s machine (or
     * inert when the policy takes no shares), nested and paired like any other scope.
     */
    public static void enter(ThreadState t, Controller c, RuntimeShare share) {
        enter(t, c, c == null ? TaskClassState.INERT : c.machine.shareClass(share));
    }

    private static void enter(ThreadState t, Controller c, TaskClassState cls) {
        if (t.depth == t.stack.length) {
            if (t.depth >= ThreadState.MAX_DEPTH) {
                t.overflow++;
                return;
            }
            t.stack = java.util.Arrays.copyOf(t.stack, t.depth * 2);
        }
        t.stack[t.depth++] = cls;
        if (c == null) {
            return;
        }
        if (SchedulerEvents.enterEnabled()) {
            SchedulerEvents.enter(cls.name(), t.depth);
        }
        moveRole(t);
        if (t.atEntry && t.yield) {
            TaskClassState r = t.role;
            if (r != null && r == cls.current()) { // cls itself, or its successor if c closed meanwhile
                r.controller.await(t); // admission control: wait before the scope's body starts
            }
        }
    }

    /** The owner leaves its innermost scope; tolerant of unbalanced calls (no scope: no-op). */
    public static void exit(ThreadState t) {
        if (t.overflow > 0) {
            t.overflow--;
            return;
        }
        if (t.depth == 0) {
            return;
        }
        TaskClassState popped = t.stack[--t.depth];
        t.stack[t.depth] = null;
        if (popped != TaskClassState.INERT && SchedulerEvents.exitEnabled()) {
            SchedulerEvents.exit(popped.name(), t.depth + 1); // pairs with enter's event, which INERT scopes lack
        }
        if (popped != TaskClassState.INERT || t.role != null) {
            moveRole(t);
        }
    }

    /**
     * The role: the live scope of highest rank, ties to the innermost; markers and stale ignored.
     * An entry of a replaced scheduler counts as its successor's class ({@link
     * TaskClassState#current()}: adoption).
     */
    static TaskClassState computeRole(ThreadState t) {
        TaskClassState best = null;
        for (int i = 0; i < t.depth; i++) {
            TaskClassState c = t.stack[i].current();
            if (c == null) {
                continue;
            }
            if (best == null || c.rank() >= best.rank()) {
                best = c;
            }
        }
        return best;
    }

    /**
     * Moves the owner's role to what its scopes say now. A controller that turns out closed when
     * the change reaches it ({@link Controller#change} returns false) was replaced meanwhile: its
     * successor adopted the role or its shutdown dropped it, under its lock, so the owner re-reads
     * its role and recomputes the target (now through the successors) and tries again; each retry
     * follows an install, so this ends.
     */
    static void moveRole(ThreadState t) {
        while (!moveRole(t, computeRole(t))) {
            // replaced meanwhile: again, from the role the installer left
        }
    }

    /**
     * One attempt at moving the role to {@code to}; false when a controller on the way was closed
     * (see {@link #moveRole(ThreadState)}).
     */
    static boolean moveRole(ThreadState t, TaskClassState to) {
        TaskClassState from = t.role;
        if (from == to) {
            return true;
        }
        ControlPointIntervals.endSpan(t);
        Controller fc = from == null ? null : from.controller;
        Controller tc = to == null ? null : to.controller;
        if (fc != null && fc == tc) {
            return fc.change(t, to);
        }
        if (fc != null && !fc.change(t, null)) {
            return false;
        }
        return tc == null || tc.change(t, to);
    }
}
