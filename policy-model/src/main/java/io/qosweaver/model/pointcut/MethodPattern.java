package io.qosweaver.model.pointcut;

import java.lang.reflect.Modifier;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code MODIFIERS? RET TYPE.NAME(PARAMS)}. Modifiers are required ones ({@code public static});
 * {@code !static} forbids one. A parameter list element {@code ..} is any number of parameters.
 */
public final class MethodPattern {
    private final int requiredModifiers;
    private final int forbiddenModifiers;
    private final TypePattern returnType;
    private final TypePattern declaringType;
    private final String namePattern;
    private final Pattern nameRegex;
    private final List<TypePattern> parameters;
    private final List<Boolean> parameterIsEllipsis;
    private final String text;

    MethodPattern(int requiredModifiers, int forbiddenModifiers, TypePattern returnType,
            TypePattern declaringType, String namePattern, List<TypePattern> parameters,
            List<Boolean> parameterIsEllipsis, String text) {
        this.requiredModifiers = requiredModifiers;
        this.forbiddenModifiers = forbiddenModifiers;
        this.returnType = returnType;
        this.declaringType = declaringType;
        this.namePattern = namePattern;
        this.nameRegex = namePattern.equals("*") ? null
                : Pattern.compile(Pattern.quote(namePattern).replace("*", "\\E.*\\Q"));
        this.parameters = List.copyOf(parameters);
        this.parameterIsEllipsis = List.copyOf(parameterIsEllipsis);
        this.text = text;
    }

    public TypePattern declaringType() {
        return declaringType;
    }

    public String namePattern() {
        return namePattern;
    }

    public String text() {
        return text;
    }

    public boolean matches(MethodSignature m) {
        if ((m.modifiers() & requiredModifiers) != requiredModifiers
                || (m.modifiers() & forbiddenModifiers) != 0) {
            return false;
        }
        if (nameRegex != null && !nameRegex.matcher(m.name()).matches()) {
            return false;
        }
        if (!returnType.matches(m.returnType(), null)) {
            return false;
        }
        if (!paramsMatch(0, m.parameterTypes(), 0)) {
            return false;
        }
        // last: the only check that may walk the type hierarchy
        return declaringType.matches(m.declaringType(), m.hierarchy());
    }

    /** Whether a method of this type can match at all (the type-level pre-filter). */
    public boolean couldMatchType(String binaryName, TypeHierarchy hierarchy) {
        return declaringType.matches(binaryName, hierarchy);
    }

    private boolean paramsMatch(int pi, List<String> actual, int ai) {
        if (pi == parameters.size()) {
            return ai == actual.size();
        }
        if (parameterIsEllipsis.get(pi)) {
            for (int skip = ai; skip <= actual.size(); skip++) {
                if (paramsMatch(pi + 1, actual, skip)) {
                    return true;
                }
            }
            return false;
        }
        return ai < actual.size()
                && parameters.get(pi).matches(actual.get(ai), null)
                && paramsMatch(pi + 1, actual, ai + 1);
    }

    static int modifierBit(String word) {
        return switch (word) {
            case "public" -> Modifier.PUBLIC;
            case "protected" -> Modifier.PROTECTED;
            case "private" -> Modifier.PRIVATE;
            case "static" -> Modifier.STATIC;
            case "final" -> Modifier.FINAL;
            case "synchronized" -> Modifier.SYNCHRONIZED;
            case "native" -> Modifier.NATIVE;
            case "abstract" -> Modifier.ABSTRACT;
            default -> 0;
        };
    }

    @Override
    public String toString() {
        return text;
    }
}
