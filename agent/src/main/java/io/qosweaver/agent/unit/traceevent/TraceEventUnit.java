package io.qosweaver.agent.unit.traceevent;

import io.qosweaver.agent.weaving.ExecutionUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.model.pointcut.Pointcut;
import net.bytebuddy.asm.Advice;

/** One {@code trace.events} pointcut of the policy file: {@link TraceEventAdvice} around every method it selects. */
public final class TraceEventUnit {
    private TraceEventUnit() {}

    public static InstrumentationUnit create(String text, Pointcut pointcut, WeavingStats.PointcutStats stats) {
        return new ExecutionUnit("trace event " + text, pointcut, methods -> Advice.to(TraceEventAdvice.class).on(methods),
                stats);
    }
}
