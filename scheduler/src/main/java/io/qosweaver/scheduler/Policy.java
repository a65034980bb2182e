package io.qosweaver.scheduler;

import java.util.Map;

/**
 * A scheduling policy: decides, from threads' roles, which controlled threads may run. It knows
 * nothing of weaving and nothing of parking; it only drives a {@link Control}. Callbacks run with
 * the controller lock held, so a policy needs no synchronization of its own; they must be short
 * and must not block.
 */
public interface Policy {

    /** The name the policy is registered under (see {@link Policies}). */
    String name();

    /**
     * Validates one task class's attributes and ranks it; called once per class at install, before
     * anything changes. A rank of 0 means the policy ignores the class (no lock is taken for it).
     *
     * @throws PolicyConfigException naming {@code taskClasses.<name>.<attribute>}
     */
    int rank(SchedulerConfig.TaskClassSpec taskClass);

    /**
     * A thread's role changed, {@code from} and/or {@code to} being observed classes (rank > 0)
     * or {@code null}. Called when a scope opens or closes, when a dead thread is reaped (to =
     * null) and never for an uninstalled scheduler.
     */
    void onRoleChange(Control control, ManagedThread thread, TaskClass from, TaskClass to);

    /**
     * The scheduler is being uninstalled or replaced while {@code t} is still inside a scope of
     * {@code role} (an observed class): undo whatever the policy did to the thread (its priority,
     * for instance), because the thread's own exit will no longer reach the policy. Called from
     * the uninstalling thread, with the lock held, before the mechanism releases everyone; the
     * queues are about to be cleared, so a policy need not touch the Control here.
     */
    default void onDetach(ManagedThread t, TaskClass role) {}

    /**
     * For policies that work through thread priorities (JVM or OS), whether those priorities
     * actually take effect and why; {@code null} for policies that do not use priorities. Called
     * with the lock held when stats are read.
     */
    default PriorityReport priorityReport() {
        return null;
    }

    /** Builds a policy from its parameters; registered by name in {@link Policies}. */
    @FunctionalInterface
    interface Factory {
        /** @throws PolicyConfigException naming {@code policy.<parameter>} */
        Policy create(Map<String, String> parameters);
    }
}
