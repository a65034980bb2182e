package io.qosweaver.agent.unit.entry;

import io.qosweaver.scheduler.QoS;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import net.bytebuddy.asm.Advice;

/**
 * Inlined around an entry method of a task class: the thread enters the task class's scope and
 * leaves it on return or throw. The task class name is a constant bound at weave time
 * ({@link TaskClassName}), so the woven code is one constant load and one static call each side.
 * Stateless; every method suppresses Throwable so nothing from us reaches the application.
 */
public final class EntryAdvice {
    private EntryAdvice() {}

    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.PARAMETER)
    public @interface TaskClassName {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter(@TaskClassName String taskClass) {
        QoS.enter(taskClass);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit() {
        QoS.exit();
    }
}
