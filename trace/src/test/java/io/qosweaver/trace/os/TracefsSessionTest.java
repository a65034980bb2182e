package io.qosweaver.trace.os;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.platform.LinuxThreads;
import io.qosweaver.trace.proto.PerfettoWriter;
import io.qosweaver.trace.timeline.Timeline;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reader's handling of lines, fed by hand (no tracefs needed): losses, thread membership, overload. */
class TracefsSessionTest {
    @TempDir
    Path dir;

    private final int pid = (int) LinuxThreads.pid();
    private final List<String> log = new ArrayList<>();

    private TracefsSession session(int maxPending) throws Exception {
        Timeline t = new Timeline(new PerfettoWriter(dir.resolve("t.pftrace"), 1 << 24, 64 << 10), pid, "p", "p",
                System.nanoTime(), 0, maxPending);
        return TracefsSession.forTest(t, pid, dir.resolve("instance"), log::add);
    }

    private static String sw(String ts, int prev, String state, int next) {
        return "  java-" + prev + " [000] d..2. " + ts + ": sched_switch: prev_comm=java prev_pid=" + prev
                + " prev_prio=120 prev_state=" + state + " ==> next_comm=java next_pid=" + next + " next_prio=120";
    }

    @Test
    void lostEventsAreCountedAndOtherLinesNeverThrow() throws Exception {
        TracefsSession s = session(1 << 18);
        assertThat(s.line("CPU:1 [LOST 311 EVENTS]")).isFalse();
        assertThat(s.line("CPU:0 [LOST EVENTS]")).isFalse();
        assertThat(s.lost()).isEqualTo(312);
        s.line("garbage ]]] [[[ sched_switch: prev_comm=");
        s.line("");
        assertThat(s.unparsed()).isEqualTo(2);
        assertThat(s.events()).isZero();
    }

    @Test
    void aThreadCreatedByOneOfOursIsOursEvenOnceItIsGoneAndAChildProcessIsNot() throws Exception {
        TracefsSession s = session(1 << 18);
        int thread = 4_000_001; // above any pid_max: never in /proc, known from task_newtask only
        int child = 4_000_002;
        s.line("  java-" + pid + " [000] ..... 10.000000: task_newtask: pid=" + thread + " comm=java clone_flags=3d0f00 "
                + "oom_score_adj=0");
        s.line("  java-" + pid + " [000] ..... 10.000001: task_newtask: pid=" + child + " comm=java clone_flags=11 "
                + "oom_score_adj=0");
        s.line("  java-" + pid + " [000] d..2. 10.000002: sched_wakeup_new: comm=java pid=" + thread + " prio=120 target_cpu=001");
        s.line("  java-" + pid + " [000] d..2. 10.000003: sched_wakeup_new: comm=java pid=" + child + " prio=120 target_cpu=001");
        assertThat(s.state(thread)).isEqualTo(SchedStates.RUNNABLE);
        assertThat(s.state(child)).isNull();
        s.line(sw("10.000010", 0, "R", thread));
        assertThat(s.state(thread)).isEqualTo(SchedStates.RUNNING);
        s.line(sw("10.000020", thread, "X", 0));
        assertThat(s.state(thread)).isNull();
        assertThat(s.events()).isEqualTo(4);
    }

    @Test
    void aMergeNearlyFullPausesTheLevelWhichSaysSo() throws Exception {
        TracefsSession s = session(64);
        int a = 4_000_011;
        int b = 4_000_012;
        s.line("  java-" + pid + " [000] ..... 1.000000: task_newtask: pid=" + a + " comm=java clone_flags=3d0f00 oom_score_adj=0");
        s.line("  java-" + pid + " [000] ..... 1.000000: task_newtask: pid=" + b + " comm=java clone_flags=3d0f00 oom_score_adj=0");
        for (int i = 0; i < 2000; i++) { // a ping-pong: every switch ends and begins two slices
            String ts = "2." + String.format("%06d", i);
            s.line(i % 2 == 0 ? sw(ts, a, "S", b) : sw(ts, b, "S", a));
        }
        assertThat(s.pausedEvents()).isPositive();
        assertThat(s.events() + s.pausedEvents()).isEqualTo(2000);
        assertThat(s.state(a)).as("slices ended at the pause").isNull();
        assertThat(log).anySatisfy(l -> assertThat(l).contains("the OS level pauses"));
    }
}
