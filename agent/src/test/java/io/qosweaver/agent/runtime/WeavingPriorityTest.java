package io.qosweaver.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.natives.NativePriorities;
import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The commanding thread's nice value while it weaves, against the kernel (the JNA implementation the agent loads). */
class WeavingPriorityTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final AgentLog log = new AgentLog(new PrintStream(out, true, StandardCharsets.UTF_8), false);

    @AfterEach
    void fallback() {
        NativeThreads.register(null);
    }

    @Test
    void raisesTheThreadWhileWeavingAndRestoresItsNiceAfter() throws Exception {
        NativeThreads real = NativePriorities.loadIsolated();
        int tid = real.currentNativeThreadId();
        int before = real.getNice(tid);
        try {
            real.setNice(tid, WeavingPriority.NICE);
            real.setNice(tid, before);
        } catch (NativePriorityException e) {
            assumeTrue(!e.permissionDenied(), "this JVM may not raise priorities (not root, no CAP_SYS_NICE)");
            throw e;
        }
        NativeThreads.register(real);
        try (WeavingPriority p = WeavingPriority.raise(log)) {
            assertThat(p.raised()).isTrue();
            assertThat(real.getNice(tid)).isEqualTo(WeavingPriority.NICE);
        }
        assertThat(real.getNice(tid)).isEqualTo(before);
    }

    @Test
    void withoutNativePrioritiesNothingChangesAndItIsSaidOnce() throws Exception {
        NativeThreads.register(null); // the /proc fallback: reads, cannot set
        WeavingPriority.forgetTold();
        int tid = NativeThreads.fallback().currentNativeThreadId();
        int before = NativeThreads.fallback().getNice(tid);
        try (WeavingPriority p = WeavingPriority.raise(log)) {
            assertThat(p.raised()).isFalse();
            assertThat(NativeThreads.fallback().getNice(tid)).isEqualTo(before);
        }
        WeavingPriority.raise(log).close();
        String said = out.toString(StandardCharsets.UTF_8);
        assertThat(said).contains("weaving changes run at the JVM's own priority");
        assertThat(said.indexOf("own priority")).isEqualTo(said.lastIndexOf("own priority"));
    }
}
