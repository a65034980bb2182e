package io.qosweaver.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * What {@code ctl status --json} gives of each aspect ({@link Aspects#stateLatest}): the same
 * counters as its text line, under the key names agent/README.md documents, of the aspect
 * registered last under a name.
 */
class AspectsStateTest {
    private static final long MS = 1_000_000L;

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void eachKindHasItsCountersUnderStableKeys() {
        int bulkhead = Aspects.bulkhead("state.yaml:10", 1, 0, 250 * MS);
        Object in = Aspects.enter(bulkhead);
        assertThatThrownBy(() -> Aspects.enter(bulkhead)).isInstanceOf(RejectedExecutionException.class);
        assertThat(Aspects.stateLatest("state.yaml:10")).isEqualTo(map("limit", 1, "running", 1, "waiting", 0,
                "queue", 0, "timeoutMs", 250L, "admitted", 1L, "rejected", 1L));
        Aspects.exit(in);
        assertThat(Aspects.stateLatest("state.yaml:10")).containsEntry("running", 0);

        int sync = Aspects.serializer("state.yaml:12");
        Aspects.exit(Aspects.enter(sync));
        assertThat(Aspects.stateLatest("state.yaml:12")).isEqualTo(map("entered", 1L, "waiting", 0));

        int signal = Aspects.signal("items (state.yaml:14)", 1, 0);
        Aspects.await(signal);
        Aspects.signal(signal);
        assertThat(Aspects.stateLatest("items (state.yaml:14)")).isEqualTo(map("waits", 1L, "signals", 1L,
                "waiting", 0, "permits", 1, "timedOut", 0L));

        int fail = Aspects.timeout("state.yaml:16", 0, false);
        long started = Aspects.startFail(fail);
        assertThatThrownBy(() -> Aspects.endFail(fail, started - MS)).isInstanceOf(CancellationException.class);
        assertThat(Aspects.stateLatest("state.yaml:16")).isEqualTo(map("afterMs", 0L, "action", "fail", "started", 1L,
                "timedOut", 1L, "failed", 1L));
        int interrupt = Aspects.timeout("state.yaml:18", 10_000 * MS, true);
        Aspects.endTimed(Aspects.startTimed(interrupt));
        assertThat(Aspects.stateLatest("state.yaml:18")).isEqualTo(map("afterMs", 10_000L, "action", "interrupt",
                "started", 1L, "timedOut", 0L, "interrupted", 0L));
    }

    @Test
    void theLatestRegisteredUnderANameIsTheOneInForce() {
        Aspects.bulkhead("again.yaml:3", 2, 1, 0);
        Aspects.bulkhead("again.yaml:3", 5, 1, 0);
        assertThat(Aspects.stateLatest("again.yaml:3")).containsEntry("limit", 5);
        assertThat(Aspects.stateLatest("nowhere.yaml:1")).isNull();
    }
}
