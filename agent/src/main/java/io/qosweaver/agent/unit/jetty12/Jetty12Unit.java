package io.qosweaver.agent.unit.jetty12;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.qosweaver.agent.weaving.AdviceUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;

/**
 * {@link Jetty12Advice} in {@code org.eclipse.jetty.server.Server.handle(Request, Response,
 * Callback)} of Jetty 12: every request, servlet or not, is classified on the thread that handles
 * it before the first handler runs. Jetty 9.4 to 11 have {@code Server.handle(HttpChannel)}
 * instead, which this matcher does not take.
 */
public final class Jetty12Unit {
    private Jetty12Unit() {}

    public static InstrumentationUnit create(WeavingStats.PointcutStats stats) {
        return create(stats, Jetty12Advice.class);
    }

    /** The same methods with another advice: the profiling mode's request spans. */
    public static InstrumentationUnit create(WeavingStats.PointcutStats stats, Class<?> advice) {
        return new AdviceUnit("jetty12", named("org.eclipse.jetty.server.Server"), named("handle")
                .and(takesArguments(3))
                .and(takesArgument(0, named("org.eclipse.jetty.server.Request")))
                .and(takesArgument(2, named("org.eclipse.jetty.util.Callback"))), advice, stats);
    }
}
