package io.qosweaver.agent.unit.serverpool;

import io.qosweaver.agent.weaving.ExecutionUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.model.pointcut.Pointcut;
import io.qosweaver.model.pointcut.PointcutParser;
import io.qosweaver.model.pointcut.PointcutSyntaxException;
import net.bytebuddy.asm.Advice;

/** Where a server's pool is seen: its start (pools built after the weaving) and its dispatch (those already running). */
public final class ServerPoolUnit {
    /** Jetty 9.4 to 12. */
    public static final String JETTY = "execution(* org.eclipse.jetty.util.thread.QueuedThreadPool.doStart())"
            + " || execution(* org.eclipse.jetty.util.thread.QueuedThreadPool.execute(..))"
            + " || execution(* org.eclipse.jetty.util.thread.QueuedThreadPool.tryExecute(..))";
    /** Tomcat 9 to 11: the connector's endpoint, whose setters size its own executor. */
    public static final String TOMCAT = "execution(* org.apache.tomcat.util.net.AbstractEndpoint.createExecutor())"
            + " || execution(* org.apache.tomcat.util.net.AbstractEndpoint.processSocket(..))";

    private ServerPoolUnit() {}

    public static InstrumentationUnit jetty(WeavingStats.PointcutStats stats) {
        return new ExecutionUnit("threadPool jetty", parse(JETTY), m -> Advice.to(ServerPoolAdvice.Jetty.class).on(m),
                stats);
    }

    public static InstrumentationUnit tomcat(WeavingStats.PointcutStats stats) {
        return new ExecutionUnit("threadPool tomcat", parse(TOMCAT), m -> Advice.to(ServerPoolAdvice.Tomcat.class).on(m),
                stats);
    }

    private static Pointcut parse(String text) {
        try {
            return PointcutParser.parse(text);
        } catch (PointcutSyntaxException e) {
            throw new IllegalStateException(text, e);
        }
    }
}
