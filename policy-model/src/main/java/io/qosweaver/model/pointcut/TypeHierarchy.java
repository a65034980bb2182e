package io.qosweaver.model.pointcut;

import java.util.function.Predicate;

/** Answers {@code +} patterns: does any proper supertype (class or interface) of a type match? */
@FunctionalInterface
public interface TypeHierarchy {
    boolean anySuperType(String binaryName, Predicate<String> test);
}
