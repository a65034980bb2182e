package io.qosweaver.agent.unit.serverpool;

import io.qosweaver.agent.bootstrap.ServerPools;
import net.bytebuddy.asm.Advice;

/** After the pool's start or dispatch returned: the pool, reported (a known pool costs a short scan). */
public final class ServerPoolAdvice {
    private ServerPoolAdvice() {}

    /** In {@code QueuedThreadPool}. */
    public static final class Jetty {
        private Jetty() {}

        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object pool) {
            ServerPools.jetty(pool);
        }
    }

    /** In {@code AbstractEndpoint}. */
    public static final class Tomcat {
        private Tomcat() {}

        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.This Object endpoint) {
            ServerPools.tomcat(endpoint);
        }
    }
}
