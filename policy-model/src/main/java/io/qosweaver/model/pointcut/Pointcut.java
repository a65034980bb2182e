package io.qosweaver.model.pointcut;

import java.util.ArrayList;
import java.util.List;

/**
 * A parsed pointcut: designators combined with {@code &&}, {@code ||} and {@code !}.
 *
 * <p>Three questions are asked of it, from cheapest to most precise, so that weaving stays
 * filtered (only the join points the policy names get a hook): can a type hold a join point at
 * all ({@link #matchesType}), can a method hold one whatever it calls ({@link #matchesMethod}),
 * and does this join point match ({@link #matches}). The first two answer in three values,
 * because a {@code call} is unknown until the method body is read.
 */
public sealed interface Pointcut {

    enum Tri {
        TRUE, FALSE, MAYBE;

        Tri and(Tri o) {
            if (this == FALSE || o == FALSE) {
                return FALSE;
            }
            return this == TRUE && o == TRUE ? TRUE : MAYBE;
        }

        Tri or(Tri o) {
            if (this == TRUE || o == TRUE) {
                return TRUE;
            }
            return this == FALSE && o == FALSE ? FALSE : MAYBE;
        }

        Tri not() {
            return this == TRUE ? FALSE : this == FALSE ? TRUE : MAYBE;
        }

        static Tri of(boolean b) {
            return b ? TRUE : FALSE;
        }
    }

    enum Kind {
        EXECUTION("execution"), CALL("call"), WITHINCODE("withincode");

        final String keyword;

        Kind(String keyword) {
            this.keyword = keyword;
        }
    }

    /**
     * Does the join point match? {@code call == null}: the execution of {@code method};
     * otherwise a call to {@code call} from inside the body of {@code method}.
     */
    boolean matches(MethodSignature method, MethodSignature call);

    /** For call join points inside {@code method}, before its calls are known. */
    Tri matchesMethod(MethodSignature method);

    /** Could a method declared by this type hold a matching join point? */
    Tri matchesType(String binaryName, TypeHierarchy hierarchy);

    /** The designators, left to right. */
    default List<Designator> designators() {
        List<Designator> out = new ArrayList<>();
        collect(this, out);
        return out;
    }

    private static void collect(Pointcut p, List<Designator> out) {
        if (p instanceof Designator d) {
            out.add(d);
        } else if (p instanceof And a) {
            collect(a.left(), out);
            collect(a.right(), out);
        } else if (p instanceof Or o) {
            collect(o.left(), out);
            collect(o.right(), out);
        } else if (p instanceof Not n) {
            collect(n.operand(), out);
        }
    }

    /** {@code execution(...)}, {@code call(...)} or {@code withincode(...)}. */
    record Designator(Kind kind, MethodPattern pattern, int column) implements Pointcut {
        @Override
        public boolean matches(MethodSignature method, MethodSignature call) {
            return switch (kind) {
                case EXECUTION -> call == null && pattern.matches(method);
                case WITHINCODE -> pattern.matches(method);
                case CALL -> call != null && pattern.matches(call);
            };
        }

        @Override
        public Tri matchesMethod(MethodSignature method) {
            return switch (kind) {
                case EXECUTION -> Tri.FALSE;
                case WITHINCODE -> Tri.of(pattern.matches(method));
                case CALL -> Tri.MAYBE;
            };
        }

        @Override
        public Tri matchesType(String binaryName, TypeHierarchy hierarchy) {
            if (kind == Kind.CALL) {
                return Tri.MAYBE;
            }
            return pattern.couldMatchType(binaryName, hierarchy) ? Tri.MAYBE : Tri.FALSE;
        }

        @Override
        public String toString() {
            return kind.keyword + "(" + pattern + ")";
        }
    }

    record And(Pointcut left, Pointcut right) implements Pointcut {
        @Override
        public boolean matches(MethodSignature method, MethodSignature call) {
            return left.matches(method, call) && right.matches(method, call);
        }

        @Override
        public Tri matchesMethod(MethodSignature method) {
            return left.matchesMethod(method).and(right.matchesMethod(method));
        }

        @Override
        public Tri matchesType(String binaryName, TypeHierarchy hierarchy) {
            Tri l = left.matchesType(binaryName, hierarchy);
            return l == Tri.FALSE ? l : l.and(right.matchesType(binaryName, hierarchy));
        }

        @Override
        public String toString() {
            return "(" + left + " && " + right + ")";
        }
    }

    record Or(Pointcut left, Pointcut right) implements Pointcut {
        @Override
        public boolean matches(MethodSignature method, MethodSignature call) {
            return left.matches(method, call) || right.matches(method, call);
        }

        @Override
        public Tri matchesMethod(MethodSignature method) {
            return left.matchesMethod(method).or(right.matchesMethod(method));
        }

        @Override
        public Tri matchesType(String binaryName, TypeHierarchy hierarchy) {
            return left.matchesType(binaryName, hierarchy).or(right.matchesType(binaryName, hierarchy));
        }

        @Override
        public String toString() {
            return "(" + left + " || " + right + ")";
        }
    }

    record Not(Pointcut operand) implements Pointcut {
        @Override
        public boolean matches(MethodSignature method, MethodSignature call) {
            return !operand.matches(method, call);
        }

        @Override
        public Tri matchesMethod(MethodSignature method) {
            return operand.matchesMethod(method).not();
        }

        @Override
        public Tri matchesType(String binaryName, TypeHierarchy hierarchy) {
            // a type-level FALSE only says "no method here matches the operand", so !operand is
            // MAYBE rather than TRUE: whether a join point exists still depends on the method.
            return Tri.MAYBE;
        }

        @Override
        public String toString() {
            return "!" + operand;
        }
    }
}
