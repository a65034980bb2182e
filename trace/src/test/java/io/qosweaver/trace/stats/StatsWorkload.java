package io.qosweaver.trace.stats;

import io.qosweaver.trace.TraceOptions;
import io.qosweaver.trace.Tracer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The child JVM of {@link StatsPageTest}: traces itself (as the agent would) while its threads
 * are forced into known states for about 1.5 s: one sleeps, one holds a monitor on the CPU, one
 * is blocked entering that monitor, one waits on a monitor. Writes the names of its live threads,
 * taken in the middle of the run, to the file given as second argument.
 */
public final class StatsWorkload {
    private static final Object LOCK = new Object();
    private static final Object WAIT = new Object();

    public static void main(String[] args) throws Exception {
        Tracer tracer = Tracer.start(TraceOptions.defaults(Path.of(args[0])), System.err::println);
        CountDownLatch holding = new CountDownLatch(1);
        Thread sleeper = new Thread(() -> {
            for (int i = 0; i < 15; i++) {
                sleep(100);
            }
        }, "stats-sleeper");
        Thread holder = new Thread(() -> {
            synchronized (LOCK) {
                holding.countDown();
                long end = System.nanoTime() + 1_200_000_000L;
                while (System.nanoTime() < end) {
                    Thread.onSpinWait();
                }
            }
        }, "stats-holder");
        Thread blocked = new Thread(() -> {
            await(holding);
            synchronized (LOCK) {
                LOCK.notifyAll();
            }
        }, "stats-blocked");
        Thread waiter = new Thread(() -> {
            synchronized (WAIT) {
                try {
                    WAIT.wait(1_500);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }, "stats-waiter");
        List<Thread> all = List.of(sleeper, holder, blocked, waiter);
        all.forEach(Thread::start);
        Thread.sleep(700);
        List<String> names = new ArrayList<>();
        Thread.getAllStackTraces().keySet().forEach(t -> names.add(t.getName()));
        Files.write(Path.of(args[1]), names);
        for (Thread t : all) {
            t.join();
        }
        Thread.sleep(1_200); // one more second of JFR's per-thread events, which name every live thread
        tracer.close();
        tracer.awaitStop(10_000);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
