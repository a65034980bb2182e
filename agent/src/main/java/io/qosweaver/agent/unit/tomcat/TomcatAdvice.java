package io.qosweaver.agent.unit.tomcat;

import io.qosweaver.agent.bootstrap.RequestTaskClasses;
import io.qosweaver.agent.bootstrap.TomcatRequests;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into Tomcat's {@code CoyoteAdapter.service} and {@code asyncDispatch}: a request that a
 * {@code request} task class selects runs inside it until the method returns on this thread. The
 * Coyote request is passed as Object: the agent links no Tomcat type.
 */
public final class TomcatAdvice {
    private TomcatAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static boolean enter(@Advice.Argument(0) Object request) {
        return TomcatRequests.enter(request);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter boolean entered) {
        RequestTaskClasses.exit(entered);
    }
}
