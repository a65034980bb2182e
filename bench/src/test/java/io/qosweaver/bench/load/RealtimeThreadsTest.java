package io.qosweaver.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** SCHED_FIFO for a driver's sending threads, on the real kernel (skipped, with the reason, without the privilege). */
class RealtimeThreadsTest {

    /** The scheduling policy of the calling thread as the kernel shows it: field 41 of /proc/thread-self/stat. */
    static int policyShownByTheKernel() throws Exception {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(f[41 - 3]);
    }

    @Test
    void aThreadEntersFifoAndTheThreadsItStartsDoNot() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/stat")), "Linux only");
        String refused = RealtimeThreads.probe(1);
        assumeTrue(refused == null, () -> "SCHED_FIFO refused here: " + refused);
        AtomicReference<String> seen = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                int before = policyShownByTheKernel();
                String why = RealtimeThreads.enterFifo(1);
                int after = policyShownByTheKernel();
                AtomicReference<Integer> child = new AtomicReference<>();
                Thread c = new Thread(() -> {
                    try {
                        child.set(policyShownByTheKernel());
                    } catch (Exception e) {
                        child.set(-1);
                    }
                });
                c.start();
                c.join();
                seen.set(before + " " + why + " " + after + " " + RealtimeThreads.isFifo() + " " + child.get());
            } catch (Exception e) {
                seen.set(e.toString());
            }
        });
        t.start();
        t.join();
        // SCHED_OTHER 0 before, SCHED_FIFO 1 after; SCHED_RESET_ON_FORK: the child starts in SCHED_OTHER
        assertThat(seen.get()).isEqualTo("0 null 1 true 0");
        assertThat(RealtimeThreads.isFifo()).as("the test's own thread is untouched").isFalse();
        assertThat(policyShownByTheKernel()).isZero();
    }

    @Test
    void aPriorityOutsideTheRealTimeRangeIsRefused() {
        assertThatThrownBy(() -> RealtimeThreads.enterFifo(0)).hasMessage("a SCHED_FIFO priority is 1..99, got 0");
        assertThatThrownBy(() -> RealtimeThreads.enterFifo(100)).hasMessage("a SCHED_FIFO priority is 1..99, got 100");
    }
}
