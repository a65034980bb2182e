package io.qosweaver.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How the start-up tells the tracing mode apart without linking any trace type. */
class AgentStarterTraceArgsTest {
    @Test
    void aTraceKeyAloneOrBesideAPolicyAsksForTheTracer() {
        assertThat(AgentStarter.asksForTrace("trace=/tmp/r.pftrace")).isTrue();
        assertThat(AgentStarter.asksForTrace("policy=/p.yaml, trace=/tmp/r.pftrace,traceDuration=3s")).isTrue();
        assertThat(AgentStarter.asksForTrace("policy=/p.yaml,metricsPort=0")).isFalse();
        assertThat(AgentStarter.asksForTrace(null)).isFalse();
    }

    @Test
    void withoutTheTracerTheSchedulingArgumentsAreLeft() {
        assertThat(AgentStarter.withoutTraceKeys("trace=/r,policy=/p.yaml,traceOsHz=50,metricsPort=0"))
                .isEqualTo("policy=/p.yaml,metricsPort=0");
        assertThat(AgentStarter.withoutTraceKeys("trace=/r")).isEmpty();
    }
}
