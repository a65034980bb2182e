package io.qosweaver.e2e;

import io.qosweaver.testtargets.ShareWorker;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * A program that knows nothing of QoSWeaver: two threads run {@link ShareWorker#big} and two run
 * {@link ShareWorker#small}, all CPU-bound, for {@code args[0]} ms; then it prints the CPU time
 * each pair used ({@code BIG_CPU_MS=.. SMALL_CPU_MS=.. WALL_MS=..}) and waits to be killed, so that
 * the test can read the agent's metrics.
 */
public final class E2eShareApp {
    private E2eShareApp() {}

    public static void main(String[] args) throws InterruptedException {
        long runMs = Long.parseLong(args[0]);
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        ShareWorker w = new ShareWorker();
        List<Thread> big = new ArrayList<>(), small = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            big.add(new Thread(w::big, "big-" + i));
            small.add(new Thread(w::small, "small-" + i));
        }
        List<Thread> all = new ArrayList<>(big);
        all.addAll(small);
        all.forEach(t -> t.setDaemon(true));
        all.forEach(Thread::start);
        Thread.sleep(500); // warm-up: the JIT, the first rounds of the service list
        long big0 = cpu(mx, big), small0 = cpu(mx, small), t0 = System.nanoTime();
        Thread.sleep(runMs);
        long bigMs = (cpu(mx, big) - big0) / 1_000_000, smallMs = (cpu(mx, small) - small0) / 1_000_000;
        long wallMs = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("BIG_CPU_MS=" + bigMs + " SMALL_CPU_MS=" + smallMs + " WALL_MS=" + wallMs);
        System.out.flush();
        Thread.sleep(60_000);
        w.stop = true;
    }

    @SuppressWarnings("deprecation") // getId: Java 17
    private static long cpu(ThreadMXBean mx, List<Thread> threads) {
        long sum = 0;
        for (Thread t : threads) {
            sum += mx.getThreadCpuTime(t.getId());
        }
        return sum;
    }
}
