package io.qosweaver.agent.unit.jettychannel;

import io.qosweaver.agent.bootstrap.RequestTaskClasses;
import io.qosweaver.agent.bootstrap.JettyChannelRequests;
import net.bytebuddy.asm.Advice;

/**
 * Inlined into {@code Server.handle(HttpChannel)} and {@code handleAsync(HttpChannel)} of Jetty 9.4,
 * 10 and 11: a request that a {@code request} task class selects runs inside it until the method
 * returns on this thread. The channel is passed as Object: the agent links no Jetty type.
 */
public final class JettyChannelAdvice {
    private JettyChannelAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    static boolean enter(@Advice.Argument(0) Object channel) {
        return JettyChannelRequests.enter(channel);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    static void exit(@Advice.Enter boolean entered) {
        RequestTaskClasses.exit(entered);
    }
}
