package io.qosweaver.agent.pointcut;

import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

/**
 * What a method pattern is matched against: a method (for execution and withincode) or the
 * callee of a call instruction (for call). Types are binary names, arrays as {@code int[]}.
 *
 * @param modifiers {@link Modifier} bits; for a call site only {@code STATIC} is known
 * @param hierarchy supertypes of {@code declaringType}, for {@code +}; may be null
 */
public record MethodSignature(
        String declaringType,
        String name,
        String returnType,
        List<String> parameterTypes,
        int modifiers,
        TypeHierarchy hierarchy) {

    /** Builds a signature from bytecode names: owner {@code a/b/C}, descriptor {@code (I)V}. */
    public static MethodSignature fromBytecode(
            String internalOwner, String name, String descriptor, int modifiers, TypeHierarchy hierarchy) {
        List<String> params = new ArrayList<>();
        int i = 1;
        while (descriptor.charAt(i) != ')') {
            int end = endOfType(descriptor, i);
            params.add(descriptorToName(descriptor.substring(i, end)));
            i = end;
        }
        String ret = descriptorToName(descriptor.substring(i + 1));
        return new MethodSignature(
                internalOwner.replace('/', '.'), name, ret, List.copyOf(params), modifiers, hierarchy);
    }

    private static int endOfType(String d, int i) {
        while (d.charAt(i) == '[') {
            i++;
        }
        return d.charAt(i) == 'L' ? d.indexOf(';', i) + 1 : i + 1;
    }

    /** {@code [Ljava/lang/String;} to {@code java.lang.String[]}. */
    public static String descriptorToName(String d) {
        int dims = 0;
        while (d.charAt(dims) == '[') {
            dims++;
        }
        String base;
        switch (d.charAt(dims)) {
            case 'V' -> base = "void";
            case 'Z' -> base = "boolean";
            case 'B' -> base = "byte";
            case 'C' -> base = "char";
            case 'S' -> base = "short";
            case 'I' -> base = "int";
            case 'J' -> base = "long";
            case 'F' -> base = "float";
            case 'D' -> base = "double";
            default -> base = d.substring(dims + 1, d.length() - 1).replace('/', '.');
        }
        return base + "[]".repeat(dims);
    }
}
