package io.qosweaver.agent.unit.traceevent;

import io.qosweaver.trace.app.UserTrace;
import net.bytebuddy.asm.Advice;

/**
 * Inlined around a method a {@code trace.events} pointcut selects: a user-event slice named by
 * the method ({@code Class.method}, a constant of the woven code), from entry to return or throw.
 */
public final class TraceEventAdvice {
    private TraceEventAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter(@Advice.Origin("#t.#m") String method) {
        UserTrace.begin(method);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit() {
        UserTrace.end();
    }
}
