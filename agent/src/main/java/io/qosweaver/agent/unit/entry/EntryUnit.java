package io.qosweaver.agent.unit.entry;

import io.qosweaver.agent.weaving.ExecutionUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.model.pointcut.Pointcut;
import net.bytebuddy.asm.Advice;

/** One task class's entry: {@link EntryAdvice} around every method its pointcut selects. */
public final class EntryUnit {
    private EntryUnit() {}

    public static InstrumentationUnit create(String taskClass, Pointcut entry, WeavingStats.PointcutStats stats) {
        return new ExecutionUnit("entry " + taskClass, entry, methods -> Advice.withCustomMapping()
                .bind(EntryAdvice.TaskClassName.class, taskClass).to(EntryAdvice.class).on(methods), stats);
    }
}
