package io.qosweaver.model.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The {@code trace:} section: user events on execution pointcuts, with their lines. */
class TraceSectionTest {
    private static final String TRACE = PolicyFileTest.GOOD + """
            trace:
              events:
                - execution(* org.rivermonitor.db.Database.write(..))
                - execution(* org.rivermonitor.web.ChartServlet.render(..))
            """;

    @Test
    void traceEventsAreRead() throws Exception {
        PolicyFile p = PolicyFile.parse("p.yaml", TRACE);
        assertThat(p.traceEvents()).extracting(PolicyFile.TraceEventDef::text).containsExactly(
                "execution(* org.rivermonitor.db.Database.write(..))",
                "execution(* org.rivermonitor.web.ChartServlet.render(..))");
        int first = (int) PolicyFileTest.GOOD.lines().count() + 3;
        assertThat(p.traceEvents().get(0).location()).isEqualTo("p.yaml:" + first);
        assertThat(p.traceEvents().get(1).location()).isEqualTo("p.yaml:" + (first + 1));
        assertThat(PolicyFile.parse("p.yaml", PolicyFileTest.GOOD).traceEvents()).isEmpty();
    }

    @Test
    void badTraceSectionsNameKeyAndLine() {
        int first = (int) PolicyFileTest.GOOD.lines().count() + 3;
        assertBroken(TRACE.replace("- execution(* org.rivermonitor.db.Database.write(..))",
                "- call(* org.rivermonitor.db.Database.write(..))"), first, "trace.events applies to method executions");
        assertBroken(TRACE.replace("- execution(* org.rivermonitor.db.Database.write(..))",
                "- executoin(* org.rivermonitor.db.Database.write(..))"), first, "executoin");
        assertBroken(TRACE.replace("  events:", "  event:"), first - 1, "unknown trace key 'event'");
        assertBroken(TRACE.replace("    - execution(* org.rivermonitor.web.ChartServlet.render(..))\n", "")
                .replace("    - execution(* org.rivermonitor.db.Database.write(..))\n", "    x: 1\n"), first,
                "trace.events must be a list");
    }

    private static void assertBroken(String text, int line, String problem) {
        assertThatThrownBy(() -> PolicyFile.parse("p.yaml", text)).isInstanceOf(PolicyFileException.class)
                .hasMessageContaining("p.yaml:" + line).hasMessageContaining(problem);
    }
}
