package io.qosweaver.agent.unit.servlet;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
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
 * {@link ServletAdvice} in every servlet class that declares {@code service(ServletRequest,
 * ServletResponse)} (usually {@code HttpServlet}); the table of task classes is configured
 * separately ({@code RequestTaskClasses.configure}).
 */
public final class ServletUnit implements InstrumentationUnit {
    private static final ElementMatcher.Junction<MethodDescription> SERVICE = named("service")
            .and(takesArguments(2))
            .and(takesArgument(0, named("jakarta.servlet.ServletRequest"))
                    .or(takesArgument(0, named("javax.servlet.ServletRequest"))))
            .and(not(isAbstract()));

    private final WeavingStats.PointcutStats stats;

    public ServletUnit(WeavingStats.PointcutStats stats) {
        this.stats = stats;
    }

    @Override
    public String name() {
        return "servlets";
    }

    @Override
    public ElementMatcher<? super TypeDescription> types() {
        return not(isInterface()).and(new ElementMatcher.Junction.AbstractBase<TypeDescription>() {
            @Override
            public boolean matches(TypeDescription t) {
                return !t.getDeclaredMethods().filter(SERVICE).isEmpty();
            }
        });
    }

    @Override
    public AgentBuilder.Transformer transformer() {
        var visitor = Advice.to(ServletAdvice.class).on(SERVICE);
        return (b, type, loader, module, pd) -> {
            stats.woven(type.getDeclaredMethods().filter(SERVICE).size());
            return b.visit(visitor);
        };
    }
}
