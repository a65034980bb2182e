package io.qosweaver.model.signature;

import java.util.ArrayList;
import java.util.List;

/**
 * Bytecode descriptors ({@code (I[Ljava/lang/String;)V}) decoded to the binary names that
 * signatures and pointcuts use ({@code int}, {@code java.lang.String[]}, {@code void}). The one
 * decoder of the project: the weaver, the profiler's probe and the class-file reader of the
 * generator all go through it.
 */
public final class Descriptors {
    private Descriptors() {}

    /**
     * The parameter types of a method descriptor, in order.
     *
     * @throws IllegalArgumentException when {@code methodDescriptor} is not one
     */
    public static List<String> parameterTypes(String methodDescriptor) {
        int close = close(methodDescriptor);
        List<String> params = new ArrayList<>();
        int i = 1;
        while (i < close) {
            int end = endOfType(methodDescriptor, i);
            if (end > close) {
                throw bad(methodDescriptor);
            }
            params.add(toName(methodDescriptor.substring(i, end)));
            i = end;
        }
        return params;
    }

    /**
     * The return type of a method descriptor ({@code void} for {@code V}).
     *
     * @throws IllegalArgumentException when {@code methodDescriptor} is not one
     */
    public static String returnType(String methodDescriptor) {
        return toName(methodDescriptor.substring(close(methodDescriptor) + 1));
    }

    /**
     * One field descriptor to its binary name: {@code [Ljava/lang/String;} to
     * {@code java.lang.String[]}, {@code I} to {@code int}.
     *
     * @throws IllegalArgumentException when {@code d} is not one
     */
    public static String toName(String d) {
        int dims = 0;
        while (dims < d.length() && d.charAt(dims) == '[') {
            dims++;
        }
        if (dims == d.length()) {
            throw bad(d);
        }
        String base = switch (d.charAt(dims)) {
            case 'V' -> "void";
            case 'Z' -> "boolean";
            case 'B' -> "byte";
            case 'C' -> "char";
            case 'S' -> "short";
            case 'I' -> "int";
            case 'J' -> "long";
            case 'F' -> "float";
            case 'D' -> "double";
            case 'L' -> {
                if (d.length() < dims + 3 || d.charAt(d.length() - 1) != ';') {
                    throw bad(d);
                }
                yield d.substring(dims + 1, d.length() - 1).replace('/', '.');
            }
            default -> throw bad(d);
        };
        if (d.charAt(dims) != 'L' && d.length() != dims + 1) {
            throw bad(d);
        }
        return base + "[]".repeat(dims);
    }

    private static int close(String methodDescriptor) {
        int close = methodDescriptor.indexOf(')');
        if (methodDescriptor.isEmpty() || methodDescriptor.charAt(0) != '(' || close < 0
                || close == methodDescriptor.length() - 1) {
            throw bad(methodDescriptor);
        }
        return close;
    }

    private static int endOfType(String d, int i) {
        while (d.charAt(i) == '[') {
            i++;
        }
        if (d.charAt(i) != 'L') {
            return i + 1;
        }
        int semi = d.indexOf(';', i);
        if (semi < 0) {
            throw bad(d);
        }
        return semi + 1;
    }

    private static IllegalArgumentException bad(String d) {
        return new IllegalArgumentException("not a bytecode descriptor: '" + d + "'");
    }
}
