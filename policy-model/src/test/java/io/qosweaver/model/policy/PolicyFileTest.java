package io.qosweaver.model.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyFileTest {

    static final String GOOD = """
            failOpen: false
            taskClasses:
              - name: collector
                entry: execution(void org.rivermonitor.collector.Collector.collect())
                importance: high
              - name: chart
                servletPath: /chart
                importance: low
            controlPoints:
              - call(* org.jfree.chart.renderer.xy.XYItemRenderer+.drawItem(..)) && withincode(* org.jfree.chart.plot.XYPlot.render(..))
              - "call(* java.awt.Graphics2D.draw(..)) && withincode(* *.drawItem(..))"
            policy:
              name: importance
              lowLimit: 1
            """;

    @Test
    void goodFile() throws Exception {
        PolicyFile p = PolicyFile.parse("p.yaml", GOOD);
        assertThat(p.failOpen()).isFalse();
        assertThat(p.matchCheckSeconds()).isEqualTo(30);
        assertThat(p.taskClasses()).hasSize(2);
        assertThat(p.taskClasses().get(0).name()).isEqualTo("collector");
        assertThat(p.taskClasses().get(0).entry()).isNotNull();
        assertThat(p.taskClasses().get(0).attributes()).isEqualTo(Map.of("importance", "high"));
        assertThat(p.taskClasses().get(1).servletPath()).isEqualTo("/chart");
        assertThat(p.taskClasses().get(1).location()).isEqualTo("p.yaml:6");
        assertThat(p.controlPoints()).hasSize(2);
        assertThat(p.controlPoints().get(1).location()).isEqualTo("p.yaml:11");
        assertThat(p.policyName()).isEqualTo("importance");
        assertThat(p.policyParameters()).isEqualTo(Map.of("lowLimit", "1"));
        assertThat(p.taskClasses()).extracting(PolicyFile.TaskClassDef::name).containsExactly("collector", "chart");
    }

    @Test
    void progressPointsAreCallPointcutsWithTheirLines() throws Exception {
        String text = GOOD.replace("policy:\n  name: importance\n  lowLimit: 1\n", """
                progressPoints:
                  - call(int Integer.parseInt(String)) && withincode(int CollectorImpl.getWaterLevel(int))
                policy:
                  name: deadlock-aware
                """);
        PolicyFile p = PolicyFile.parse("p.yaml", text);
        assertThat(p.progressPoints()).hasSize(1);
        assertThat(p.progressPoints().get(0).location()).isEqualTo("p.yaml:13");
        assertThat(p.progressPoints().get(0).text()).startsWith("call(int Integer.parseInt(String))");
        assertThat(p.controlPoints()).hasSize(2);
        assertThat(PolicyFile.parse("p.yaml", GOOD).progressPoints()).isEmpty();

        assertBroken(text.replace("  - call(int Integer", "  - execution(int Integer"), 13,
                "progress points are call join points");
        assertBroken(text.replace("  - call(int Integer.parseInt(String)) && ", "  - "), 13,
                "a progress point needs a call(...) designator");
        assertBroken(text.replace("  - call(int Integer.parseInt(String))", "  - call(int Integer.parseInt(String)"),
                13, "pointcut syntax error");
        assertBroken(text.replace("  - call(int Integer.parseInt(String)) && withincode(int CollectorImpl.getWaterLevel(int))",
                "    name: x"), 13, "progressPoints must be a list");
    }

    @Test
    void schedulerKeysMapBackToLines() throws Exception {
        PolicyFile p = PolicyFile.parse("p.yaml", GOOD);
        assertThat(p.lineOf("policy.lowLimit")).isEqualTo(14);
        assertThat(p.lineOf("policy.name")).isEqualTo(13);
        assertThat(p.lineOf("policy.missingParam")).isEqualTo(12);
        assertThat(p.lineOf("taskClasses.chart.importance")).isEqualTo(8);
        assertThat(p.lineOf("taskClasses.chart")).isEqualTo(6);
        assertThat(p.configError("policy.lowLimit", "lowLimit must be >= 0").getMessage())
                .isEqualTo("p.yaml:14: lowLimit must be >= 0 (policy.lowLimit)");
    }

    @Test
    void yamlSyntaxError() {
        assertBroken("taskClasses:\n  - name: a\n   entry: [\n", 3, "YAML syntax error");
    }

    @Test
    void unknownTopLevelKey() {
        assertBroken(GOOD.replace("failOpen: false", "failopen: false"), 1, "unknown top-level key 'failopen'");
    }

    @Test
    void missingFields() {
        assertBroken("taskClasses:\n  - name: a\n    importance: high\npolicy:\n  name: importance\n", 2,
                "task class 'a' needs 'entry'");
        assertBroken("taskClasses:\n  - importance: high\n    servletPath: /x\npolicy:\n  name: importance\n", 2,
                "task class without 'name'");
        assertBroken("taskClasses:\n  - name: a\n    servletPath: /x\n", 1, "missing 'policy'");
        assertBroken("taskClasses:\n  - name: a\n    servletPath: /x\npolicy:\n  lowLimit: 1\n", 4,
                "policy has no 'name'");
        assertBroken("policy:\n  name: x\n", 1, "missing 'taskClasses'");
        assertBroken("", 1, "the policy file is empty");
    }

    @Test
    void badValues() {
        assertBroken(GOOD.replace("failOpen: false", "failOpen: maybe"), 1, "failOpen must be true or false");
        assertBroken(GOOD.replace("servletPath: /chart", "servletPath: chart*"), 7, "bad servletPath 'chart*'");
        assertBroken(GOOD.replace("name: chart", "name: collector"), 6, "duplicate task class name 'collector'");
        assertBroken(GOOD.replace("importance: low", "importance: [low]"), 8, "must be a single value");
    }

    @Test
    void pointcutErrorsHaveLineAndColumn() {
        PolicyFileException e = broken(GOOD.replace("XYPlot.render(..))\n", "XYPlot.render(..)\n"));
        assertThat(e.line()).isEqualTo(10);
        // "  - " is 4 characters, the pointcut is 119 long and ended: column 4 + 120
        assertThat(e.column()).isEqualTo(124);
        assertThat(e.getMessage()).startsWith("p.yaml:10:124: pointcut syntax error: expected ')' to close withincode(");
        // in a quoted scalar the quote is skipped
        PolicyFileException q = broken(GOOD.replace("\"call(* java", "\"cal(* java"));
        assertThat(q.line()).isEqualTo(11);
        assertThat(q.column()).isEqualTo(6);
        assertThat(broken(GOOD.replace("entry: execution(", "entry: call(")).problem())
                .contains("call(...) is not allowed here");
        assertThat(broken(GOOD.replace("  - call(* org", "  - execution(* org")).problem())
                .contains("control points are call join points");
    }

    @Test
    void failOpenIsReadEvenFromABrokenFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("p.yaml");
        Files.writeString(f, "failOpen: true\ntaskClasses: [\n");
        assertThat(PolicyFile.declaresFailOpen(f)).isTrue();
        assertThatThrownBy(() -> PolicyFile.load(f)).isInstanceOf(PolicyFileException.class)
                .hasMessageStartingWith(f + ":");
        Files.writeString(f, "failOpen: false\n");
        assertThat(PolicyFile.declaresFailOpen(f)).isFalse();
        assertThat(PolicyFile.parse("p.yaml", GOOD.replace("failOpen: false", "failOpen: true")).failOpen()).isTrue();
    }

    @Test
    void unreadableFile(@TempDir Path dir) {
        assertThatThrownBy(() -> PolicyFile.load(dir.resolve("nope.yaml")))
                .hasMessageContaining("nope.yaml: cannot read the policy file");
    }

    private static PolicyFileException broken(String text) {
        try {
            PolicyFile.parse("p.yaml", text);
        } catch (PolicyFileException e) {
            return e;
        }
        throw new AssertionError("accepted: " + text);
    }

    @Test
    void requestSelectorsTakeAValueOrAListForEachKey() throws Exception {
        PolicyFile p = PolicyFile.parse("p.yaml", """
                taskClasses:
                  - name: lookup
                    request: {path: /api/lookup/*}
                    importance: high
                  - name: report
                    request:
                      path: [/api/report, /api/report/*, "*.csv"]
                      method: [POST, PUT]
                      header: {name: X-Tenant, matches: "gold|platinum"}
                      port: 8443
                    importance: low
                  - name: rest
                    request: {path: /*, header: [{name: Accept, value: text/html}, {name: X-A, value: b}]}
                policy:
                  name: importance
                """);
        assertThat(p.taskClasses().get(0).request()).isEqualTo(
                new RequestSelector(List.of("/api/lookup/*"), List.of(), List.of(), 0));
        assertThat(p.taskClasses().get(0).attributes()).isEqualTo(Map.of("importance", "high"));
        assertThat(p.taskClasses().get(0).servletPath()).isNull();
        assertThat(p.taskClasses().get(0).entry()).isNull();
        RequestSelector report = p.taskClasses().get(1).request();
        assertThat(report.paths()).containsExactly("/api/report", "/api/report/*", "*.csv");
        assertThat(report.methods()).containsExactly("POST", "PUT");
        assertThat(report.headers()).containsExactly(new RequestSelector.HeaderCondition("X-Tenant", null, "gold|platinum"));
        assertThat(report.port()).isEqualTo(8443);
        assertThat(p.taskClasses().get(2).request().headers()).containsExactly(
                new RequestSelector.HeaderCondition("Accept", "text/html", null),
                new RequestSelector.HeaderCondition("X-A", "b", null));
    }

    @Test
    void aBadRequestSelectorIsNamedWithItsLine() {
        String head = "taskClasses:\n  - name: a\n";
        String tail = "policy:\n  name: importance\n";
        assertBroken(head + "    request: {paht: /x}\n" + tail, 3, "unknown request key 'paht' (expected one of header,"
                + " method, path, port)");
        assertBroken(head + "    request: {}\n" + tail, 3, "request: {} names no condition; to take every request write"
                + " request: {path: /*}");
        assertBroken(head + "    request: /x\n" + tail, 3, "request must be a mapping");
        assertBroken(head + "    request:\n      path: [/x, api/*]\n" + tail, 4, "bad request path 'api/*'");
        assertBroken(head + "    request:\n      path: /a*\n" + tail, 4, "bad request path '/a*'");
        assertBroken(head + "    request:\n      path: []\n" + tail, 4, "request.path is an empty list");
        assertBroken(head + "    request:\n      method: post\n" + tail, 4, "HTTP methods are case-sensitive; write POST");
        assertBroken(head + "    request:\n      method: GET POST\n" + tail, 4, "bad request method 'GET POST'");
        assertBroken(head + "    request:\n      port: 70000\n" + tail, 4, "request.port must be a port number");
        assertBroken(head + "    request:\n      port: http\n" + tail, 4, "request.port must be a positive whole number");
        assertBroken(head + "    request:\n      header: {name: X-A}\n" + tail, 4, "needs exactly one of 'value'");
        assertBroken(head + "    request:\n      header: {name: X-A, value: a, matches: b}\n" + tail, 4,
                "needs exactly one of 'value'");
        assertBroken(head + "    request:\n      header: {value: a}\n" + tail, 4, "missing 'name'");
        assertBroken(head + "    request:\n      header: {name: X-A, matches: \"(a\"}\n" + tail, 4,
                "bad regular expression in request.header.matches: Unclosed group");
        assertBroken(head + "    request: {path: /x}\n    servletPath: /x\n" + tail, 2,
                "more than one of 'entry', 'request' and 'servletPath'");
    }

    private static void assertBroken(String text, int line, String problem) {
        PolicyFileException e = broken(text);
        assertThat(e.getMessage()).startsWith("p.yaml:" + line + ":");
        assertThat(e.problem()).contains(problem);
    }
}
