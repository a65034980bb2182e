package io.qosweaver.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ProcThreadStatTest {

    @Test
    void parsesACommandNameWithSpacesAndParentheses() {
        // field 3 = state, 19 = nice, 39 = processor
        StringBuilder rest = new StringBuilder("S");
        for (int field = 4; field <= 52; field++) {
            rest.append(' ').append(field == 19 ? "-7" : field == 39 ? "1" : Integer.toString(field));
        }
        ProcThreadStat s = ProcThreadStat.parse(42, "42 (a (weird) name) " + rest);
        assertThat(s).isNotNull();
        assertThat(s.state()).isEqualTo('S');
        assertThat(s.nice()).isEqualTo(-7);
        assertThat(s.processor()).isEqualTo(1);
        assertThat(s.runnable()).isFalse();
    }

    @Test
    void garbageIsUnknownNotAnException() {
        assertThat(ProcThreadStat.parse(1, "no parenthesis here")).isNull();
        assertThat(ProcThreadStat.parse(1, "1 (x) R 1 2")).isNull();
    }

    @Test
    void readsTheCallingThreadWhichIsRunning() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc: not Linux");
        int tid = LinuxThreads.currentTid();
        assertThat(tid).isPositive();
        assertThat(Files.isDirectory(Path.of("/proc/self/task/" + tid))).isTrue();
        ProcThreadStat s = ProcThreadStat.read(tid);
        assertThat(s).isNotNull();
        assertThat(s.state()).as("the reading thread runs").isEqualTo('R');
        assertThat(s.nice()).isBetween(-20, 19);
        assertThat(s.processor()).isNotNegative();
        if (s.cpuNanos() >= 0) {
            assertThat(s.timeslices()).isPositive();
            assertThat(s.runQueueWaitNanos()).isNotNegative();
        }
    }

    @Test
    void aThreadThatDoesNotExistIsNull() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "no /proc: not Linux");
        assertThat(ProcThreadStat.read(Integer.MAX_VALUE)).isNull();
        assertThatThrownBy(() -> ProcThreadStat.nice(Integer.MAX_VALUE))
                .isInstanceOf(NativePriorityException.class).hasMessageContaining(Integer.toString(Integer.MAX_VALUE));
    }
}
