package io.qosweaver.agent.unit.servlet;

import io.qosweaver.agent.bootstrap.RequestTaskClasses;
import io.qosweaver.agent.bootstrap.ServletRequests;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code service(ServletRequest, ServletResponse)} of servlets (jakarta and javax):
 * a request that a {@code request} or {@code servletPath} task class selects runs inside it.
 * The request is passed as Object so that one advice serves both servlet APIs.
 */
public final class ServletAdvice {
    private ServletAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static boolean enter(@Advice.Argument(0) Object request) {
        return ServletRequests.enter(request);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter boolean entered) {
        RequestTaskClasses.exit(entered);
    }
}
