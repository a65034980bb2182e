package io.qosweaver.model.pointcut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Modifier;
import java.util.List;
import org.junit.jupiter.api.Test;

class PointcutParserTest {

    /** A hierarchy where XYLineAndShapeRenderer implements XYItemRenderer. */
    private static final TypeHierarchy RENDERERS = (name, test) -> name.endsWith("XYLineAndShapeRenderer")
            && (test.test("org.jfree.chart.renderer.xy.AbstractXYItemRenderer")
                    || test.test("org.jfree.chart.renderer.xy.XYItemRenderer"));

    private static MethodSignature m(String owner, String name, String desc, int mods) {
        return MethodSignature.fromBytecode(owner.replace('.', '/'), name, desc, mods, RENDERERS);
    }

    private static final MethodSignature RENDER = m("org.jfree.chart.plot.XYPlot", "render",
            "(Ljava/awt/Graphics2D;Ljava/awt/geom/Rectangle2D;IILorg/jfree/chart/plot/PlotRenderingInfo;)Z",
            Modifier.PUBLIC);
    private static final MethodSignature DRAW_ITEM = m("org.jfree.chart.renderer.xy.XYItemRenderer", "drawItem",
            "(Ljava/awt/Graphics2D;IIII)V", 0);
    private static final MethodSignature DRAW_ITEM_IMPL = m("org.jfree.chart.renderer.xy.XYLineAndShapeRenderer",
            "drawItem", "(Ljava/awt/Graphics2D;IIII)V", 0);
    private static final MethodSignature COLLECT = m("org.rivermonitor.collector.Collector", "collect", "()V",
            Modifier.PUBLIC);

    @Test
    void executionWithFullSignature() {
        Pointcut p = PointcutParser.parse("execution(public void org.rivermonitor.collector.Collector.collect())");
        assertThat(p.matches(COLLECT, null)).isTrue();
        assertThat(p.matches(RENDER, null)).isFalse();
        assertThat(PointcutParser.parse("execution(static void org.rivermonitor..Collector.collect())")
                .matches(COLLECT, null)).isFalse();
        assertThat(PointcutParser.parse("execution(!static * org.rivermonitor..Collector.collect())")
                .matches(COLLECT, null)).isTrue();
    }

    @Test
    void wildcardsInTypesNamesAndPackages() {
        assertThat(PointcutParser.parse("execution(* org.rivermonitor..*.coll*(..))").matches(COLLECT, null)).isTrue();
        assertThat(PointcutParser.parse("execution(* org.*.Collector.collect())").matches(COLLECT, null)).isFalse();
        assertThat(PointcutParser.parse("execution(* org.*.*.Collector.collect())").matches(COLLECT, null)).isTrue();
        // no package: the simple name, like the paper's Fig. 9
        assertThat(PointcutParser.parse("execution(* Collector.collect())").matches(COLLECT, null)).isTrue();
        assertThat(PointcutParser.parse("execution(* collect())").matches(COLLECT, null)).isTrue();
        assertThat(PointcutParser.parse("execution(int collect())").matches(COLLECT, null)).isFalse();
    }

    @Test
    void parameterPatterns() {
        assertThat(PointcutParser.parse("execution(* XYPlot.render(..))").matches(RENDER, null)).isTrue();
        assertThat(PointcutParser.parse("execution(* XYPlot.render())").matches(RENDER, null)).isFalse();
        assertThat(PointcutParser.parse("execution(* XYPlot.render(java.awt.Graphics2D, ..))").matches(RENDER, null))
                .isTrue();
        assertThat(PointcutParser.parse("execution(* XYPlot.render(.., PlotRenderingInfo))").matches(RENDER, null))
                .isTrue();
        assertThat(PointcutParser.parse("execution(* XYPlot.render(Graphics2D, .., int, int, *))")
                .matches(RENDER, null)).isTrue();
        assertThat(PointcutParser.parse("execution(* XYPlot.render(int, ..))").matches(RENDER, null)).isFalse();
        assertThat(PointcutParser.parse("execution(boolean XYPlot.render(*, *, int, int, *))").matches(RENDER, null))
                .isTrue();
        MethodSignature arrays = m("a.B", "f", "([Ljava/lang/String;[[I)V", 0);
        assertThat(PointcutParser.parse("execution(void a.B.f(String[], int[][]))").matches(arrays, null)).isTrue();
        assertThat(PointcutParser.parse("execution(void a.B.f(String, ..))").matches(arrays, null)).isFalse();
    }

    @Test
    void callWithinCodeAndSubtypes() {
        Pointcut p = PointcutParser.parse("call(* org.jfree.chart.renderer.xy.XYItemRenderer+.drawItem(..))"
                + " && withincode(* org.jfree.chart.plot.XYPlot.render(..))");
        assertThat(p.matches(RENDER, DRAW_ITEM)).isTrue();
        assertThat(p.matches(RENDER, DRAW_ITEM_IMPL)).isTrue();
        assertThat(p.matches(COLLECT, DRAW_ITEM)).isFalse();
        assertThat(p.matches(RENDER, null)).isFalse(); // not a call join point
        assertThat(p.matchesMethod(RENDER)).isEqualTo(Pointcut.Tri.MAYBE);
        assertThat(p.matchesMethod(COLLECT)).isEqualTo(Pointcut.Tri.FALSE);
        assertThat(p.matchesType("org.jfree.chart.plot.XYPlot", null)).isNotEqualTo(Pointcut.Tri.FALSE);
        assertThat(p.matchesType("org.jfree.chart.plot.CategoryPlot", null)).isEqualTo(Pointcut.Tri.FALSE);
        // without '+' only the static owner matches
        Pointcut exact = PointcutParser.parse("call(* XYItemRenderer.drawItem(..))");
        assertThat(exact.matches(RENDER, DRAW_ITEM)).isTrue();
        assertThat(exact.matches(RENDER, DRAW_ITEM_IMPL)).isFalse();
        assertThat(PointcutParser.parse("call(static * drawItem(..))").matches(RENDER, DRAW_ITEM)).isFalse();
    }

    @Test
    void orNotAndParentheses() {
        Pointcut p = PointcutParser.parse("(withincode(* XYPlot.render(..)) || withincode(* Collector.*(..)))"
                + " && !call(* *.drawItem(..)) && call(* *(..))");
        MethodSignature other = m("java.util.List", "size", "()I", 0);
        assertThat(p.matches(RENDER, other)).isTrue();
        assertThat(p.matches(COLLECT, other)).isTrue();
        assertThat(p.matches(RENDER, DRAW_ITEM)).isFalse();
        assertThat(p.designators()).hasSize(4);
        assertThat(p.designators().get(0).column()).isEqualTo(2);
        // && binds tighter than ||
        Pointcut q = PointcutParser.parse("call(* a.B.x()) || call(* a.B.y()) && withincode(* c.D.z())");
        assertThat(q).isInstanceOf(Pointcut.Or.class);
        assertThat(List.of(q.matches(m("c.E", "w", "()V", 0), m("a.B", "x", "()V", 0)))).containsExactly(true);
    }

    @Test
    void typeMatchingWithNotIsOnlyMaybe() {
        Pointcut p = PointcutParser.parse("call(* *(..)) && !withincode(* XYPlot.render(..))");
        assertThat(p.matchesType("org.jfree.chart.plot.XYPlot", null)).isEqualTo(Pointcut.Tri.MAYBE);
        assertThat(p.matchesMethod(RENDER)).isEqualTo(Pointcut.Tri.FALSE);
    }

    @Test
    void errorsCarryTheColumn() {
        assertError("", 1, "empty pointcut");
        assertError("execution(void a.B.c()", 23, "expected ')' to close execution(");
        assertError("executon(void a.B.c())", 1, "expected execution(...), call(...) or withincode(...)");
        assertError("call(* a.B.c()) & withincode(* x(..))", 17, "'&' is not an operator; use '&&'");
        assertError("call(* a.B.c()) withincode(* x(..))", 17, "after a complete pointcut");
        assertError("call(a.B.c())", 6, "expected a return type pattern before 'a.B.c'");
        assertError("call(* a.B.c(int,))", 18, "expected a parameter type pattern or '..'");
        assertError("call(* a.B.c(int x))", 18, "')' or ','");
        assertError("call(* a.B.c-d())", 13, "unexpected character '-'");
        assertError("call(* a..c())", 10, "expected a declaring type before '.c'");
        assertError("call(* a.B+x.c())", 11, "'+' is not allowed in a type pattern");
        assertError("(call(* a.B.c())", 17, "expected ')' to close the '(' at column 1");
        assertError("call(* a.B.c()))", 16, "unbalanced parenthesis");
        assertError("call(!foo * a.B.c())", 7, "expected a modifier after '!'");
        assertError("call(* a.B.c()) &&", 19, "but the pointcut ended");
    }

    private static void assertError(String text, int column, String message) {
        assertThatThrownBy(() -> PointcutParser.parse(text))
                .isInstanceOfSatisfying(PointcutSyntaxException.class, e -> {
                    assertThat(e.problem()).contains(message);
                    assertThat(e.column()).as("column of: %s", e.getMessage()).isEqualTo(column);
                });
    }
}
