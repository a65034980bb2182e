package io.qosweaver.agent.unit.jettychannel;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.qosweaver.agent.weaving.AdviceUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;

/**
 * {@link JettyChannelAdvice} in {@code org.eclipse.jetty.server.Server.handle(HttpChannel)} and
 * {@code handleAsync(HttpChannel)} of Jetty 9.4, 10 and 11 (where a parsed request, or an async one
 * resuming, reaches the handlers). Jetty 12's {@code Server} has neither.
 */
public final class JettyChannelUnit {
    private JettyChannelUnit() {}

    public static InstrumentationUnit create(WeavingStats.PointcutStats stats) {
        return create(stats, JettyChannelAdvice.class);
    }

    /** The same methods with another advice: the profiling mode's request spans. */
    public static InstrumentationUnit create(WeavingStats.PointcutStats stats, Class<?> advice) {
        return new AdviceUnit("jetty-channel", named("org.eclipse.jetty.server.Server"),
                named("handle").or(named("handleAsync"))
                        .and(takesArguments(1))
                        .and(takesArgument(0, named("org.eclipse.jetty.server.HttpChannel"))),
                advice, stats);
    }
}
