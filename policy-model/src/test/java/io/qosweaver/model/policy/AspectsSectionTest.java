package io.qosweaver.model.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The {@code aspects:} section: bulkheads and synchronization on execution pointcuts, with their lines. */
class AspectsSectionTest {
    private static final String ASPECTS = PolicyFileTest.GOOD + """
            aspects:
              bulkheads:
                - pointcut: execution(* org.rivermonitor.web.ChartServlet.doGet(..))
                  limit: 2
                  queue: 10
                  timeout: 500ms
                - pointcut: execution(* org.rivermonitor.web.LevelsServlet.doGet(..))
                  limit: 0.5x
              synchronize:
                - execution(* org.rivermonitor.db.Database.write(..))
            """;

    @Test
    void bulkheadsAndSynchronizationAreRead() throws Exception {
        PolicyFile p = PolicyFile.parse("p.yaml", ASPECTS);
        assertThat(p.bulkheads()).hasSize(2);
        PolicyFile.BulkheadDef b = p.bulkheads().get(0);
        assertThat(b.limit()).isEqualTo(2);
        assertThat(b.perCore()).isFalse();
        assertThat(b.queue()).isEqualTo(10);
        assertThat(b.timeoutNanos()).isEqualTo(500_000_000L);
        assertThat(b.location()).isEqualTo("p.yaml:17");
        PolicyFile.BulkheadDef c = p.bulkheads().get(1);
        assertThat(c.perCore()).isTrue();
        assertThat(c.limit()).isEqualTo(0.5);
        assertThat(c.queue()).as("no queue by default: refused at once when full").isZero();
        assertThat(c.timeoutNanos()).as("no time-out by default").isZero();
        assertThat(p.synchronizations()).singleElement().satisfies(s -> {
            assertThat(s.text()).isEqualTo("execution(* org.rivermonitor.db.Database.write(..))");
            assertThat(s.location()).isEqualTo("p.yaml:24");
        });
        assertThat(PolicyFile.parse("p.yaml", PolicyFileTest.GOOD).bulkheads()).isEmpty();
    }

    @Test
    void badAspectsNameTheirLine() {
        assertBroken(ASPECTS.replace("limit: 2\n", "limit: two\n"), 18, "a bulkhead's limit is a whole number");
        assertBroken(ASPECTS.replace("limit: 2\n", "limit: 1.5\n"), 18, "a bulkhead's limit is a whole number");
        assertBroken(ASPECTS.replace("limit: 0.5x", "limit: 0x"), 22, "above 0");
        assertBroken(ASPECTS.replace("timeout: 500ms", "timeout: soon"), 20, "a time-out is a duration above 0");
        assertBroken(ASPECTS.replace("queue: 10", "queue: -1"), 19, "queue must be a whole number, 0 or more");
        assertBroken(ASPECTS.replace("  queue: 10", "  queues: 10"), 19, "unknown bulkhead key 'queues'");
        assertBroken(ASPECTS.replace("      limit: 0.5x\n", ""), 21, "missing 'limit'");
        assertBroken(ASPECTS.replace("- execution(* org.rivermonitor.db.Database.write(..))",
                "- call(* org.rivermonitor.db.Database.write(..))"), 24, "applies to method executions");
        assertBroken(ASPECTS.replace("  synchronize:", "  serialize:"), 23, "unknown aspects key 'serialize'");
    }

    private static void assertBroken(String text, int line, String problem) {
        assertThatThrownBy(() -> PolicyFile.parse("p.yaml", text)).isInstanceOf(PolicyFileException.class)
                .satisfies(e -> {
                    assertThat(e.getMessage()).startsWith("p.yaml:" + line + ":");
                    assertThat(((PolicyFileException) e).problem()).contains(problem);
                });
    }
}
