package io.qosweaver.agent.weaving;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Several join points of one integration (a server's accept, close, reads and service, in
 * several of its classes) as one unit: each method matcher gets its own stateless advice. A
 * matcher should name its type too ({@code isDeclaredBy}), since every advice is offered every
 * type the unit selects.
 */
public final class AdviceSetUnit implements InstrumentationUnit {
    private record Point(ElementMatcher<? super MethodDescription> methods, Class<?> advice) {}

    private final String name;
    private final ElementMatcher<? super TypeDescription> types;
    private final List<Point> points = new ArrayList<>();
    private final WeavingStats.PointcutStats stats;

    public AdviceSetUnit(String name, ElementMatcher<? super TypeDescription> types, WeavingStats.PointcutStats stats) {
        this.name = name;
        this.types = types;
        this.stats = stats;
    }

    /** Adds {@code advice} on the methods {@code methods} selects; returns this. */
    public AdviceSetUnit at(ElementMatcher<? super MethodDescription> methods, Class<?> advice) {
        points.add(new Point(methods, advice));
        return this;
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
        List<Point> all = List.copyOf(points);
        return (b, type, loader, module, pd) -> {
            long n = 0;
            for (Point p : all) {
                n += type.getDeclaredMethods().filter(p.methods()).size();
                b = b.visit(Advice.to(p.advice()).on(p.methods()));
            }
            stats.woven(WeavingStats.classKey(type.getName(), loader) + " " + name, n);
            return b;
        };
    }
}
