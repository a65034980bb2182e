package io.qosweaver.agent.weaving;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.not;

import io.qosweaver.model.pointcut.Pointcut;
import java.util.List;
import java.util.function.Function;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Advice around every method an execution pointcut selects: what a task class's entry, a watch
 * and the aspects of the policy file have in common. The advice is built once, for the methods
 * matcher; each woven class's selected methods are counted in the pointcut's stats.
 */
public final class ExecutionUnit implements InstrumentationUnit {
    private final String name;
    private final Pointcut pointcut;
    private final Function<ElementMatcher<MethodDescription>, AsmVisitorWrapper> advice;
    private final WeavingStats.PointcutStats stats;

    /**
     * @param advice the advice visitor for the selected methods, e.g. {@code m -> Advice.to(X.class).on(m)}
     */
    public ExecutionUnit(String name, Pointcut pointcut, Function<ElementMatcher<MethodDescription>,
            AsmVisitorWrapper> advice, WeavingStats.PointcutStats stats) {
        this.name = name;
        this.pointcut = pointcut;
        this.advice = advice;
        this.stats = stats;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ElementMatcher<? super TypeDescription> types() {
        return PointcutTypes.canMatch(List.of(pointcut));
    }

    /** The concrete methods whose execution the pointcut selects. */
    public static ElementMatcher.Junction<MethodDescription> methods(Pointcut pointcut) {
        return isMethod().and(not(isAbstract())).and(new ElementMatcher.Junction.AbstractBase<MethodDescription>() {
            @Override
            public boolean matches(MethodDescription m) {
                try {
                    return pointcut.matches(Hierarchies.signature(m), null);
                } catch (RuntimeException e) {
                    return false;
                }
            }
        });
    }

    @Override
    public AgentBuilder.Transformer transformer() {
        ElementMatcher.Junction<MethodDescription> methods = methods(pointcut);
        AsmVisitorWrapper visitor = advice.apply(methods);
        return (b, type, loader, module, pd) -> {
            stats.woven(WeavingStats.classKey(type.getName(), loader), type.getDeclaredMethods().filter(methods).size());
            return b.visit(visitor);
        };
    }
}
