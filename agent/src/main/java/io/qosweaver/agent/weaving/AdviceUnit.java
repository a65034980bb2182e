package io.qosweaver.agent.weaving;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * The common shape of an integration: stateless advice inlined into the methods a matcher selects,
 * in the types another matcher selects, each woven method counted once in {@code stats}.
 */
public final class AdviceUnit implements InstrumentationUnit {
    private final String name;
    private final ElementMatcher<? super TypeDescription> types;
    private final ElementMatcher<? super MethodDescription> methods;
    private final Class<?> advice;
    private final WeavingStats.PointcutStats stats;

    /**
     * @param types   the types to weave; matching must never load a class
     * @param methods the methods of those types that get {@code advice}
     */
    public AdviceUnit(String name, ElementMatcher<? super TypeDescription> types,
            ElementMatcher<? super MethodDescription> methods, Class<?> advice, WeavingStats.PointcutStats stats) {
        this.name = name;
        this.types = types;
        this.methods = methods;
        this.advice = advice;
        this.stats = stats;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ElementMatcher<? super TypeDescription> types() {
        return types;
    }

    @Override
    public AgentBuilder.Transformer transformer() {
        var visitor = Advice.to(advice).on(methods);
        return (b, type, loader, module, pd) -> {
            // the request integrations share one count: keyed by unit too, so that one finding nothing
            // in a class (Jetty 12's Server against the 9.4-11 unit) does not erase another's
            stats.woven(WeavingStats.classKey(type.getName(), loader) + " " + name,
                    type.getDeclaredMethods().filter(methods).size());
            return b.visit(visitor);
        };
    }
}
