package io.qosweaver.agent.unit.undertow;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.qosweaver.agent.weaving.AdviceUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;

/**
 * {@link UndertowAdvice} in Undertow 2's {@code io.undertow.server.Connectors.executeRootHandler(
 * HttpHandler, HttpServerExchange)}, where every request's handler chain starts, and starts again
 * on a worker thread when a handler dispatches (the helper classifies on worker threads only).
 */
public final class UndertowUnit {
    private UndertowUnit() {}

    public static InstrumentationUnit create(WeavingStats.PointcutStats stats) {
        return create(stats, UndertowAdvice.class);
    }

    /** The same methods with another advice: the profiling mode's request spans. */
    public static InstrumentationUnit create(WeavingStats.PointcutStats stats, Class<?> advice) {
        return new AdviceUnit("undertow", named("io.undertow.server.Connectors"), named("executeRootHandler")
                .and(isStatic())
                .and(takesArguments(2))
                .and(takesArgument(1, named("io.undertow.server.HttpServerExchange"))), advice, stats);
    }
}
