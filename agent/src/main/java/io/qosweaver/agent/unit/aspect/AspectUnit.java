package io.qosweaver.agent.unit.aspect;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.not;

import io.qosweaver.agent.weaving.Hierarchies;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.PointcutTypes;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.model.pointcut.Pointcut;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * One pointcut of an aspect of the policy file: an advice class ({@link AspectAdvice}, or a half
 * of {@link SignalAdvice}) bound to the aspect's registry index, around every method the pointcut
 * selects.
 */
public final class AspectUnit implements InstrumentationUnit {
    private final String name;
    private final Pointcut pointcut;
    private final int index;
    private final Class<?> advice;
    private final WeavingStats.PointcutStats stats;

    public AspectUnit(String name, Pointcut pointcut, int index, WeavingStats.PointcutStats stats) {
        this(name, pointcut, index, AspectAdvice.class, stats);
    }

    public AspectUnit(String name, Pointcut pointcut, int index, Class<?> advice, WeavingStats.PointcutStats stats) {
        this.name = name;
        this.pointcut = pointcut;
        this.index = index;
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

    @Override
    public AgentBuilder.Transformer transformer() {
        ElementMatcher.Junction<MethodDescription> methods = isMethod().and(not(isAbstract()))
                .and(new ElementMatcher.Junction.AbstractBase<MethodDescription>() {
                    @Override
                    public boolean matches(MethodDescription m) {
                        try {
                            return pointcut.matches(Hierarchies.signature(m), null);
                        } catch (RuntimeException e) {
                            return false;
                        }
                    }
                });
        var visitor = Advice.withCustomMapping().bind(AspectAdvice.Index.class, index).to(advice).on(methods);
        return (b, type, loader, module, pd) -> {
            stats.woven(WeavingStats.classKey(type.getName(), loader), type.getDeclaredMethods().filter(methods).size());
            return b.visit(visitor);
        };
    }
}
