package io.qosweaver.bench.mixed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
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
    void aWindowIsTheDifferenceOfTwoReadingsWithTheLaterThreadCount() {
        SchedCounters a = new SchedCounters(1_000, 100, 50, 5, 3, 10.0, 40);
        SchedCounters b = new SchedCounters(3_000, 500, 250, 25, 13, 70.25, 42);
        SchedCounters d = b.minus(a);
        assertThat(d).isEqualTo(new SchedCounters(2_000, 400, 200, 20, 10, 60.3, 42));
        assertThat(d.sysShare()).isEqualTo(0.167);
        assertThat(new SchedCounters(0, 0, 0, 0, 0, 0, 1).sysShare()).isNull();
        assertThat(SchedCounters.per(220, 100)).isEqualTo(2.2);
        assertThat(SchedCounters.per(5, 0)).isNull();
    }

    @Test
    void readsThisProcessFromProc() throws InterruptedException {
        assumeThat(Files.isDirectory(Path.of("/proc/self/task"))).as("a Linux /proc").isTrue();
        long pid = ProcessHandle.current().pid();
        SchedCounters before = SchedCounters.read(pid);
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
        SchedCounters after = SchedCounters.read(pid);
        read.countDown();
        sleeper.join();
        assertThat(before).isNotNull();
        assertThat(after.threads()).isGreaterThan(1);
        assertThat(after.userMs() + after.sysMs()).as("50 ms of spinning is counted").isGreaterThan(
                before.userMs() + before.sysMs());
        assertThat(after.voluntarySwitches()).as("the sleeper blocked 20 times").isGreaterThanOrEqualTo(
                before.voluntarySwitches() + 10);
        assertThat(SchedCounters.read(Long.MAX_VALUE)).as("no such process").isNull();
    }
}
