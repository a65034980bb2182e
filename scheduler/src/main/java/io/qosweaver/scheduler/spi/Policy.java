package io.qosweaver.scheduler.spi;

import io.qosweaver.scheduler.stats.EntityShare;
import io.qosweaver.scheduler.stats.PriorityReport;
import java.util.List;

/**
 * A scheduling policy: decides, from threads' roles, which controlled threads may run. It knows
 * nothing of weaving and nothing of parking; it only drives a {@link Control}. Every callback runs
 * with the mechanism's lock held (or, in the simulator, on its single thread), so a policy needs
 * no synchronization of its own; callbacks must be short and must never block.
 *
 * <p>Only {@link #name}, {@link #rank} and {@link #onRoleChange} are required; the rest have
 * defaults that do nothing, so a simple policy stays a simple file. {@code scheduler/README.md}
 * shows which callbacks each planned policy uses.
 */
public interface Policy {

    /** The name the policy is registered under. */
    String name();

    /**
     * Validates one task class's attributes and ranks it; called once per class at install, before
     * anything changes. A rank of 0 means the policy ignores the class (no lock is taken for it).
     *
     * @throws PolicyConfigException naming {@code taskClasses.<name>.<attribute>}
     */
    int rank(TaskClassSpec taskClass);

    /** Why a thread's role changed. */
    enum Cause {
        /** The thread entered or left a scope; the callback runs on that thread. */
        SCOPE,
        /** The thread died inside its scope and was reaped ({@code to} is null); runs on another thread. */
        DEATH,
        /**
         * The thread was already inside a scope of {@code to} when this scheduler replaced the
         * previous one ({@code ctl set}, or a swap to a file with a task class of the same name):
         * the new scheduler adopts the running task ({@code from} is null). Runs on the installing
         * thread, not on the thread itself, under the new scheduler's lock before it decides
         * anything else. The thread is past its entry: {@link Control#admitAtEntry} acts as
         * {@link Control#admit} (a flagged thread parks at its next control point). Its later exit
         * reaches this policy as a {@link #SCOPE} change.
         */
        ADOPTED
    }

    /**
     * Once, when the mechanism is built and before any thread is seen: set the limits, caps and
     * pacing that hold from the start (an always-on cap, for instance). Default: nothing.
     */
    default void onStart(Control control) {}

    /**
     * A thread's role changed, {@code from} and/or {@code to} being observed classes (rank > 0)
     * or {@code null}. Never called for an uninstalled scheduler. If this throws, the mechanism
     * releases the thread (fail open) and reports the error.
     */
    void onRoleChange(Control control, ThreadView thread, TaskClass from, TaskClass to, Cause cause);

    /**
     * After a {@link Cause#SCOPE} change of {@code thread}, on that thread, once the scheduler's lock is
     * released: for what may deschedule or block the thread, which must not happen while it holds the lock
     * every other thread's scope change needs. Lowering the thread's own OS priority is such a thing: the
     * kernel deschedules it at once beside any runnable thread of normal priority, and under the lock every
     * light request's entry then waited for a heavy thread at nice 19 to get a CPU back (up to 0.9 s on
     * Fuseki, {@code bench/results/mixed-fuseki/nice-2026-11-28/}).
     *
     * <p>{@code slot} is the thread's slot of this policy as it was when the change was decided, read
     * under the lock ({@code thread.slot()} is not safe here: a replacing scheduler may adopt the thread
     * meanwhile). The scheduler may have been uninstalled since, its {@link #onDetach} run: a policy
     * that defers an effect to here keeps track of that itself. Whatever this throws is reported and
     * dropped. Default: nothing.
     */
    default void afterScopeChange(ThreadView thread, Object slot) {}

    /**
     * Before a {@link Cause#SCOPE} change of {@code thread} from {@code from} to {@code to} (observed classes or
     * null, as {@link #onRoleChange} will get them), on that thread, before the scheduler's lock is taken: for
     * what must be in force while the thread takes the lock and wakes others under it. Raising the thread's own
     * OS priority as it leaves a low scope is such a thing: under the lock it wakes the threads the change lets
     * run, and a thread of normal priority woken by a thread in {@code SCHED_IDLE} takes its CPU at once; left
     * runnable at the low priority, the leaving thread then waited up to 5.4 ms behind the low threads it had
     * just woken, and on Jetty, where the thread that ends a request goes on to select the next ones, the
     * light requests waited with it ({@code perf sched}, bench/results/mixed-tika/). Only what cannot
     * deschedule the thread belongs here; the rest goes to {@link #afterScopeChange}. The change may still be
     * retried on a replacing scheduler. Whatever this throws is reported and dropped. Default: nothing.
     */
    default void beforeScopeChange(ThreadView thread, TaskClass from, TaskClass to) {}

    /**
     * Before a flagged {@code thread} waits for its turn (at its scope's entry or at a control point), on that
     * thread, before it takes the scheduler's lock: for what must be in force while it holds the lock, which a
     * wait takes once to decide and once more when the thread is released. A thread the policy put in
     * {@code SCHED_IDLE} or at nice 19 is such a case: descheduled under the lock by any thread of normal
     * priority, it held up every other thread's scope change until it got a CPU back, and a light request's
     * entry waited 5-11 ms for a heavy thread that was only on its way to park ({@code perf}, Tika,
     * bench/results/mixed-tika/). {@link #afterWait} comes once the wait is over, whatever ended it. Whatever
     * this throws is reported and dropped. Default: nothing.
     */
    default void beforeWait(ThreadView thread) {}

    /**
     * After {@link #beforeWait}'s wait, on the thread, with no lock held: undo it (the thread goes on with
     * its task, at its role's priority). Whatever this throws is reported and dropped. Default: nothing.
     */
    default void afterWait(ThreadView thread) {}

    /**
     * The scheduler is being uninstalled or replaced while {@code t} is still inside a scope of
     * {@code role} (an observed class): undo whatever the policy did to the thread (its priority,
     * for instance), because the thread's own exit will no longer reach the policy. The queues are
     * about to be cleared, so a policy need not touch the Control here.
     */
    default void onDetach(ThreadView t, TaskClass role) {}

    /**
     * How often {@link #onTick} runs, in nanoseconds of the scheduler's clock; 0 (the default):
     * never. Read once at install.
     */
    default long tickNanos() {
        return 0;
    }

    /**
     * How long after the tick that just ran the next one runs, in nanoseconds; asked by the tick's
     * driver after each {@link #onTick}, on the same thread. The default, {@link #tickNanos}, is a
     * fixed cadence; a policy may ask for an earlier tick (MTR-LS: when a turn is expected to end).
     * A value of 0 or less means {@link #tickNanos}.
     */
    default long nextTickNanos() {
        return tickNanos();
    }

    /**
     * The periodic tick (adaptive throughput's period, MTR-LS's accounting, POS's re-estimation),
     * from one daemon thread of the scheduler at {@link #tickNanos} intervals, or driven by a test or
     * the simulator.
     *
     * @param nowNanos the scheduler's clock
     */
    default void onTick(Control control, long nowNanos) {}

    /**
     * How long a thread parked at a control point waits before {@link #onWaitTimeout} is asked
     * whether it should wait on, in nanoseconds; 0 (the default): until released. Read once at
     * install. Waits at entry ({@link Control#admitAtEntry}) are not timed.
     */
    default long waitTimeoutNanos() {
        return 0;
    }

    /**
     * A parked thread's wait timed out while it is still told to yield: return {@code true} to wait
     * another {@link #waitTimeoutNanos}, {@code false} to let it run on for now with its flag still
     * set (it stays in the wait queue and holds no slot; {@link #mayPark} decides about its next
     * control points). The deadlock-aware policy compares progress counters here.
     */
    default boolean onWaitTimeout(Control control, ThreadView thread) {
        return true;
    }

    /**
     * A flagged thread reached a control point: return {@code false} to let it pass without
     * parking this time (it stays flagged). Not asked at control points inside a monitor, where the
     * mechanism never parks.
     */
    default boolean mayPark(Control control, ThreadView thread) {
        return true;
    }

    /**
     * For policies that work through thread priorities (JVM or OS), whether those priorities
     * actually take effect and why; {@code null} for policies that do not use priorities.
     */
    default PriorityReport priorityReport() {
        return null;
    }

    /** The value that stands for Linux's {@code SCHED_IDLE} policy where a nice value is expected: below nice 19. */
    int IDLE_PRIORITY = 20;

    /**
     * The OS priority at which the agent keeps the JIT's compiler threads while this policy is installed,
     * outside the raise that follows a weaving change: a nice value, or {@link #IDLE_PRIORITY} for Linux's
     * {@code SCHED_IDLE}; {@code null} (the default) leaves them at their own.
     */
    default Integer compilerPriority() {
        return null;
    }

    /**
     * For proportional-share policies (MTR-LS), per entity the fraction asked, the share received
     * over the last window and the lag; empty for the others. Called when stats are read (under the
     * lock, never on a control point's path), so it may allocate.
     */
    default List<EntityShare> shares() {
        return List.of();
    }

    /**
     * The rank of run-time shares ({@link RuntimeShare}, the Java API's scopes): each share the
     * application enters is a task class of its own with this rank, whose {@link TaskClass#share()}
     * says what it asks. 0 (the default): the policy takes no run-time shares, and their scopes are
     * inert (the application runs unscheduled in them).
     */
    default int shareRank() {
        return 0;
    }

    /**
     * What run-time shares may ask together beside the policy file's own fractions (the Java API
     * admits its top-level shares against it); NaN (the default) for policies without shares.
     */
    default double shareCapacity() {
        return Double.NaN;
    }

    /** Builds a policy from its parameters and the platform's services; registered by name. */
    @FunctionalInterface
    interface Factory {
        /** @throws PolicyConfigException naming {@code policy.<parameter>} */
        Policy create(PolicyContext context);
    }
}
