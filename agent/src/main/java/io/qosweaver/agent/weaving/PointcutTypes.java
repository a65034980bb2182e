package io.qosweaver.agent.weaving;

import io.qosweaver.model.pointcut.Pointcut;
import java.util.List;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/** Type matchers from pointcuts: a type is woven only if one of them can select a join point in it. */
public final class PointcutTypes {
    private PointcutTypes() {}

    /** A type can hold a join point of one of these pointcuts; an unresolvable type does not. */
    public static ElementMatcher.Junction<TypeDescription> canMatch(List<Pointcut> pointcuts) {
        List<Pointcut> copy = List.copyOf(pointcuts);
        return new ElementMatcher.Junction.AbstractBase<TypeDescription>() {
            @Override
            public boolean matches(TypeDescription t) {
                try {
                    var h = Hierarchies.of(t);
                    for (Pointcut p : copy) {
                        if (p.matchesType(t.getName(), h) != Pointcut.Tri.FALSE) {
                            return true;
                        }
                    }
                    return false;
                } catch (RuntimeException e) {
                    return false;
                }
            }
        };
    }
}
