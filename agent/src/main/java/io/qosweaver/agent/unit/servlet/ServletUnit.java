package io.qosweaver.agent.unit.servlet;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import io.qosweaver.agent.weaving.AdviceUnit;
import io.qosweaver.agent.weaving.Hierarchies;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.WeavingStats;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * {@link ServletAdvice} in every servlet class that declares {@code service(ServletRequest,
 * ServletResponse)} (usually {@code HttpServlet}); the table of task classes is configured
 * separately ({@code RequestTaskClasses.configure}).
 */
public final class ServletUnit {
    private ServletUnit() {}

    private static final ElementMatcher.Junction<MethodDescription> SERVICE = named("service")
            .and(takesArguments(2))
            .and(takesArgument(0, named("jakarta.servlet.ServletRequest"))
                    .or(takesArgument(0, named("javax.servlet.ServletRequest"))))
            .and(not(isAbstract()));

    private static boolean isServletInterface(String name) {
        return name.equals("jakarta.servlet.Servlet") || name.equals("javax.servlet.Servlet");
    }

    public static InstrumentationUnit create(WeavingStats.PointcutStats stats) {
        return create(stats, ServletAdvice.class);
    }

    /** The same methods with another advice: the profiling mode's request spans. */
    public static InstrumentationUnit create(WeavingStats.PointcutStats stats, Class<?> advice) {
        return new AdviceUnit("servlets", not(isInterface()).and(new ElementMatcher.Junction.AbstractBase<TypeDescription>() {
            @Override
            public boolean matches(TypeDescription t) {
                // A servlet implements Servlet: checked by name up the hierarchy first, because the
                // declared methods of a loaded class come by reflection, which loads every type
                // their signatures name. Asked of every loaded class in a swap, that loaded 550
                // classes, and a class load can deoptimize compiled code by a handshake with every
                // thread: 5 s of a swap under the flash crowd.
                return Hierarchies.of(t).anySuperType(t.getName(), ServletUnit::isServletInterface)
                        && !t.getDeclaredMethods().filter(SERVICE).isEmpty();
            }
        }), SERVICE, advice, stats);
    }
}
