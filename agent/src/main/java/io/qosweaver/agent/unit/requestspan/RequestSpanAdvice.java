package io.qosweaver.agent.unit.requestspan;

import io.qosweaver.agent.bootstrap.CallProbe;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into a server's entry for a request in the profiling mode: marks its begin and end on
 * the thread. Reads nothing of the request: a span is any request the server handles.
 */
public final class RequestSpanAdvice {
    private RequestSpanAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static void enter() {
        CallProbe.requestBegin();
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit() {
        CallProbe.requestEnd();
    }
}
