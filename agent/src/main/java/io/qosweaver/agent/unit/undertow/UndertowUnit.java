package io.qosweaver.agent.unit.undertow;

import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * {@link UndertowAdvice} in Undertow 2's {@code io.undertow.server.Connectors.executeRootHandler(
 * HttpHandler, HttpServerExchange)}, where every request's handler chain starts, and starts again
 * on a worker thread when a handler dispatches (the helper classifies on worker threads only).
 */
public final class UndertowUnit implements InstrumentationUnit {
    static final ElementMatcher.Junction<MethodDescription> ROOT = named("executeRootHandler")
            .and(isStatic())
            .and(takesArguments(2))
            .and(takesArgument(1, named("io.undertow.server.HttpServerExchange")));

    private final WeavingStats.PointcutStats stats;

    public UndertowUnit(WeavingStats.PointcutStats stats) {
        this.stats = stats;
    }

    @Override
    public String name() {
        return "undertow";
    }

    @Override
    public ElementMatcher<? super TypeDescription> types() {
        return named("io.undertow.server.Connectors");
    }

    @Override
    public AgentBuilder.Transformer transformer() {
        var visitor = Advice.to(UndertowAdvice.class).on(ROOT);
        return (b, type, loader, module, pd) -> {
            stats.woven(type.getDeclaredMethods().filter(ROOT).size());
            return b.visit(visitor);
        };
    }
}
