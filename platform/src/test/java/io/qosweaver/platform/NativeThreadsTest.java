package io.qosweaver.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class NativeThreadsTest {

    @AfterEach
    void reset() {
        NativeThreads.register(null);
    }

    @Test
    void theFallbackSaysWhyItCannotSetPriorities() {
        NativeThreads nt = NativeThreads.get();
        assertThat(nt).isSameAs(NativeThreads.fallback());
        assertThat(nt.available()).isFalse();
        assertThat(nt.unavailableReason()).contains("no native implementation registered");
        assertThatThrownBy(() -> nt.setNice(1, 0)).isInstanceOf(NativePriorityException.class);
        assertThatThrownBy(() -> nt.setAffinity(1, new int[] {0}))
                .isInstanceOf(NativePriorityException.class).hasMessageContaining("not supported");
    }

    @Test
    void registeringReplacesAndNullRestoresTheFallback() {
        NativeThreads mine = new NativeThreads() {
            @Override public boolean available() { return true; }
            @Override public String unavailableReason() { return null; }
            @Override public int currentNativeThreadId() { return 7; }
            @Override public void setNice(int tid, int nice) {}
            @Override public int getNice(int tid) { return 0; }
        };
        NativeThreads.register(mine);
        assertThat(NativeThreads.get()).isSameAs(mine);
        NativeThreads.register(null);
        assertThat(NativeThreads.get()).isSameAs(NativeThreads.fallback());
    }

    @Test
    void javaPrioritiesAreMeasuredOnceWithAReason() {
        JavaPriorities p = JavaPriorities.ofThisJvm();
        assertThat(p.reason()).contains("ThreadPriorityPolicy=");
        assertThat(JavaPriorities.ofThisJvm()).isSameAs(p);
    }
}
