package io.qosweaver.agent.unit.entry;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isMethod;
import static net.bytebuddy.matcher.ElementMatchers.not;

import io.qosweaver.model.pointcut.Pointcut;
import io.qosweaver.agent.weaving.Hierarchies;
import io.qosweaver.agent.weaving.InstrumentationUnit;
import io.qosweaver.agent.weaving.PointcutTypes;
import io.qosweaver.agent.weaving.WeavingStats;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/** One task class's entry: {@link EntryAdvice} around every method its pointcut selects. */
public final class EntryUnit implements InstrumentationUnit {
    private final String taskClass;
    private final Pointcut entry;
    private final WeavingStats.PointcutStats stats;

    public EntryUnit(String taskClass, Pointcut entry, WeavingStats.PointcutStats stats) {
        this.taskClass = taskClass;
        this.entry = entry;
        this.stats = stats;
    }

    @Override
    public String name() {
        return "entry " + taskClass;
    }

    @Override
    public ElementMatcher<? super TypeDescription> types() {
        return PointcutTypes.canMatch(List.of(entry));
    }

    @Override
    public AgentBuilder.Transformer transformer() {
        ElementMatcher.Junction<MethodDescription> methods = isMethod().and(not(isAbstract()))
                .and(new ElementMatcher.Junction.AbstractBase<MethodDescription>() {
                    @Override
                    public boolean matches(MethodDescription m) {
                        try {
                            return entry.matches(Hierarchies.signature(m), null);
                        } catch (RuntimeException e) {
                            return false;
                        }
                    }
                });
        var visitor = Advice.withCustomMapping()
                .bind(EntryAdvice.TaskClassName.class, taskClass)
                .to(EntryAdvice.class)
                .on(methods);
        return (b, type, loader, module, pd) -> {
            stats.woven(WeavingStats.classKey(type.getName(), loader), type.getDeclaredMethods().filter(methods).size());
            return b.visit(visitor);
        };
    }
}
