package io.qosweaver.model.pointcut;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * A type pattern as in AspectJ, on binary names ({@code a.b.Outer$Inner}, {@code int[]}):
 * {@code *} is any run of characters without a dot, {@code ..} is any sequence of packages,
 * a trailing {@code +} also accepts every subtype. A pattern with no dot (other than a lone
 * {@code *} or a primitive) is matched against the simple name, because policy files, like the
 * paper's Fig. 9, usually omit package names: {@code Range} matches {@code org.jfree.data.Range}.
 */
public final class TypePattern {
    private static final Set<String> PRIMITIVES =
            Set.of("void", "boolean", "byte", "char", "short", "int", "long", "float", "double");

    private final String text;
    private final boolean subtypes;
    private final boolean any;
    private final boolean simpleName;
    /** Null when the pattern has no wildcard: then {@link #literal} is compared, without a regex. */
    private final Pattern regex;
    /** The name (or simple name) a pattern without wildcards must equal. */
    private final String literal;
    private final String exactName;

    TypePattern(String text) {
        this.text = text;
        String body = text;
        this.subtypes = body.endsWith("+");
        if (subtypes) {
            body = body.substring(0, body.length() - 1);
        }
        this.any = body.equals("*");
        this.simpleName = !any && body.indexOf('.') < 0 && !PRIMITIVES.contains(stripArrays(body));
        boolean wild = body.indexOf('*') >= 0 || body.indexOf("..") >= 0;
        // Most generated patterns name one type: a string comparison, not a regex, because a
        // weaving or a swap matches every pattern against every loaded class.
        this.regex = any || !wild ? null : Pattern.compile(toRegex(body));
        this.literal = any || wild ? null : body;
        this.exactName = body.indexOf('*') < 0 && body.indexOf("..") < 0 && !simpleName ? body : null;
    }

    static TypePattern any() {
        return new TypePattern("*");
    }

    public String text() {
        return text;
    }

    public boolean isAny() {
        return any && !subtypes;
    }

    public boolean subtypes() {
        return subtypes;
    }

    /** The fully qualified name when the pattern names exactly one type (else null). */
    public String exactName() {
        return exactName;
    }

    /** Whether this name itself matches, ignoring {@code +}. */
    public boolean matchesName(String binaryName) {
        if (any) {
            return true;
        }
        if (literal != null) {
            if (!simpleName) {
                return literal.equals(binaryName);
            }
            int start = binaryName.length() - literal.length();
            return start >= 0 && binaryName.startsWith(literal, start)
                    && (start == 0 || binaryName.charAt(start - 1) == '.');
        }
        String candidate = binaryName;
        if (simpleName) {
            int dot = candidate.lastIndexOf('.');
            candidate = dot < 0 ? candidate : candidate.substring(dot + 1);
        }
        return regex.matcher(candidate).matches();
    }

    /** Matches a type, using {@code hierarchy} for {@code +} (may be null when there is none). */
    public boolean matches(String binaryName, TypeHierarchy hierarchy) {
        if (matchesName(binaryName)) {
            return true;
        }
        return subtypes && hierarchy != null && hierarchy.anySuperType(binaryName, this::matchesName);
    }

    private static String stripArrays(String s) {
        while (s.endsWith("[]")) {
            s = s.substring(0, s.length() - 2);
        }
        return s;
    }

    private static String toRegex(String body) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '.' && i + 1 < body.length() && body.charAt(i + 1) == '.') {
                // "a..b": a, then any number of packages, then b
                sb.append("\\.(?:[^.]*\\.)*");
                i++;
            } else if (c == '*') {
                sb.append("[^.]*");
            } else {
                sb.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return text;
    }
}
