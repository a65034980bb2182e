package io.qosweaver.agent.unit.watch;

import io.qosweaver.agent.weaving.ExecutionUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.model.pointcut.Pointcut;
import net.bytebuddy.asm.Advice;

/** A watch: {@link WatchAdvice} around every method an execution pointcut selects. */
public final class WatchUnit {
    private WatchUnit() {}

    public static InstrumentationUnit create(Pointcut pointcut, WeavingStats.PointcutStats stats) {
        return new ExecutionUnit("watch " + pointcut, pointcut, methods -> Advice.to(WatchAdvice.class).on(methods),
                stats);
    }
}
