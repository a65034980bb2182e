package io.qosweaver.jcstress;

import io.qosweaver.scheduler.core.Controller;
import io.qosweaver.scheduler.core.StateMachine;
import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.Ticker;
import io.qosweaver.scheduler.spi.ThreadView;
import java.util.List;
import java.util.function.Consumer;

/**
 * A controller whose policy does nothing by itself, so that a test drives the {@link Control}
 * directly; every step runs under the controller's lock, as the runtime's do.
 */
final class Machines {
    private Machines() {}

    /** A policy without opinions: tests call the Control themselves. */
    static final Policy PASSIVE = passive(0);
    /** {@link #PASSIVE} with a tick: the mechanism hands promoted threads' wakes to demoted runners. */
    static final Policy TICKING = passive(1_000_000);

    private static Policy passive(long tickNanos) {
        return new Policy() {
            @Override
            public String name() {
                return tickNanos > 0 ? "passive-ticking" : "passive";
            }

            @Override
            public int rank(TaskClassSpec taskClass) {
                return 1;
            }

            @Override
            public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {}

            @Override
            public long tickNanos() {
                return tickNanos;
            }
        };
    }

    static Controller controller() {
        return controller(PASSIVE);
    }

    static Controller controller(Policy policy) {
        return Controller.create(policy, Ticker.system(), List.of(new TaskClassSpec("work", java.util.Map.of())));
    }

    /**
     * A ticking controller where {@code successor}, parked, was promoted while {@code runner}, demoted
     * for it, is still on its CPU: the successor's wake waits for the runner.
     */
    static Controller handOffPending(ThreadState runner, ThreadState successor) {
        Controller c = controller(TICKING);
        locked(c, m -> {
            m.setLimit(1);
            m.admit(runner); // runs
            m.admit(successor); // flagged
            m.beginWait(successor); // parked
            m.setLimit(0); // the runner demoted while on its CPU
            m.setOrder(runner, Long.MAX_VALUE / 2);
            m.setLimit(1); // the successor promoted
        });
        return c;
    }

    /** Runs {@code step} on the machine under the controller's lock. */
    static void locked(Controller c, Consumer<StateMachine> step) {
        c.locked(() -> {
            step.accept(c.machine());
            return null;
        });
    }

    /** "OK", or what is broken. */
    static String invariants(Controller c) {
        String broken = c.locked(() -> c.machine().checkInvariants());
        return broken == null ? "OK" : broken;
    }
}
