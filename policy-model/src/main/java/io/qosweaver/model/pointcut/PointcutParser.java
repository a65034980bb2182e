package io.qosweaver.model.pointcut;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Recursive-descent parser for the AspectJ-like pointcut language of policy files.
 *
 * <pre>
 * pointcut   := or
 * or         := and ('||' and)*
 * and        := unary ('&amp;&amp;' unary)*
 * unary      := '!' unary | '(' pointcut ')' | designator
 * designator := ('execution' | 'call' | 'withincode') '(' method ')'
 * method     := ('!'? modifier)* returnType [declaringType '.'] name '(' [param (',' param)*] ')'
 * param      := '..' | typePattern
 * </pre>
 *
 * Errors carry the 1-based column of the offending token.
 */
public final class PointcutParser {
    private static final Set<String> MODIFIERS = Set.of(
            "public", "protected", "private", "static", "final", "synchronized", "native", "abstract");

    private final String src;
    private final List<Token> tokens;
    private int pos;

    private record Token(String text, int column) {
        boolean is(String s) {
            return text.equals(s);
        }
    }

    private PointcutParser(String src) {
        this.src = src;
        this.tokens = tokenize(src);
    }

    public static Pointcut parse(String text) {
        if (text == null || text.isBlank()) {
            throw new PointcutSyntaxException("empty pointcut", 1);
        }
        PointcutParser p = new PointcutParser(text);
        Pointcut result = p.or();
        Token t = p.peek();
        if (t != null && (t.is("&") || t.is("|"))) {
            throw new PointcutSyntaxException(
                    "'" + t.text() + "' is not an operator; use '" + t.text() + t.text() + "'", t.column());
        }
        if (t != null) {
            throw new PointcutSyntaxException("unexpected '" + t.text() + "' after a complete pointcut"
                    + (t.is(")") ? " (unbalanced parenthesis)" : ""), t.column());
        }
        return result;
    }

    private Pointcut or() {
        Pointcut left = and();
        while (peekIs("||")) {
            pos++;
            left = new Pointcut.Or(left, and());
        }
        return left;
    }

    private Pointcut and() {
        Pointcut left = unary();
        while (peekIs("&&")) {
            pos++;
            left = new Pointcut.And(left, unary());
        }
        return left;
    }

    private Pointcut unary() {
        Token t = next("a pointcut");
        if (t.is("!")) {
            return new Pointcut.Not(unary());
        }
        if (t.is("(")) {
            Pointcut inner = or();
            expect(")", "')' to close the '(' at column " + t.column());
            return inner;
        }
        Pointcut.Kind kind = switch (t.text()) {
            case "execution" -> Pointcut.Kind.EXECUTION;
            case "call" -> Pointcut.Kind.CALL;
            case "withincode" -> Pointcut.Kind.WITHINCODE;
            case "&", "|" -> throw new PointcutSyntaxException(
                    "'" + t.text() + "' is not an operator; use '" + t.text() + t.text() + "'", t.column());
            default -> throw new PointcutSyntaxException("expected execution(...), call(...) or withincode(...)"
                    + " but found '" + t.text() + "'", t.column());
        };
        expect("(", "'(' after " + t.text());
        MethodPattern pattern = method(t);
        expect(")", "')' to close " + t.text() + "(");
        return new Pointcut.Designator(kind, pattern, t.column());
    }

    private MethodPattern method(Token designator) {
        int start = pos;
        int required = 0;
        int forbidden = 0;
        List<Token> words = new ArrayList<>();
        while (true) {
            Token t = next("a method pattern");
            if (t.is("!")) {
                Token m = next("a modifier after '!'");
                if (!MODIFIERS.contains(m.text())) {
                    throw new PointcutSyntaxException("expected a modifier after '!' but found '" + m.text() + "'",
                            m.column());
                }
                forbidden |= MethodPattern.modifierBit(m.text());
            } else if (words.isEmpty() && MODIFIERS.contains(t.text())) {
                required |= MethodPattern.modifierBit(t.text());
            } else if (t.is("(")) {
                pos--;
                break;
            } else if (isWord(t)) {
                words.add(t);
            } else {
                throw new PointcutSyntaxException("unexpected '" + t.text() + "' in a method pattern", t.column());
            }
        }
        Token paren = peek();
        if (words.isEmpty()) {
            throw new PointcutSyntaxException("expected a return type pattern and a method name before '('",
                    paren.column());
        }
        if (words.size() == 1) {
            throw new PointcutSyntaxException("expected a return type pattern before '" + words.get(0).text()
                    + "' (use '*' for any)", words.get(0).column());
        }
        if (words.size() > 2) {
            throw new PointcutSyntaxException("unexpected '" + words.get(2).text()
                    + "': a method pattern is [modifiers] RETURN TYPE.NAME(PARAMS)", words.get(2).column());
        }
        TypePattern ret = typePattern(words.get(0));
        Token full = words.get(1);
        String s = full.text();
        int dot = s.lastIndexOf('.');
        TypePattern declaring;
        String name;
        if (dot < 0) {
            declaring = TypePattern.any();
            name = s;
        } else {
            if (dot == 0 || s.charAt(dot - 1) == '.') {
                throw new PointcutSyntaxException("expected a declaring type before '." + s.substring(dot + 1)
                        + "' ('..' must be followed by a type, e.g. org..*.name)", full.column() + dot);
            }
            declaring = typePattern(new Token(s.substring(0, dot), full.column()));
            name = s.substring(dot + 1);
        }
        if (name.isEmpty()) {
            throw new PointcutSyntaxException("expected a method name after '.'", full.column() + s.length());
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isJavaIdentifierPart(c) || c == '*')) {
                throw new PointcutSyntaxException("'" + c + "' is not allowed in a method name",
                        full.column() + dot + 1 + i);
            }
        }
        expect("(", "'(' to start the parameter list");
        List<TypePattern> params = new ArrayList<>();
        List<Boolean> ellipsis = new ArrayList<>();
        if (!peekIs(")")) {
            while (true) {
                Token p = next("a parameter type pattern or '..'");
                if (p.is("..")) {
                    params.add(TypePattern.any());
                    ellipsis.add(true);
                } else if (isWord(p)) {
                    params.add(typePattern(p));
                    ellipsis.add(false);
                } else {
                    throw new PointcutSyntaxException("expected a parameter type pattern or '..' but found '"
                            + p.text() + "'", p.column());
                }
                if (peekIs(",")) {
                    pos++;
                    continue;
                }
                break;
            }
        }
        Token close = expect(")", "')' or ',' in the parameter list");
        String text = src.substring(tokens.get(start).column() - 1, close.column()).strip();
        return new MethodPattern(required, forbidden, ret, declaring, name, params, ellipsis, text);
    }

    private static TypePattern typePattern(Token t) {
        String s = t.text();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = Character.isJavaIdentifierPart(c) || c == '*' || c == '.' || c == '[' || c == ']'
                    || (c == '+' && i == s.length() - 1);
            if (!ok) {
                throw new PointcutSyntaxException("'" + c + "' is not allowed in a type pattern", t.column() + i);
            }
        }
        if (s.contains("...")) {
            throw new PointcutSyntaxException("'...' in a type pattern (use '..')", t.column() + s.indexOf("..."));
        }
        if (s.startsWith(".") || s.endsWith(".")) {
            throw new PointcutSyntaxException("a type pattern cannot start or end with '.'",
                    t.column() + (s.startsWith(".") ? 0 : s.length() - 1));
        }
        return new TypePattern(s);
    }

    private static boolean isWord(Token t) {
        char c = t.text().charAt(0);
        return Character.isJavaIdentifierStart(c) || c == '*';
    }

    private Token peek() {
        return pos < tokens.size() ? tokens.get(pos) : null;
    }

    private boolean peekIs(String s) {
        Token t = peek();
        return t != null && t.is(s);
    }

    private Token next(String expected) {
        if (pos >= tokens.size()) {
            throw new PointcutSyntaxException("expected " + expected + " but the pointcut ended", src.length() + 1);
        }
        return tokens.get(pos++);
    }

    private Token expect(String s, String what) {
        Token t = next(what);
        if (!t.is(s)) {
            throw new PointcutSyntaxException("expected " + what + " but found '" + t.text() + "'", t.column());
        }
        return t;
    }

    private static List<Token> tokenize(String s) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (s.startsWith("&&", i) || s.startsWith("||", i) || s.startsWith("..", i)
                    && (i + 2 >= s.length() || !isWordChar(s.charAt(i + 2)))) {
                out.add(new Token(s.substring(i, i + 2), i + 1));
                i += 2;
            } else if (c == '(' || c == ')' || c == ',' || c == '!' || c == '&' || c == '|') {
                out.add(new Token(String.valueOf(c), i + 1));
                i++;
            } else if (isWordChar(c)) {
                int start = i;
                while (i < s.length() && isWordChar(s.charAt(i))) {
                    i++;
                }
                out.add(new Token(s.substring(start, i), start + 1));
            } else {
                throw new PointcutSyntaxException("unexpected character '" + c + "'", i + 1);
            }
        }
        return out;
    }

    private static boolean isWordChar(char c) {
        return Character.isJavaIdentifierPart(c) || c == '*' || c == '.' || c == '+' || c == '[' || c == ']';
    }
}
