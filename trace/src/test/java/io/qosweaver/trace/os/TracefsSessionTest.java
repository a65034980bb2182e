package io.qosweaver.trace.os;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.platform.LinuxThreads;
import io.qosweaver.trace.proto.PerfettoWriter;
import io.qosweaver.trace.timeline.Timeline;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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

    /**
     * A fake instance whose {@code trace_pipe} is a FIFO the test writes (the reader thread runs as in a
     * trace), {@code trace_marker} a plain file (the stop marker never reaches the reader: it stays behind)
     * and per-CPU stats saying what the kernel still holds.
     */
    private Path fakeInstance(long entries0, long entries1, long overrun) throws Exception {
        Path in = dir.resolve("instance");
        Files.createDirectories(in.resolve("per_cpu/cpu0"));
        Files.createDirectories(in.resolve("per_cpu/cpu1"));
        Files.writeString(in.resolve("per_cpu/cpu0/stats"), "entries: " + entries0 + "\noverrun: " + overrun
                + "\ncommit overrun: 0\nbytes: 0\n");
        Files.writeString(in.resolve("per_cpu/cpu1/stats"), "entries: " + entries1 + "\noverrun: 0\n");
        for (String f : new String[] {"tracing_on", "set_event_notrace_pid", "trace_marker"}) {
            Files.writeString(in.resolve(f), "");
        }
        Process p = new ProcessBuilder("mkfifo", in.resolve("trace_pipe").toString()).start();
        assertThat(p.waitFor()).isZero();
        return in;
    }

    /** Opens the FIFO's writing end on a thread of its own (the open blocks until the reader opens it). */
    private static java.util.concurrent.CompletableFuture<OutputStream> writer(Path instance) {
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return new FileOutputStream(instance.resolve("trace_pipe").toFile());
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    @Test
    void aStopThatGivesUpOnAStuckReaderCountsWhatTheKernelStillHoldsAsLost() throws Exception {
        Path in = fakeInstance(1234, 66, 5);
        TracefsSession s = session(1 << 18);
        var w = writer(in);
        assertThat(s.start()).isTrue();
        OutputStream out = w.get(5, java.util.concurrent.TimeUnit.SECONDS);
        out.write((sw("1.000000", 0, "R", pid) + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
        s.stop(); // the reader never sees the marker and reads nothing more: the drain gives up
        assertThat(s.unread()).isEqualTo(1300);
        assertThat(s.lost()).as("overrun + unread").isEqualTo(1305);
        assertThat(log).anySatisfy(l -> assertThat(l).contains("1300 scheduler events left unread"));
        // events read after the cut-off are not applied
        out.write((sw("1.000001", pid, "R", 0) + "\n").getBytes(StandardCharsets.UTF_8));
        out.close();
        Thread.sleep(200);
        assertThat(s.events()).isEqualTo(1);
    }

    @Test
    void theStopWaitsForAReaderThatIsBehindButProgressing() throws Exception {
        Path in = fakeInstance(0, 0, 0);
        TracefsSession s = session(1 << 18);
        var w = writer(in);
        assertThat(s.start()).isTrue();
        OutputStream out = w.get(5, java.util.concurrent.TimeUnit.SECONDS);
        int n = 160;
        Thread feeder = new Thread(() -> { // 3.2 s of backlog, then the stop marker (what the kernel does)
            try {
                for (int i = 0; i < n; i++) {
                    out.write((sw(String.format("1.%06d", i), i % 2 == 0 ? 0 : pid, "R", i % 2 == 0 ? pid : 0) + "\n")
                            .getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    Thread.sleep(20);
                }
                String marker = s.stopMarker();
                out.write(("  java-1 [000] ..... 2.000000: tracing_mark_write: " + marker + "\n").getBytes(StandardCharsets.UTF_8));
                out.close();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        feeder.start();
        s.stop();
        assertThat(s.events()).as("every event before the marker read before the stop returns").isEqualTo(n);
        assertThat(s.unread()).isZero();
        assertThat(s.lost()).isZero();
        feeder.join();
    }
}
