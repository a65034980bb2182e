package io.qosweaver.model.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The {@code aspects:} section's time-outs and server thread pools, with their lines. */
class TimeoutsAndThreadPoolsSectionTest {
    private static final String ASPECTS = PolicyFileTest.GOOD + """
            aspects:
              timeouts:
                - pointcut: execution(* org.rivermonitor.web.ChartServlet.doGet(..))
                  after: 2s
                  action: fail
                - pointcut: execution(* org.rivermonitor.db.Database.query(..))
                  after: 250ms
              threadPools:
                - server: jetty
                  min: 2
                  max: 2x
                  idleTimeout: 30s
                - server: tomcat
                  max: 16
            """;

    @Test
    void timeoutsAndThreadPoolsAreRead() throws Exception {
        PolicyFile p = PolicyFile.parse("p.yaml", ASPECTS);
        assertThat(p.timeouts()).hasSize(2);
        PolicyFile.TimeoutDef t = p.timeouts().get(0);
        assertThat(t.afterNanos()).isEqualTo(2_000_000_000L);
        assertThat(t.action()).isEqualTo(PolicyFile.TimeoutAction.FAIL);
        assertThat(t.location()).isEqualTo("p.yaml:17");
        assertThat(t.text()).isEqualTo("execution(* org.rivermonitor.web.ChartServlet.doGet(..))");
        PolicyFile.TimeoutDef u = p.timeouts().get(1);
        assertThat(u.afterNanos()).isEqualTo(250_000_000L);
        assertThat(u.action()).as("interrupt by default").isEqualTo(PolicyFile.TimeoutAction.INTERRUPT);

        assertThat(p.threadPools()).hasSize(2);
        PolicyFile.ThreadPoolDef j = p.threadPools().get(0);
        assertThat(j.server()).isEqualTo("jetty");
        assertThat(j.min()).isEqualTo(new PolicyFile.ThreadCount(2, false));
        assertThat(j.max()).isEqualTo(new PolicyFile.ThreadCount(2, true));
        assertThat(j.max().resolve(3)).isEqualTo(6);
        assertThat(j.max()).hasToString("2x");
        assertThat(j.idleTimeoutMillis()).isEqualTo(30_000);
        assertThat(j.location()).isEqualTo("p.yaml:23");
        PolicyFile.ThreadPoolDef c = p.threadPools().get(1);
        assertThat(c.min()).as("min left as the server has it").isNull();
        assertThat(c.idleTimeoutMillis()).as("idle time-out left as the server has it").isZero();
        assertThat(c.max().resolve(64)).isEqualTo(16);
        assertThat(PolicyFile.parse("p.yaml", PolicyFileTest.GOOD).timeouts()).isEmpty();
        assertThat(PolicyFile.parse("p.yaml", PolicyFileTest.GOOD).threadPools()).isEmpty();
    }

    @Test
    void aPerCoreCountIsNeverBelowOneThread() {
        assertThat(new PolicyFile.ThreadCount(0.1, true).resolve(2)).isEqualTo(1);
        assertThat(new PolicyFile.ThreadCount(0.5, true).resolve(8)).isEqualTo(4);
    }

    @Test
    void badTimeoutsNameTheirKeyAndLine() {
        assertBroken(ASPECTS.replace("after: 2s", "after: 0s"), 18, "a time-out is a duration above 0");
        assertBroken(ASPECTS.replace("after: 2s", "after: -2s"), 18, "a time-out is a duration above 0");
        assertBroken(ASPECTS.replace("      after: 250ms\n", ""), 20, "missing 'after'");
        assertBroken(ASPECTS.replace("action: fail", "action: kill"), 19, "timeouts.action is interrupt");
        assertBroken(ASPECTS.replace("action: fail", "actions: fail"), 19, "unknown timeouts key 'actions'");
        assertBroken(ASPECTS.replace("execution(* org.rivermonitor.db.Database.query(..))",
                "call(* org.rivermonitor.db.Database.query(..))"), 20, "applies to method executions");
    }

    @Test
    void badThreadPoolsNameTheirKeyAndLine() {
        assertBroken(ASPECTS.replace("min: 2\n", "min: -1\n"), 24, "threadPools.min is a whole number");
        assertBroken(ASPECTS.replace("min: 2\n", "min: 0x\n"), 24, "threadPools.min is a whole number");
        assertBroken(ASPECTS.replace("max: 16", "max: 0"), 28, "threadPools.max is a whole number");
        assertBroken(ASPECTS.replace("max: 16", "max: 1.5"), 28, "threadPools.max is a whole number");
        assertBroken(ASPECTS.replace("max: 16", "max: lots"), 28, "threadPools.max is a whole number");
        assertBroken(ASPECTS.replace("min: 2\n      max: 2x", "min: 9\n      max: 8"), 24,
                "threadPools.min 9 is above max 8");
        assertBroken(ASPECTS.replace("      max: 16\n", ""), 27, "missing 'max'");
        assertBroken(ASPECTS.replace("server: tomcat", "server: netty"), 27, "threadPools.server is jetty, tomcat or any");
        assertBroken(ASPECTS.replace("server: tomcat", "server: jetty"), 27, "'jetty' overlaps the pool of 'jetty'");
        assertBroken(ASPECTS.replace("server: tomcat", "server: any"), 27, "one entry per server, and 'any' alone");
        assertBroken(ASPECTS.replace("idleTimeout: 30s", "idleTimeout: 30"), 26, "a time-out is a duration above 0");
        assertBroken(ASPECTS.replace("idleTimeout: 30s", "idleTimeout: 999999999m"), 26,
                "threadPools.idleTimeout is at most");
        assertBroken(ASPECTS.replace("idleTimeout: 30s", "idle: 30s"), 26, "unknown threadPools key 'idle'");
        assertBroken(ASPECTS.replace("  threadPools:", "  pools:"), 22, "unknown aspects key 'pools'");
    }

    private static void assertBroken(String text, int line, String problem) {
        assertThatThrownBy(() -> PolicyFile.parse("p.yaml", text)).isInstanceOf(PolicyFileException.class)
                .satisfies(e -> {
                    assertThat(e.getMessage()).startsWith("p.yaml:" + line + ":");
                    assertThat(((PolicyFileException) e).problem()).contains(problem);
                });
    }
}
