package io.qosweaver.agent.unit.undertow;

import io.qosweaver.agent.bootstrap.RequestTaskClasses;
import io.qosweaver.agent.bootstrap.UndertowRequests;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into Undertow's {@code Connectors.executeRootHandler(HttpHandler, HttpServerExchange)}:
 * a request that a {@code request} task class selects runs inside it until its handler chain
 * returns on this worker thread. The exchange is passed as Object: the agent links no Undertow type.
 */
public final class UndertowAdvice {
    private UndertowAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static boolean enter(@Advice.Argument(1) Object exchange) {
        return UndertowRequests.enter(exchange);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter boolean entered) {
        RequestTaskClasses.exit(entered);
    }
}
