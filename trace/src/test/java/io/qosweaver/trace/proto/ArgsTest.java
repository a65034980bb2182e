package io.qosweaver.trace.proto;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ArgsTest {
    @Test
    void aStringAddedWhenTheArraysGrowIsKept() {
        Args a = new Args();
        for (int i = 0; i < 8; i++) {
            a.add("n" + i, i);
        }
        a.add("s", "text"); // the 9th: the arrays grow inside this call
        assertThat(a.size()).isEqualTo(9);
        assertThat(a.name(8)).isEqualTo("s");
        assertThat(a.string(8)).isEqualTo("text");
        assertThat(a.number(7)).isEqualTo(7);
    }
}
