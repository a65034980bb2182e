package io.qosweaver.agent.unit.aspect;

import io.qosweaver.agent.bootstrap.Aspects;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.bytebuddy.asm.Advice;

/**
 * Inlined around a selected execution: enter the aspect (which may wait, or refuse by throwing
 * {@code RejectedExecutionException}, the one exception meant to reach the application), leave it
 * on return or throw. The aspect's registry index is a constant bound at weave time.
 */
public final class AspectAdvice {
    private AspectAdvice() {}

    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    public @interface Index {}

    @Advice.OnMethodEnter
    static Object enter(@Index int index) {
        return Aspects.enter(index);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter Object entered) {
        Aspects.exit(entered);
    }
}
