package io.qosweaver.jcstress;

import io.qosweaver.scheduler.core.Controller;
import io.qosweaver.scheduler.core.StateMachine;
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
    static final Policy PASSIVE = new Policy() {
        @Override
        public String name() {
            return "passive";
        }

        @Override
        public int rank(TaskClassSpec taskClass) {
            return 1;
        }

        @Override
        public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {}
    };

    static Controller controller() {
        return Controller.create(PASSIVE, Ticker.system(), List.of(new TaskClassSpec("work", java.util.Map.of())));
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
