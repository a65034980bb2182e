package io.qosweaver.agent.unit.tomcat;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;

import io.qosweaver.agent.weaving.AdviceUnit;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;

/**
 * {@link TomcatAdvice} in {@code org.apache.catalina.connector.CoyoteAdapter}: {@code service(Request,
 * Response)}, where Tomcat 9, 10 and 11 hand a parsed request to Catalina, and
 * {@code asyncDispatch(Request, Response, SocketEvent)}, where an asynchronous request resumes
 * (so its continuation runs in its task class again), both taking {@code org.apache.coyote.Request}.
 * Requests that no servlet serves (an unmapped path, a 404 from the mapper) are classified too.
 */
public final class TomcatUnit {
    private TomcatUnit() {}

    public static InstrumentationUnit create(WeavingStats.PointcutStats stats) {
        return create(stats, TomcatAdvice.class);
    }

    /** The same methods with another advice: the profiling mode's request spans. */
    public static InstrumentationUnit create(WeavingStats.PointcutStats stats, Class<?> advice) {
        return new AdviceUnit("tomcat", named("org.apache.catalina.connector.CoyoteAdapter"),
                named("service").or(named("asyncDispatch"))
                        .and(takesArgument(0, named("org.apache.coyote.Request")))
                        .and(takesArgument(1, named("org.apache.coyote.Response"))), advice, stats);
    }
}
