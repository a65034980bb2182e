package io.qosweaver.trace.os;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Switch and wake-up sequences, as the kernel writes them, into slices. */
class SchedStatesTest {
    private final List<String> out = new ArrayList<>();
    private final SchedStates states = new SchedStates(new SchedStates.Sink() {
        @Override
        public void begin(long ts, int tid, String state, int cpu, char letter) {
            out.add(ts + " " + tid + " begin " + state + " cpu " + cpu);
        }

        @Override
        public void end(long ts, int tid) {
            out.add(ts + " " + tid + " end");
        }

        @Override
        public void name(int tid, String comm) {
            out.add(tid + " named " + comm);
        }
    }, Set.of(100, 101)::contains);
    private final SchedEventParser p = new SchedEventParser();

    private void line(String s) {
        assertThat(p.parse(s)).as(s).isNotEqualTo(SchedEventParser.UNKNOWN);
        states.apply(p);
    }

    private static String sw(int cpu, String ts, String prev, int prevPid, String state, String next, int nextPid) {
        return "  " + prev + "-" + prevPid + " [00" + cpu + "] d..2. " + ts + ": sched_switch: prev_comm=" + prev + " prev_pid="
                + prevPid + " prev_prio=120 prev_state=" + state + " ==> next_comm=" + next + " next_pid=" + nextPid
                + " next_prio=120";
    }

    private static String wake(int cpu, String ts, String comm, int pid, int target) {
        return "  <idle>-0 [00" + cpu + "] dNh2. " + ts + ": sched_wakeup: comm=" + comm + " pid=" + pid
                + " prio=120 target_cpu=00" + target;
    }

    @Test
    void sleepWakeRunPreemptAndBlock() {
        states.seed(1_000_000_000L, 100, 'S', 0);
        line(wake(1, "1.000010", "worker", 100, 1));            // Sleeping -> Runnable on CPU 1
        line(sw(1, "1.000030", "swapper/1", 0, "R", "worker", 100)); // -> Running on CPU 1
        line(sw(1, "1.000500", "worker", 100, "R+", "other", 555));  // preempted: Runnable, still on CPU 1
        line(sw(1, "1.000700", "other", 555, "S", "worker", 100));   // back on the CPU
        line(sw(1, "1.000900", "worker", 100, "D", "swapper/1", 0)); // blocked in I/O
        line(wake(0, "1.002000", "worker", 100, 0));
        line(sw(0, "1.002010", "swapper/0", 0, "R", "worker", 100));
        line(sw(0, "1.003000", "worker", 100, "X", "swapper/0", 0)); // exits
        assertThat(out).containsExactly(
                "1000000000 100 begin Sleeping cpu 0", "100 named worker",
                "1000010000 100 end", "1000010000 100 begin Runnable (waiting for CPU) cpu 1",
                "1000030000 100 end", "1000030000 100 begin Running cpu 1",
                "1000500000 100 end", "1000500000 100 begin Runnable (waiting for CPU) cpu 1",
                "1000700000 100 end", "1000700000 100 begin Running cpu 1",
                "1000900000 100 end", "1000900000 100 begin Blocked (I/O) cpu 1",
                "1002000000 100 end", "1002000000 100 begin Runnable (waiting for CPU) cpu 0",
                "1002010000 100 end", "1002010000 100 begin Running cpu 0",
                "1003000000 100 end");
        assertThat(states.state(100)).isNull();
    }

    @Test
    void otherProcessesAreIgnoredSideBySideAndSpuriousWakeupsChangeNothing() {
        line(sw(0, "2.000000", "other", 555, "S", "worker", 100));
        line(wake(0, "2.000100", "worker", 100, 1)); // woken while running: nothing
        line(wake(0, "2.000200", "other", 556, 1));   // not ours
        line(sw(0, "2.000300", "worker", 100, "S", "io", 101));
        line(wake(1, "2.000400", "worker", 100, 1));
        line(wake(1, "2.000450", "worker", 100, 1)); // twice: nothing
        line("  java-101 [000] d..2. 2.000460: sched_migrate_task: comm=worker pid=100 prio=120 orig_cpu=1 dest_cpu=0");
        states.closeAll(2_001_000_000L);
        assertThat(out).containsExactly(
                "100 named worker", "2000000000 100 begin Running cpu 0",
                "2000300000 100 end", "2000300000 100 begin Sleeping cpu 0",
                "101 named io", "2000300000 101 begin Running cpu 0",
                "2000400000 100 end", "2000400000 100 begin Runnable (waiting for CPU) cpu 1",
                "2000460000 100 end", "2000460000 100 begin Runnable (waiting for CPU) cpu 0",
                "2001000000 100 end", "2001000000 101 end");
    }

    @Test
    void anEventOlderThanTheSeedTakesEffectAtTheSeedAndTimeNeverGoesBack() {
        states.seed(5_000_000_000L, 100, 'R', 1);
        line(sw(1, "4.999000", "worker", 100, "S", "swapper/1", 0)); // read after the seed: at the seed's time
        line(wake(0, "5.000500", "worker", 100, 0));
        line(sw(0, "5.000400", "swapper/0", 0, "R", "worker", 100)); // another CPU's buffer, read behind
        assertThat(out).containsExactly(
                "5000000000 100 begin Running cpu 1", "100 named worker",
                "5000000000 100 end", "5000000000 100 begin Sleeping cpu 1",
                "5000500000 100 end", "5000500000 100 begin Runnable (waiting for CPU) cpu 0",
                "5000500000 100 end", "5000500000 100 begin Running cpu 0");
    }

    @Test
    void aNewThreadStartsRunnable() {
        line("  java-101 [000] d..2. 3.000000: sched_wakeup_new: comm=java pid=100 prio=120 target_cpu=001");
        line(sw(1, "3.000050", "swapper/1", 0, "R", "java", 100));
        assertThat(out).containsExactly("3000000000 101 begin Running cpu 0", // the creator, current on CPU 0
                "100 named java", "3000000000 100 begin Runnable (waiting for CPU) cpu 1",
                "3000050000 100 end", "3000050000 100 begin Running cpu 1");
    }

    @Test
    void aSwitchOutReadAfterTheSameThreadsLaterSwitchInOnAnotherCpuIsStaleAndIgnored() {
        line(sw(0, "6.000000", "swapper/0", 0, "R", "spin", 100));
        line(sw(1, "6.000020", "swapper/1", 0, "R", "spin", 100)); // CPU 1's buffer read first
        line(sw(0, "6.000010", "spin", 100, "R+", "other", 555));  // CPU 0's switch out, read behind: stale
        line(sw(0, "6.000020", "spin", 100, "R+", "other", 556));  // CPU 0 again, same microsecond: stale too
        assertThat(states.state(100)).isEqualTo(SchedStates.RUNNING);
        line(sw(1, "6.400000", "spin", 100, "R+", "other", 555));  // a real preemption on its CPU applies
        states.closeAll(6_500_000_000L);
        assertThat(states.stale()).isEqualTo(2);
        assertThat(out).containsExactly(
                "100 named spin", "6000000000 100 begin Running cpu 0",
                "6000020000 100 end", "6000020000 100 begin Running cpu 1",
                "6400000000 100 end", "6400000000 100 begin Runnable (waiting for CPU) cpu 1",
                "6500000000 100 end");
    }

    @Test
    void aThreadBouncingBetweenTwoCpusReadOutOfOrderEndsRunningWhereItLastWentIn() {
        line(sw(0, "7.000000", "swapper/0", 0, "R", "spin", 100));
        line(sw(0, "7.000100", "spin", 100, "R+", "other", 555)); // preempted on CPU 0
        line(sw(0, "7.000400", "other", 555, "S", "spin", 100));  // back on CPU 0 ...
        line(sw(1, "7.000200", "swapper/1", 0, "R", "spin", 100)); // ... after a turn on CPU 1, whose buffer is read behind
        line(sw(1, "7.000300", "spin", 100, "R+", "other", 556));
        assertThat(states.state(100)).isEqualTo(SchedStates.RUNNING);
        states.closeAll(7_900_000_000L);
        assertThat(states.stale()).isEqualTo(2);
        assertThat(out).containsExactly(
                "100 named spin", "7000000000 100 begin Running cpu 0",
                "7000100000 100 end", "7000100000 100 begin Runnable (waiting for CPU) cpu 0",
                "7000400000 100 end", "7000400000 100 begin Running cpu 0",
                "7900000000 100 end");
    }

    @Test
    void aWakeUpReadBeforeTheSwitchOutItFollowsLeavesTheThreadWaitingForACpu() {
        line(sw(0, "8.000000", "swapper/0", 0, "R", "worker", 100));
        line(wake(1, "8.000300", "worker", 100, 1));                 // CPU 1 wakes it (read first: it still runs)
        line(sw(0, "8.000200", "worker", 100, "S", "swapper/0", 0)); // its sleep, before the wake-up
        assertThat(states.state(100)).isEqualTo(SchedStates.RUNNABLE);
        line(wake(1, "8.000100", "worker", 100, 1));                 // an older wake-up than its latest switch
        line(sw(1, "8.000500", "swapper/1", 0, "R", "worker", 100));
        assertThat(out).containsExactly(
                "100 named worker", "8000000000 100 begin Running cpu 0",
                "8000200000 100 end", "8000200000 100 begin Runnable (waiting for CPU) cpu 1",
                "8000500000 100 end", "8000500000 100 begin Running cpu 1");
    }

    @Test
    void aThreadCurrentInALaterEventRunsFromThereWhenItsSwitchInWasNotReported() {
        line(sw(1, "9.000000", "swapper/1", 0, "R", "spin", 100));
        line(sw(1, "9.000100", "spin", 100, "R", "agent", 68)); // the switch back from 68 never comes
        line("  spin-100 [001] dNs4. 9.100000: sched_wakeup: comm=kworker/1:1 pid=2178 prio=120 target_cpu=001");
        assertThat(states.state(100)).isEqualTo(SchedStates.RUNNING);
        line("  spin-100 [001] d.h2. 9.200000: sched_migrate_task: comm=other pid=555 prio=120 orig_cpu=1 dest_cpu=0");
        line("  spin-100 [000] d..2. 9.300000: sched_wakeup: comm=other pid=555 prio=120 target_cpu=001"); // moved: CPU 0
        line(sw(0, "9.300000", "spin", 100, "S", "swapper/0", 0));
        line("  spin-100 [000] d..2. 9.300000: sched_wakeup: comm=other pid=555 prio=120 target_cpu=001"); // same microsecond
        assertThat(states.state(100)).isEqualTo(SchedStates.SLEEPING);
        assertThat(states.inferred()).isEqualTo(2);
        assertThat(states.inferredGapNanos()).isEqualTo(99_900_000L); // shown Runnable (then Running, on CPU 1 instead of 0)
        assertThat(out).containsExactly(
                "100 named spin", "9000000000 100 begin Running cpu 1",
                "9000100000 100 end", "9000100000 100 begin Runnable (waiting for CPU) cpu 1",
                "9100000000 100 end", "9100000000 100 begin Running cpu 1",
                "9300000000 100 end", "9300000000 100 begin Running cpu 0",
                "9300000000 100 end", "9300000000 100 begin Sleeping cpu 0");
    }
}
