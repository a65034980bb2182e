package io.qosweaver.agent.unit.aspect;

import io.qosweaver.agent.weaving.ExecutionUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.model.pointcut.Pointcut;
import net.bytebuddy.asm.Advice;

/**
 * One pointcut of an aspect of the policy file: an advice class ({@link AspectAdvice}, a half
 * of {@link SignalAdvice}, or one of {@link TimeoutAdvice}) bound to the aspect's registry index, around every method the pointcut
 * selects.
 */
public final class AspectUnit {
    private AspectUnit() {}

    public static InstrumentationUnit create(String name, Pointcut pointcut, int index, WeavingStats.PointcutStats stats) {
        return create(name, pointcut, index, AspectAdvice.class, stats);
    }

    public static InstrumentationUnit create(String name, Pointcut pointcut, int index, Class<?> advice,
            WeavingStats.PointcutStats stats) {
        return new ExecutionUnit(name, pointcut, methods -> Advice.withCustomMapping()
                .bind(AspectAdvice.Index.class, index).to(advice).on(methods), stats);
    }
}
