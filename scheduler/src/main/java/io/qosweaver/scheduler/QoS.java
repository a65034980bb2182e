package io.qosweaver.scheduler;

import io.qosweaver.scheduler.core.ControlPointCount;
import io.qosweaver.scheduler.core.ControlPoints;
import io.qosweaver.scheduler.core.InternalErrors;
import io.qosweaver.scheduler.core.Pending;
import io.qosweaver.scheduler.core.Scopes;
import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.core.ThreadStates;

/**
 * The bridge that woven code calls. CONTRACT (shared with the agent; do not change signatures):
 * every method is static, never throws, and is a no-op for a thread outside any scope when no
 * scheduler is installed. The agent puts this module on the bootstrap class path so that advice in
 * any class loader can reach it.
 *
 * <p>Cost model (STYLE.md, hot path): {@link #controlPoint()} with nothing pending anywhere is a
 * plain-striped counter increment plus one volatile read and a branch: no allocation, no lock, no
 * map or thread-local lookup. Only when some thread somewhere has its yield flag set (or intervals
 * are measured) does a control point look up its own per-thread state.
 *
 * <p>Every {@link #enter} is paired with the next unpaired {@link #exit} of the same thread, even
 * when no scheduler is installed at the enter and one is at the exit (or the reverse): a scope
 * opened without a scheduler stays unmanaged for its whole length.
 */
public final class QoS {
    private QoS() {}

    /** The thread enters a scope of the named task class (nested scopes allowed). */
    public static void enter(String taskClass) {
        try {
            Scheduler s = Scheduler.current;
            ThreadState t = s == null ? ThreadStates.peek() : ThreadStates.current();
            if (t == null) {
                return; // no scheduler and no open scope: nothing to pair
            }
            Scopes.enter(t, s == null ? null : s.controller, taskClass);
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    /** The thread leaves its innermost scope (a no-op if it has none). */
    public static void exit() {
        try {
            ThreadState t = ThreadStates.peek();
            if (t != null) {
                Scopes.exit(t);
                ThreadStates.exited(t);
            }
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    /**
     * A control point: returns at once when nothing is pending (no allocation, no lock);
     * otherwise parks until a policy lets the thread go on.
     */
    public static void controlPoint() {
        ControlPointCount.increment();
        if (Pending.value() != 0) {
            ControlPoints.slowPath(false);
        }
    }

    /**
     * A control point the weaver knows to be inside a monitor (a {@code synchronized} method or
     * block): counted and measured like any other, but the thread is never suspended here. Holding
     * a lock while suspended can deadlock the application (QoSWeaver 3.4), and a virtual thread
     * parked inside {@code synchronized} pins its carrier on JDK 21-23.
     */
    public static void controlPointInMonitor() {
        ControlPointCount.increment();
        if (Pending.value() != 0) {
            ControlPoints.slowPath(true);
        }
    }

    /**
     * A progress point: one step of the calling thread's task (QoSWeaver 3.4, the deadlock-aware
     * policy's progress counters). A thread-state lookup and an uncontended counter increment.
     */
    public static void progressPoint() {
        try {
            ControlPoints.progress();
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }
}
