package io.qosweaver.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class AgentArgsTest {
    @Test
    void parsesAll() {
        AgentArgs a = AgentArgs.parse("policy=/x/p.yaml,metricsPort=0,failOpen=true,matchCheckSeconds=5");
        assertThat(a.policy()).isEqualTo(Path.of("/x/p.yaml"));
        assertThat(a.metricsPort()).isZero();
        assertThat(a.failOpen()).isTrue();
        assertThat(a.matchCheckSeconds()).isEqualTo(5);
        AgentArgs b = AgentArgs.parse("policy=p.yaml");
        assertThat(b.metricsPort()).isEqualTo(-1);
        assertThat(b.failOpen()).isNull();
        assertThat(b.intervals()).as("interval measurement is off unless asked").isFalse();
        assertThat(AgentArgs.parse("policy=p.yaml,intervals=true").intervals()).isTrue();
    }

    /** A misspelt key is named as such, not reported as the key it was meant to be missing. */
    @Test
    void aMisspeltKeyIsNamedWithTheKeyItMeant() {
        assertThatThrownBy(() -> AgentArgs.parse("polcy=p.yaml"))
                .hasMessageStartingWith("unknown agent argument 'polcy' (did you mean policy?)")
                .message().doesNotContain("missing");
        assertThatThrownBy(() -> AgentArgs.parse("policy=p.yaml,metricsport=0,fialOpen=true"))
                .hasMessageContaining("unknown agent argument 'metricsport' (did you mean metricsPort?)")
                .hasMessageContaining("unknown agent argument 'fialOpen' (did you mean failOpen?)");
        assertThatThrownBy(() -> AgentArgs.parse("policy=p.yaml,zzz=1"))
                .hasMessageContaining("unknown agent argument 'zzz'; known:").message().doesNotContain("did you mean");
    }

    @Test
    void rejectsBadArguments() {
        assertThatThrownBy(() -> AgentArgs.parse(null)).hasMessageContaining("missing agent argument policy=FILE");
        assertThatThrownBy(() -> AgentArgs.parse("policy=p,port=1")).hasMessageContaining("unknown agent argument 'port'")
                .hasMessageContaining("known: policy, metricsPort, failOpen, matchCheckSeconds, intervals, control, debug");
        assertThatThrownBy(() -> AgentArgs.parse("policy=p,metricsPort=x")).hasMessageContaining("metricsPort=x");
        assertThatThrownBy(() -> AgentArgs.parse("policy=p,failOpen")).hasMessageContaining("not key=value");
        assertThatThrownBy(() -> AgentArgs.parse("policy=p,intervals=yes")).hasMessageContaining("intervals=yes")
                .hasMessageContaining("true or false");
    }
}
