package io.qosweaver.agent.unit.jetty12;

import io.qosweaver.agent.bootstrap.Jetty12Requests;
import io.qosweaver.agent.bootstrap.RequestTaskClasses;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into Jetty 12's {@code Server.handle(Request, Response, Callback)}: a request that a
 * {@code request} task class selects runs inside it until {@code handle} returns on this thread.
 * The request is passed as Object: the agent links no Jetty type.
 */
public final class Jetty12Advice {
    private Jetty12Advice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static boolean enter(@Advice.Argument(0) Object request) {
        return Jetty12Requests.enter(request);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter boolean entered) {
        RequestTaskClasses.exit(entered);
    }
}
