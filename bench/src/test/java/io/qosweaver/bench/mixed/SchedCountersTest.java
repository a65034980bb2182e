package io.qosweaver.bench.mixed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class SchedCountersTest {

    private static final String SCHED = """
            java (4242, #threads: 31)
            -------------------------------------------------------------------
            se.exec_start                                :      33743667.932350
            se.nr_migrations                             :                   17
            nr_switches                                  :                  120
            nr_voluntary_switches                        :                  100
            nr_involuntary_switches                      :                   20
            se.load.weight                               :              1048576
            """;

    @Test
    void readsAFieldByItsWholeNameAtTheStartOfALine() {
        assertThat(SchedCounters.field(SCHED, "nr_voluntary_switches")).isEqualTo(100);
        assertThat(SchedCounters.field(SCHED, "nr_involuntary_switches")).isEqualTo(20);
        assertThat(SchedCounters.field(SCHED, "nr_switches")).as("not the tail of another name").isEqualTo(120);
        assertThat(SchedCounters.field(SCHED, "se.nr_migrations")).isEqualTo(17);
        assertThat(SchedCounters.field(SCHED, "se.exec_start")).as("the integer part").isEqualTo(33743667);
        assertThat(SchedCounters.field(SCHED, "nr_migrations")).as("only at a line's start").isZero();
        assertThat(SchedCounters.field(SCHED, "se.statistics.wait_sum")).as("absent on this kernel").isZero();
    }

    @Test
    void aWindowCountsPerThreadAWholeNewThreadAndSaysHowManyEnded() {
        SchedCounters.Reading before = new SchedCounters.Reading(1_000, 100, Map.of(
                1L, new long[] {50, 5, 3, 10_000_000}, 2L, new long[] {7, 7, 7, 7_000_000}));
        SchedCounters.Reading after = new SchedCounters.Reading(3_000, 500, Map.of(
                1L, new long[] {250, 25, 13, 70_250_000}, 3L, new long[] {4, 1, 2, 500_000}));
        SchedCounters d = SchedCounters.between(before, after);
        assertThat(d).as("thread 1's growth, thread 3 whole, thread 2 gone").isEqualTo(
                new SchedCounters(2_000, 400, 204, 21, 12, 60.8, 2, 1, 1));
        assertThat(d.sysShare()).isEqualTo(0.167);
        assertThat(SchedCounters.between(null, after)).isNull();
        assertThat(new SchedCounters(0, 0, 0, 0, 0, 0, 1, 0, 0).sysShare()).isNull();
        assertThat(SchedCounters.per(220, 100)).isEqualTo(2.2);
        assertThat(SchedCounters.per(5, 0)).isNull();
    }

    @Test
    void readsThisProcessFromProc() throws InterruptedException {
        assumeThat(Files.isDirectory(Path.of("/proc/self/task"))).as("a Linux /proc").isTrue();
        long pid = ProcessHandle.current().pid();
        SchedCounters.Reading before = SchedCounters.read(pid);
        CountDownLatch slept = new CountDownLatch(1);
        CountDownLatch read = new CountDownLatch(1);
        Thread sleeper = new Thread(() -> {
            try {
                for (int i = 0; i < 20; i++) {
                    Thread.sleep(1);
                }
                slept.countDown();
                read.await(); // alive at the second reading: an ended thread's switches leave with it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        sleeper.start();
        long end = System.nanoTime() + 50_000_000;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
        slept.await();
        SchedCounters.Reading after = SchedCounters.read(pid);
        read.countDown();
        sleeper.join();
        SchedCounters d = SchedCounters.between(before, after);
        assertThat(d).isNotNull();
        assertThat(d.threads()).isGreaterThan(1);
        assertThat(d.threadsStarted()).as("the sleeper").isGreaterThanOrEqualTo(1);
        assertThat(d.userMs() + d.sysMs()).as("50 ms of spinning is counted").isPositive();
        assertThat(d.voluntarySwitches()).as("the sleeper blocked 20 times").isGreaterThanOrEqualTo(10);
        assertThat(SchedCounters.read(Long.MAX_VALUE)).as("no such process").isNull();
    }
}
