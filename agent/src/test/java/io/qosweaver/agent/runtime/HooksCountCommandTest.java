package io.qosweaver.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.agent.bootstrap.Hooks;
import io.qosweaver.agent.control.LocalControl;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@code ctl PID hooks count start|stop|status}: the counting switch on the class woven hooks call. */
class HooksCountCommandTest {
    private final HookCounter counter = new HookCounter(Hooks.class);

    /** The JSON without its indentation. */
    private static String flat(String json) {
        return json.replaceAll("\\s", "");
    }

    @AfterEach
    void detach() {
        Hooks.attach(false);
    }

    @Test
    void startCountsEveryKindAndStopAnswersTheCountsAndDetaches() {
        Hooks.enter(1); // idle: not counted
        LocalControl.Reply start = RuntimeCommands.hooksCount(true, counter, List.of("start"));
        assertThat(start.ok()).isTrue();
        assertThat(flat(start.text())).isEqualTo("{\"counting\":true,\"entered\":0,\"exited\":0,\"called\":0}");
        Hooks.enter(1);
        Hooks.call(2);
        Hooks.call(3);
        Hooks.exit(1);
        Hooks.exit(1);
        Hooks.enter(4);
        assertThat(flat(RuntimeCommands.hooksCount(true, counter, List.of("status")).text()))
                .isEqualTo("{\"counting\":true,\"entered\":2,\"exited\":2,\"called\":2}");
        LocalControl.Reply stop = RuntimeCommands.hooksCount(true, counter, List.of("stop"));
        assertThat(flat(stop.text())).isEqualTo("{\"counting\":false,\"entered\":2,\"exited\":2,\"called\":2}");
        assertThat(Hooks.attached()).isFalse();
        Hooks.enter(1);
        assertThat(Hooks.fired()).as("detached (the counts restart at zero): idle again").containsExactly(0, 0, 0);
    }

    @Test
    void refusedOutsideTheHooksModeAndForBadWords() {
        LocalControl.Reply none = RuntimeCommands.hooksCount(false, counter, List.of("start"));
        assertThat(none.ok()).isFalse();
        assertThat(none.text()).contains("no hooks mode");
        assertThat(Hooks.attached()).isFalse();
        assertThat(RuntimeCommands.hooksCount(true, counter, List.of("go")).text()).contains("hooks count go: ");
        assertThat(RuntimeCommands.hooksCount(true, counter, List.of()).ok()).isFalse();
        assertThat(RuntimeCommands.hooksCount(true, counter, List.of("start", "now")).ok()).isFalse();
    }
}
