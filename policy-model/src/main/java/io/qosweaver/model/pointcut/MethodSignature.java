package io.qosweaver.model.pointcut;

import io.qosweaver.model.signature.Descriptors;
import io.qosweaver.model.signature.Signatures;
import java.lang.reflect.Modifier;
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
        return new MethodSignature(internalOwner.replace('/', '.'), name, Descriptors.returnType(descriptor),
                List.copyOf(Descriptors.parameterTypes(descriptor)), modifiers, hierarchy);
    }

    /**
     * From a signature's text ({@code int[] a.B$C.f(long, java.lang.String)}, the form of
     * {@link Signatures}, as profiles store it): modifiers unknown (0), no hierarchy.
     *
     * @throws IllegalArgumentException when {@code text} is not a signature
     */
    public static MethodSignature parse(String text) {
        String c = Signatures.canonicalize(text);
        int open = c.indexOf('(');
        int space = c.indexOf(' ');
        int dot = c.lastIndexOf('.', open);
        String params = c.substring(open + 1, c.length() - 1);
        return new MethodSignature(c.substring(space + 1, dot), c.substring(dot + 1, open), c.substring(0, space),
                params.isEmpty() ? List.of() : List.of(params.split(", ")), 0, null);
    }
}
