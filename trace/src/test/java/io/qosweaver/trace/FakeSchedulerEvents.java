package io.qosweaver.trace;

import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Stand-ins with the names and fields of the scheduler's JFR events
 * ({@code io.qosweaver.scheduler.event.SchedulerEvents}), which this module does not depend on.
 */
final class FakeSchedulerEvents {
    private FakeSchedulerEvents() {}

    @Name("qosweaver.Enter")
    @StackTrace(false)
    static final class Enter extends Event {
        String taskClass;
        int depth;
    }

    @Name("qosweaver.Exit")
    @StackTrace(false)
    static final class Exit extends Event {
        String taskClass;
        int depth;
    }

    @Name("qosweaver.Yield")
    @StackTrace(false)
    static final class Yield extends Event {
        String targetThread;
        String taskClass;
    }

    @Name("qosweaver.Suspend")
    @StackTrace(false)
    static final class Suspend extends Event {
        String taskClass;
        boolean interrupted;
        long parkedNanos;
    }

    @Name("qosweaver.LimitChange")
    @StackTrace(false)
    static final class LimitChange extends Event {
        String policy;
        int oldLimit;
        int newLimit;
        int running;
        int waiting;
    }
}
