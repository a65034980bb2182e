package io.qosweaver.model.pointcut;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Literal patterns are compared as strings; they must select exactly what the wildcard rules would. */
class TypePatternTest {

    @Test
    void aQualifiedLiteralMatchesOnlyThatName() {
        TypePattern p = new TypePattern("org.jfree.data.Range");
        assertThat(p.matchesName("org.jfree.data.Range")).isTrue();
        assertThat(p.matchesName("org.jfree.data.RangeType")).isFalse();
        assertThat(p.matchesName("xorg.jfree.data.Range")).isFalse();
        assertThat(p.matchesName("org.jfree.data.Range$Inner")).isFalse();
        assertThat(p.exactName()).isEqualTo("org.jfree.data.Range");
    }

    @Test
    void aSimpleLiteralMatchesTheLastSegmentOnly() {
        TypePattern p = new TypePattern("Range");
        assertThat(p.matchesName("org.jfree.data.Range")).isTrue();
        assertThat(p.matchesName("Range")).isTrue();
        assertThat(p.matchesName("org.jfree.data.DateRange")).isFalse();
        assertThat(p.matchesName("org.jfree.data.Range$Inner")).isFalse();
        // a nested class's simple name as a binary name sees it: Outer$Inner, not Inner
        assertThat(new TypePattern("Inner").matchesName("a.Outer$Inner")).isFalse();
        assertThat(new TypePattern("Outer$Inner").matchesName("a.Outer$Inner")).isTrue();
        assertThat(p.exactName()).isNull();
    }

    @Test
    void primitivesAndArraysAreLiteralsToo() {
        assertThat(new TypePattern("int").matchesName("int")).isTrue();
        assertThat(new TypePattern("int").matchesName("a.int")).isFalse();
        assertThat(new TypePattern("String[]").matchesName("java.lang.String[]")).isTrue();
        assertThat(new TypePattern("Rang*").matchesName("org.jfree.data.RangeType")).isTrue();
    }

    @Test
    void subtypesStillWalkTheHierarchyForLiterals() {
        TypePattern p = new TypePattern("javax.servlet.Servlet+");
        TypeHierarchy h = (name, test) -> test.test("javax.servlet.Servlet");
        assertThat(p.matches("org.app.MyServlet", h)).isTrue();
        assertThat(p.matches("org.app.MyServlet", null)).isFalse();
    }
}
