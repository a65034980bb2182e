package io.qosweaver.agent.unit.jetty12;

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
 * {@link Jetty12Advice} in {@code org.eclipse.jetty.server.Server.handle(Request, Response,
 * Callback)} of Jetty 12: every request, servlet or not, is classified on the thread that handles
 * it before the first handler runs. Jetty 9.4 to 11 have {@code Server.handle(HttpChannel)}
 * instead, which this matcher does not take.
 */
public final class Jetty12Unit implements InstrumentationUnit {
    static final ElementMatcher.Junction<MethodDescription> HANDLE = named("handle")
            .and(takesArguments(3))
            .and(takesArgument(0, named("org.eclipse.jetty.server.Request")))
            .and(takesArgument(2, named("org.eclipse.jetty.util.Callback")));

    private final WeavingStats.PointcutStats stats;

    public Jetty12Unit(WeavingStats.PointcutStats stats) {
        this.stats = stats;
    }

    @Override
    public String name() {
        return "jetty12";
    }

    @Override
    public ElementMatcher<? super TypeDescription> types() {
        return named("org.eclipse.jetty.server.Server");
    }

    @Override
    public AgentBuilder.Transformer transformer() {
        var visitor = Advice.to(Jetty12Advice.class).on(HANDLE);
        return (b, type, loader, module, pd) -> {
            stats.woven(type.getDeclaredMethods().filter(HANDLE).size());
            return b.visit(visitor);
        };
    }
}
