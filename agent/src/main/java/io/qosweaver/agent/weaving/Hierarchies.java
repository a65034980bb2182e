package io.qosweaver.agent.weaving;

import io.qosweaver.model.pointcut.MethodSignature;
import io.qosweaver.model.pointcut.TypeHierarchy;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Predicate;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.pool.TypePool;

/**
 * Supertype walks for {@code +} patterns, from Byte Buddy type descriptions (which resolve
 * lazily through the class file locator, without loading classes). A type that cannot be
 * resolved simply does not match: weaving must never fail because a library is missing.
 */
public final class Hierarchies {
    private Hierarchies() {}

    public static TypeHierarchy of(TypeDescription type) {
        return (name, test) -> {
            try {
                return anySuper(type, test, new HashSet<>());
            } catch (RuntimeException | LinkageError e) {
                return false;
            }
        };
    }

    public static TypeHierarchy of(TypePool pool) {
        return (name, test) -> {
            try {
                TypePool.Resolution r = pool.describe(name);
                return r.isResolved() && anySuper(r.resolve(), test, new HashSet<>());
            } catch (RuntimeException | LinkageError e) {
                return false;
            }
        };
    }

    private static boolean anySuper(TypeDescription t, Predicate<String> test, Set<String> seen) {
        TypeDescription.Generic sup = t.getSuperClass();
        if (sup != null && visit(sup.asErasure(), test, seen)) {
            return true;
        }
        for (TypeDescription.Generic i : t.getInterfaces()) {
            if (visit(i.asErasure(), test, seen)) {
                return true;
            }
        }
        return false;
    }

    private static boolean visit(TypeDescription s, Predicate<String> test, Set<String> seen) {
        return seen.add(s.getName()) && (test.test(s.getName()) || anySuper(s, test, seen));
    }

    public static MethodSignature signature(MethodDescription m) {
        TypeDescription owner = m.getDeclaringType().asErasure();
        return MethodSignature.fromBytecode(owner.getInternalName(), m.getInternalName(), m.getDescriptor(),
                m.getModifiers(), of(owner));
    }
}
