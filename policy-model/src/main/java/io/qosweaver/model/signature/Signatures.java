package io.qosweaver.model.signature;

import java.util.ArrayList;
import java.util.List;

/**
 * The canonical text of a method signature, as profiles store it and as pointcuts name it.
 *
 * <pre>
 * signature := type ' ' declType '.' name '(' [type (', ' type)*] ')'
 * type      := (primitive | 'void' | binaryName) ('[]')*
 * </pre>
 *
 * Types are fully qualified binary names: a nested class is {@code a.b.Outer$Inner}, an array is
 * {@code int[]} or {@code java.lang.String[][]}. A constructor is named {@code <init>} and a static
 * initializer {@code <clinit>} (the JVM's names), so that a profile can record them; the pointcut
 * language cannot name them, so the generator never proposes them (see {@link PointcutGenerator}).
 * Example: {@code org.jfree.data.Range org.jfree.data.Range.combine(org.jfree.data.Range, org.jfree.data.Range)}.
 *
 * <p>{@link #canonicalize} accepts any amount of white space around the separators and returns
 * the canonical form above (exactly one space after the return type, {@code ", "} between
 * parameters, nothing else), so two spellings of one method intern to one id.
 */
public final class Signatures {
    private Signatures() {}

    /** From bytecode names: owner {@code a/b/C}, name, descriptor {@code (I[Ljava/lang/String;)V}. */
    public static String fromDescriptor(String internalOwner, String name, String descriptor) {
        return Descriptors.returnType(descriptor) + ' ' + internalOwner.replace('/', '.') + '.' + name + '('
                + String.join(", ", Descriptors.parameterTypes(descriptor)) + ')';
    }

    /**
     * The signature without its declaring type, {@code RET NAME(PARAMS)}: what a call site and a
     * profiled callee agree on even when the profile recorded the receiver's class and the
     * bytecode the symbolic reference's class.
     */
    public static String withoutDeclaringType(String canonical) {
        int open = canonical.indexOf('(');
        int dot = canonical.lastIndexOf('.', open);
        int space = canonical.indexOf(' ');
        return canonical.substring(0, space + 1) + canonical.substring(dot + 1);
    }

    /** The declaring type of a canonical signature, {@code a.b.C}. */
    public static String declaringType(String canonical) {
        int open = canonical.indexOf('(');
        int dot = canonical.lastIndexOf('.', open);
        return canonical.substring(canonical.indexOf(' ') + 1, dot);
    }

    /** True for {@code <init>} and {@code <clinit>}, which no pointcut of ours can name. */
    public static boolean isInitializer(String canonical) {
        int open = canonical.indexOf('(');
        return open > 0 && canonical.charAt(open - 1) == '>';
    }

    /**
     * Validates {@code text} as one signature and returns its canonical form.
     *
     * @throws IllegalArgumentException with a message that says what is wrong
     */
    public static String canonicalize(String text) {
        String s = text.strip();
        int open = s.indexOf('(');
        if (open < 0 || !s.endsWith(")")) {
            throw new IllegalArgumentException("not a method signature (expected 'RET TYPE.NAME(PARAMS)'): '" + text + "'");
        }
        String head = s.substring(0, open).strip();
        int space = lastWhitespace(head);
        if (space < 0) {
            throw new IllegalArgumentException("missing return type in '" + text + "'");
        }
        String ret = head.substring(0, space).strip();
        String qualified = head.substring(space + 1);
        checkType(ret, text, true);
        int dot = qualified.lastIndexOf('.');
        if (dot <= 0 || dot == qualified.length() - 1) {
            throw new IllegalArgumentException("method name must be qualified by its declaring type (TYPE.NAME) in '" + text + "'");
        }
        checkType(qualified.substring(0, dot), text, false);
        String name = qualified.substring(dot + 1);
        if (!isMethodName(name)) {
            throw new IllegalArgumentException("bad method name '" + name + "' in '" + text + "'");
        }
        String inner = s.substring(open + 1, s.length() - 1);
        List<String> params = new ArrayList<>();
        if (!inner.isBlank()) {
            for (String p : inner.split(",", -1)) {
                String t = p.strip();
                checkType(t, text, false);
                params.add(t);
            }
        }
        return ret + ' ' + qualified + '(' + String.join(", ", params) + ')';
    }

    private static int lastWhitespace(String s) {
        for (int i = s.length() - 1; i >= 0; i--) {
            if (Character.isWhitespace(s.charAt(i))) {
                return i;
            }
        }
        return -1;
    }

    private static void checkType(String t, String text, boolean voidAllowed) {
        String base = t;
        while (base.endsWith("[]")) {
            base = base.substring(0, base.length() - 2);
        }
        boolean ok = !base.isEmpty() && !base.startsWith(".") && !base.endsWith(".") && !base.contains("..");
        for (int i = 0; ok && i < base.length(); i++) {
            char c = base.charAt(i);
            ok = c == '.' || Character.isJavaIdentifierPart(c);
        }
        if (!ok) {
            throw new IllegalArgumentException("bad type '" + t + "' in '" + text + "'");
        }
        if (base.equals("void") && (!voidAllowed || !t.equals("void"))) {
            throw new IllegalArgumentException("'void' is only a return type, in '" + text + "'");
        }
    }

    private static boolean isMethodName(String n) {
        if (n.equals("<init>") || n.equals("<clinit>")) {
            return true;
        }
        if (n.isEmpty() || !Character.isJavaIdentifierStart(n.charAt(0))) {
            return false;
        }
        for (int i = 1; i < n.length(); i++) {
            if (!Character.isJavaIdentifierPart(n.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
