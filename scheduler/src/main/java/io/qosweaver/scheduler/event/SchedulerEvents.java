package io.qosweaver.scheduler.event;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR events for every scheduling decision. Events are created only when their type is enabled:
 * each check is a read of a cached {@link EventType} (resolved lazily, once JFR is initialized),
 * so nothing is allocated when no recording asks for them. If jdk.jfr is missing (a jlinked
 * runtime), every check answers false.
 */
public final class SchedulerEvents {
    private SchedulerEvents() {}

    private static volatile boolean broken;

    private static final class Types {
        static final EventType ENTER = EventType.getEventType(EnterEvent.class);
        static final EventType YIELD = EventType.getEventType(YieldEvent.class);
        static final EventType SUSPEND = EventType.getEventType(SuspendEvent.class);
        static final EventType RESUME = EventType.getEventType(ResumeEvent.class);
        static final EventType LIMIT = EventType.getEventType(LimitChangeEvent.class);
        static final EventType EXIT = EventType.getEventType(ExitEvent.class);
    }

    private static boolean ready() {
        if (broken) {
            return false;
        }
        try {
            return FlightRecorder.isInitialized();
        } catch (Throwable e) {
            broken = true;
            return false;
        }
    }

    private static boolean on(int which) {
        if (!ready()) {
            return false;
        }
        try {
            switch (which) {
                case 0: return Types.ENTER.isEnabled();
                case 1: return Types.YIELD.isEnabled();
                case 2: return Types.SUSPEND.isEnabled();
                case 3: return Types.RESUME.isEnabled();
                case 5: return Types.EXIT.isEnabled();
                default: return Types.LIMIT.isEnabled();
            }
        } catch (Throwable e) {
            broken = true;
            return false;
        }
    }

    public static boolean enterEnabled() { return on(0); }
    public static boolean yieldEnabled() { return on(1); }
    public static boolean suspendEnabled() { return on(2); }
    public static boolean resumeEnabled() { return on(3); }
    public static boolean limitEnabled() { return on(4); }
    public static boolean exitEnabled() { return on(5); }

    public static void enter(String taskClass, int depth) {
        EnterEvent e = new EnterEvent();
        e.taskClass = taskClass;
        e.depth = depth;
        e.commit();
    }

    /** The owner left the scope {@link #enter} reported (the tracer's task-class slices end here). */
    public static void exit(String taskClass, int depth) {
        ExitEvent e = new ExitEvent();
        e.taskClass = taskClass;
        e.depth = depth;
        e.commit();
    }

    public static void yield(String thread, String taskClass) {
        YieldEvent e = new YieldEvent();
        e.targetThread = thread;
        e.taskClass = taskClass;
        e.commit();
    }

    public static void suspend(String taskClass, long startNanos, boolean interrupted) {
        SuspendEvent e = new SuspendEvent();
        e.taskClass = taskClass;
        e.interrupted = interrupted;
        e.parkedNanos = System.nanoTime() - startNanos;
        e.commit();
    }

    public static void resume(String thread, String taskClass) {
        ResumeEvent e = new ResumeEvent();
        e.targetThread = thread;
        e.taskClass = taskClass;
        e.commit();
    }

    /** Limits in permits, -1 for unlimited. */
    public static void limit(String policy, int oldLimit, int newLimit, int running, int waiting) {
        LimitChangeEvent e = new LimitChangeEvent();
        e.policy = policy;
        e.oldLimit = oldLimit;
        e.newLimit = newLimit;
        e.running = running;
        e.waiting = waiting;
        e.commit();
    }

    @Name("qosweaver.Enter")
    @Label("Enter Scope")
    @Category({"QoSWeaver", "Scheduler"})
    @StackTrace(false)
    static final class EnterEvent extends Event {
        @Label("Task Class") String taskClass;
        @Label("Depth") int depth;
    }

    @Name("qosweaver.Exit")
    @Label("Exit Scope")
    @Category({"QoSWeaver", "Scheduler"})
    @StackTrace(false)
    static final class ExitEvent extends Event {
        @Label("Task Class") String taskClass;
        @Label("Depth") int depth;
    }

    @Name("qosweaver.Yield")
    @Label("Yield Flag Set")
    @Description("The scheduler told a thread to yield at its next control point")
    @Category({"QoSWeaver", "Scheduler"})
    @StackTrace(false)
    static final class YieldEvent extends Event {
        @Label("Thread") String targetThread;
        @Label("Task Class") String taskClass;
    }

    @Name("qosweaver.Suspend")
    @Label("Suspended")
    @Description("A thread parked at a control point (the event spans the time parked)")
    @Category({"QoSWeaver", "Scheduler"})
    @StackTrace(false)
    static final class SuspendEvent extends Event {
        @Label("Task Class") String taskClass;
        @Label("Interrupted") boolean interrupted;
        @Label("Parked Nanos") long parkedNanos;
    }

    @Name("qosweaver.Resume")
    @Label("Resumed")
    @Category({"QoSWeaver", "Scheduler"})
    @StackTrace(false)
    static final class ResumeEvent extends Event {
        @Label("Thread") String targetThread;
        @Label("Task Class") String taskClass;
    }

    @Name("qosweaver.LimitChange")
    @Label("Limit Change")
    @Category({"QoSWeaver", "Scheduler"})
    @StackTrace(false)
    static final class LimitChangeEvent extends Event {
        @Label("Policy") String policy;
        @Label("Old Limit") int oldLimit;
        @Label("New Limit") int newLimit;
        @Label("Running") int running;
        @Label("Waiting") int waiting;
    }
}
