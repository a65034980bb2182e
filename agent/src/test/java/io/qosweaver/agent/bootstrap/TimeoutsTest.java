package io.qosweaver.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The time-out aspects' runtime, driven as the woven advice drives it, with the real timer thread. */
class TimeoutsTest {
    private static final long MS = 1_000_000L;

    @Test
    void aSleepingExecutionIsInterruptedAtItsBoundAndTheInterruptEndsWithIt() throws Exception {
        int index = Aspects.timeout("sleep.yaml:3", 50 * MS, true);
        long start = System.nanoTime();
        Object timed = Aspects.startTimed(index);
        boolean interrupted = false;
        try {
            Thread.sleep(10_000);
        } catch (InterruptedException e) {
            interrupted = true;
            Thread.currentThread().interrupt(); // as well-behaved code does: the end of the execution clears it
        } finally {
            Aspects.endTimed(timed);
        }
        long took = System.nanoTime() - start;
        assertThat(interrupted).isTrue();
        assertThat(took).isBetween(50 * MS, 5_000 * MS);
        assertThat(Thread.currentThread().isInterrupted()).as("no interrupt past the execution").isFalse();
        Aspects.Timeout t = (Aspects.Timeout) Aspects.get(index);
        assertThat(List.of(t.started(), t.timedOut(), t.acted())).containsExactly(1L, 1L, 1L);
        assertThat(t.describe()).isEqualTo("timeout sleep.yaml:3: after 50ms interrupt, started 1, timed out 1,"
                + " interrupted 1");
    }

    @Test
    void aFastExecutionIsNeverInterruptedEvenAfterItsBoundHasPassed() throws Exception {
        int index = Aspects.timeout("fast.yaml:3", 20 * MS, true);
        Aspects.endTimed(Aspects.startTimed(index));
        Thread.sleep(200); // the deadline passes: the timer takes the entry and drops it
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        Aspects.Timeout t = (Aspects.Timeout) Aspects.get(index);
        assertThat(List.of(t.started(), t.timedOut(), t.acted())).containsExactly(1L, 0L, 0L);
    }

    @Test
    void anInterruptOfSomeoneElseIsLeftAsItWas() throws Exception {
        int index = Aspects.timeout("other.yaml:3", 10 * MS, true);
        Thread.currentThread().interrupt();
        Object timed = Aspects.startTimed(index);
        long until = System.nanoTime() + 100 * MS;
        while (System.nanoTime() < until) {
            Thread.onSpinWait(); // past the bound, the status still set by the application
        }
        Aspects.endTimed(timed);
        assertThat(Thread.interrupted()).as("the application's interrupt survives the execution").isTrue();
        Aspects.Timeout t = (Aspects.Timeout) Aspects.get(index);
        assertThat(List.of(t.timedOut(), t.acted())).as("timed out, but nothing of ours to set").containsExactly(1L, 0L);
    }

    @Test
    void aLateReturnFailsNamingTheAspectAndAFastOneReturns() throws Exception {
        int index = Aspects.timeout("fail.yaml:7", 30 * MS, false);
        Aspects.endFail(index, Aspects.startFail(index));
        long started = Aspects.startFail(index);
        Thread.sleep(60);
        assertThatThrownBy(() -> Aspects.endFail(index, started)).isInstanceOf(CancellationException.class)
                .hasMessageStartingWith("qosweaver timeout fail.yaml:7: the execution took ")
                .hasMessageEndingWith("exceeded 30ms");
        Aspects.Timeout t = (Aspects.Timeout) Aspects.get(index);
        assertThat(t.describe()).isEqualTo("timeout fail.yaml:7: after 30ms fail, started 2, timed out 1, failed 1");
    }

    /**
     * Many threads whose executions end just before, at and just after their bound, some of them
     * interrupted by the application before they start, some sleeping: the time-out interrupts
     * only executions still running past their bound, the status it sets never outlives the
     * execution (also checked a while after its end, once its deadline has surely passed), and an
     * application's interrupt is never cleared.
     */
    @Test
    void racingEndsAndDeadlinesNeverLeakOrLoseAnInterrupt() throws Exception {
        long after = 2 * MS;
        int index = Aspects.timeout("race.yaml:1", after, true);
        int threads = 4;
        int rounds = 250;
        AtomicReference<String> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            Thread t = new Thread(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                for (int i = 0; i < rounds && failure.get() == null; i++) {
                    boolean ownInterrupt = rnd.nextInt(8) == 0;
                    boolean sleeps = rnd.nextBoolean();
                    long body = rnd.nextLong(0, 2 * after);
                    if (ownInterrupt) {
                        Thread.currentThread().interrupt();
                    }
                    long start = System.nanoTime();
                    Object timed = Aspects.startTimed(index);
                    try {
                        if (sleeps && !ownInterrupt) {
                            try {
                                TimeUnit.NANOSECONDS.sleep(body);
                            } catch (InterruptedException e) {
                                long took = System.nanoTime() - start;
                                if (took < after) {
                                    failure.compareAndSet(null, "interrupted after " + took + " ns, before the bound");
                                }
                            }
                        } else {
                            long until = start + body;
                            while (System.nanoTime() < until) {
                                Thread.onSpinWait();
                            }
                        }
                    } finally {
                        Aspects.endTimed(timed);
                    }
                    if (Thread.interrupted() != ownInterrupt) {
                        failure.compareAndSet(null, ownInterrupt ? "the application's interrupt was cleared"
                                : "the time-out's interrupt outlived the execution");
                    }
                    if (rnd.nextInt(10) == 0) {
                        long until = System.nanoTime() + 3 * after; // past this execution's deadline
                        while (System.nanoTime() < until) {
                            Thread.onSpinWait();
                        }
                        if (Thread.interrupted()) {
                            failure.compareAndSet(null, "a deadline interrupted the thread after its execution");
                        }
                    }
                }
            }, "race-" + w);
            workers.add(t);
            t.start();
        }
        for (Thread t : workers) {
            t.join(60_000);
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(failure.get()).isNull();
        Aspects.Timeout t = (Aspects.Timeout) Aspects.get(index);
        assertThat(t.started()).isEqualTo((long) threads * rounds);
        assertThat(t.acted()).as("some executions ran past their bound").isPositive().isLessThanOrEqualTo(t.timedOut());
        assertThat(t.timedOut()).isLessThan(t.started());
    }
}
