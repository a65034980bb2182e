package io.qosweaver.model.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PolicyTextTest {
    private static final String FILE = """
            # header
            taskClasses:
              - name: chart
                servletPath: /chart   # controlPoints: not a key
                importance: low
            # the control points, by hand
            # (two lines of comment)
            controlPoints:
              - "call(void a.B.c()) && withincode(void a.B.d())"
              # a commented-out one
              - "call(void a.B.e()) && withincode(void a.B.d())"

            # the policy
            policy:
              name: importance
            """;

    private static final String NEW = "# generated\ncontrolPoints:\n  - \"call(int x.Y.z()) && withincode(void x.Y.w())\"\n";

    @Test
    void replacesTheSectionWithItsCommentsAndKeepsEverythingElse() throws Exception {
        String out = PolicyText.replaceSection("p.yaml", FILE, "controlPoints", NEW);
        assertThat(out).isEqualTo("""
                # header
                taskClasses:
                  - name: chart
                    servletPath: /chart   # controlPoints: not a key
                    importance: low
                # generated
                controlPoints:
                  - "call(int x.Y.z()) && withincode(void x.Y.w())"

                # the policy
                policy:
                  name: importance
                """);
        PolicyFile p = PolicyFile.parse("p.yaml", out);
        assertThat(p.controlPoints()).extracting(PolicyFile.ControlPointDef::text)
                .containsExactly("call(int x.Y.z()) && withincode(void x.Y.w())");
    }

    @Test
    void aLastSectionRunsToTheEndAndAMissingOneIsAppended() throws Exception {
        String last = "taskClasses:\n  - name: t\n    servletPath: /t\npolicy:\n  name: importance\n"
                + "controlPoints:\n  - \"call(void a.B.c()) && withincode(void a.B.d())\"\n";
        assertThat(PolicyText.replaceSection("p.yaml", last, "controlPoints", "controlPoints: []"))
                .isEqualTo("taskClasses:\n  - name: t\n    servletPath: /t\npolicy:\n  name: importance\ncontrolPoints: []\n");
        String none = "taskClasses:\n  - name: t\n    servletPath: /t\npolicy:\n  name: importance";
        assertThat(PolicyText.replaceSection("p.yaml", none, "controlPoints", NEW)).isEqualTo(none + "\n" + NEW);
    }

    @Test
    void aFlowStyleSectionOnOneLineIsReplacedToo() throws Exception {
        String flow = "taskClasses: [{name: t, servletPath: /t}]\ncontrolPoints: [\"call(void a.B.c()) && withincode(void a.B.d())\"]\n"
                + "policy: {name: importance}\n";
        String out = PolicyText.replaceSection("p.yaml", flow, "controlPoints", NEW);
        assertThat(out).isEqualTo("taskClasses: [{name: t, servletPath: /t}]\n" + NEW + "policy: {name: importance}\n");
        assertThat(PolicyFile.parse("p.yaml", out).controlPoints()).hasSize(1);
    }

    @Test
    void refusesWhatItCannotEditSafely() {
        assertThatThrownBy(() -> PolicyText.replaceSection("p.yaml", "{taskClasses: [], policy: {}}", "controlPoints", NEW))
                .isInstanceOf(PolicyFileException.class).hasMessageContaining("p.yaml:1: not a policy file in block style");
        assertThatThrownBy(() -> PolicyText.replaceSection("p.yaml", "policy: [1\n", "controlPoints", NEW))
                .hasMessageStartingWith("p.yaml:").hasMessageContaining("YAML syntax error");
        assertThatThrownBy(() -> PolicyText.replaceSection("p.yaml", FILE, "controlPoints", "controlPoints: [\n"))
                .as("a section that breaks the YAML").hasMessageStartingWith("p.yaml with its controlPoints replaced:")
                .hasMessageContaining("YAML syntax error");
        assertThatThrownBy(() -> PolicyText.replaceSection("p.yaml", FILE, "controlPoints",
                "controlPoints: []\npolicy:\n  name: x\n")).as("a section that breaks the policy file")
                .hasMessageContaining("duplicate key 'policy'");
        assertThatThrownBy(() -> PolicyText.replaceSection("p.yaml", FILE, "controlPoints",
                "controlPoints:\n  - \"execution(void a.B.c())\"\n")).as("a control point the agent refuses")
                .hasMessageContaining("control points are call join points");
    }
}
