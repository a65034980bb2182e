package io.qosweaver.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class HooksArgsTest {
    @Test
    void theHooksKeysAreTakenOutAndThePolicyBecomesOptional() {
        HooksArgs.Split s = HooksArgs.split("hooks=all,hooksInclude=org.rivermonitor+org.example,recordClassBytes=true,control=true");
        assertThat(s.hooks()).isEqualTo(new HooksArgs("all", List.of("org.rivermonitor", "org.example"), true));
        assertThat(s.hooks().calls()).isTrue();
        assertThat(s.rest()).isEqualTo("control=true");
        AgentArgs a = AgentArgs.parse(s.rest(), !s.hooks().any());
        assertThat(a.policy()).isNull();
        assertThat(a.control()).isTrue();
        assertThatThrownBy(() -> AgentArgs.parse("control=true")).hasMessageContaining("missing agent argument policy=FILE");
    }

    @Test
    void withoutHooksKeysNothingChanges() {
        HooksArgs.Split s = HooksArgs.split("policy=p.yaml,debug=true");
        assertThat(s.hooks()).isSameAs(HooksArgs.NONE);
        assertThat(s.rest()).isEqualTo("policy=p.yaml,debug=true");
        HooksArgs only = HooksArgs.split("policy=p.yaml,recordClassBytes=true").hooks();
        assertThat(only.mode()).isNull();
        assertThat(only.any()).isTrue();
    }

    @Test
    void badHooksArgumentsAreRefusedByName() {
        assertThatThrownBy(() -> HooksArgs.split("hooks=calls,hooksInclude=org.x")).hasMessageContaining("hooks=calls must be execution or all");
        assertThatThrownBy(() -> HooksArgs.split("hooks=all")).hasMessageContaining("needs hooksInclude=");
        assertThatThrownBy(() -> HooksArgs.split("hooksInclude=org.x")).hasMessageContaining("needs hooks=");
        assertThatThrownBy(() -> HooksArgs.split("hooks=all,hooksInclude=java")).hasMessageContaining("java");
        assertThatThrownBy(() -> HooksArgs.split("hooks=all,hooksInclude=org..x")).hasMessageContaining("not a package name");
        assertThatThrownBy(() -> HooksArgs.split("recordClassBytes=yes")).hasMessageContaining("true or false");
        assertThatThrownBy(() -> AgentArgs.parse("policy=p.yaml,hook=all"))
                .hasMessageContaining("unknown agent argument 'hook' (did you mean hooks?)");
    }
}
