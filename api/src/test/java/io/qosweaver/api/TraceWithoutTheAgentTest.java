package io.qosweaver.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** Without the agent (no tracer on the bootstrap class path) user events are no-ops that allocate nothing. */
class TraceWithoutTheAgentTest {

    @Test
    void userEventsAreNoOpsThatAllocateNothing() {
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 20_000; i++) {
            events();
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 1_000; i++) {
            events();
        }
        assertThat(mx.getCurrentThreadAllocatedBytes() - before).as("bytes allocated by 4,000 calls").isLessThan(256);
        assertThat(Trace.span("a")).as("one shared span").isSameAs(Trace.span("b"));
    }

    private static void events() {
        Trace.event("flush");
        try (Trace.Span s = Trace.span("render")) {
            Trace.begin("inner");
            Trace.end();
        }
    }
}
