package io.qosweaver.agent.unit.tomcat;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;

import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * {@link TomcatAdvice} in {@code org.apache.catalina.connector.CoyoteAdapter}: {@code service(Request,
 * Response)}, where Tomcat 9, 10 and 11 hand a parsed request to Catalina, and
 * {@code asyncDispatch(Request, Response, SocketEvent)}, where an asynchronous request resumes
 * (so its continuation runs in its task class again), both taking {@code org.apache.coyote.Request}.
 * Requests that no servlet serves (an unmapped path, a 404 from the mapper) are classified too.
 */
public final class TomcatUnit implements InstrumentationUnit {
    static final ElementMatcher.Junction<MethodDescription> ENTRIES = named("service").or(named("asyncDispatch"))
            .and(takesArgument(0, named("org.apache.coyote.Request")))
            .and(takesArgument(1, named("org.apache.coyote.Response")));

    private final WeavingStats.PointcutStats stats;

    public TomcatUnit(WeavingStats.PointcutStats stats) {
        this.stats = stats;
    }

    @Override
    public String name() {
        return "tomcat";
    }

    @Override
    public ElementMatcher<? super TypeDescription> types() {
        return named("org.apache.catalina.connector.CoyoteAdapter");
    }

    @Override
    public AgentBuilder.Transformer transformer() {
        var visitor = Advice.to(TomcatAdvice.class).on(ENTRIES);
        return (b, type, loader, module, pd) -> {
            stats.woven(type.getDeclaredMethods().filter(ENTRIES).size());
            return b.visit(visitor);
        };
    }
}
