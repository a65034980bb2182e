package io.qosweaver.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.management.ThreadMXBean;
import io.qosweaver.api.internal.Bridge;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Without the agent (this JVM has none: the scheduler is not on the bootstrap class path) every
 * scheduling call is a no-op: code runs, results and exceptions come through, scopes allocate
 * nothing, and the API says it is not scheduled.
 */
class WithoutTheAgentTest {

    @Test
    void theBridgeIsNotFoundAndNothingIsScheduled() {
        assertThat(Bridge.link()).isNull();
        Bridge.rebind(); // what the agent calls after it starts: still nothing here
        assertThat(Bridge.link()).isNull();
        assertThat(Shares.scheduled()).isFalse();
        assertThat(Shares.capacity()).as("all of it, without the agent").isEqualTo(1.0);
    }

    @Test
    void scopesRunTheCodeAndPassResultsAndExceptionsThrough() throws Exception {
        try (Share s = Shares.share("runner", 0.2)) {
            AtomicInteger ran = new AtomicInteger();
            s.run(ran::incrementAndGet);
            try (Share.Scope scope = s.enter()) {
                assertThat(scope.share()).isSameAs(s);
                ran.incrementAndGet();
                Shares.controlPoint();
            }
            assertThat(ran).hasValue(2);
            assertThat(s.call(() -> "result")).isEqualTo("result");
            assertThatThrownBy(() -> s.run(() -> {
                throw new IllegalStateException("from the task");
            })).hasMessage("from the task");
            assertThat(Shares.call("once", 0.5, () -> 42)).isEqualTo(42);
        }
        assertThat(Shares.admitted()).as("every share given back").isZero();
    }

    @Test
    void enteringAndLeavingAScopeAllocatesNothing() {
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (Share s = Shares.share("hot", 0.1)) {
            Runnable body = Shares::controlPoint;
            for (int i = 0; i < 100_000; i++) { // warm up: the JIT, and the allocation counter itself
                try (Share.Scope scope = s.enter()) {
                    body.run();
                }
            }
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 1_000_000; i++) {
                try (Share.Scope scope = s.enter()) {
                    body.run();
                }
            }
            long allocated = mx.getCurrentThreadAllocatedBytes() - before;
            assertThat(allocated).as("bytes for a million scopes (the counter's own reads allocate a little)")
                    .isLessThan(1_000);
        }
    }

    @Test
    void aClosedShareCannotBeEnteredAndBadRequestsAreRefusedClearly() {
        Share s = Shares.share("gone", 0.1);
        s.close();
        assertThatThrownBy(s::enter).isInstanceOf(IllegalStateException.class).hasMessageContaining("'gone' is closed");
        assertThatThrownBy(() -> Shares.share("zero", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("share 'zero': a fraction must be in (0, 1]").hasMessageContaining("got 0.0");
        assertThatThrownBy(() -> Shares.share(" ", 0.1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("non-blank name");
        assertThatThrownBy(() -> Shares.group("g", Double.NaN)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got NaN");
    }
}
