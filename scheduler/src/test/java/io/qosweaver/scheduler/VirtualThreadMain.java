package io.qosweaver.scheduler;

import io.qosweaver.scheduler.testing.Configs;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Run in a child JVM on JDK 21+ by {@link VirtualThreadTest}: low-importance virtual threads are
 * suspended while the main thread runs a high task, and all resume after. Virtual threads are made
 * by reflection because this code is Java 17 bytecode. Prints OK and exits 0 on success.
 */
public final class VirtualThreadMain {
    public static void main(String[] args) throws Exception {
        int n = 50;
        Scheduler s = Scheduler.install(Configs.importance(1));
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Method unstarted = Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class);
        AtomicLongArray passes = new AtomicLongArray(n);
        boolean[] stop = {false};
        List<Thread> ts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int id = i;
            Thread t = (Thread) unstarted.invoke(builder, (Runnable) () -> {
                QoS.enter("chart");
                try {
                    while (!stopped(stop)) {
                        QoS.controlPoint();
                        passes.incrementAndGet(id);
                        try {
                            Thread.sleep(1);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                } finally {
                    QoS.exit();
                }
            });
            ts.add(t);
            t.start();
        }
        waitUntil(() -> s.stats().runningThreads().get("chart") == n, "all virtual threads running");
        QoS.enter("collect");
        waitUntil(() -> s.stats().suspendedThreads() == n - 1, "n-1 virtual threads suspended");
        long[] before = new long[n];
        for (int i = 0; i < n; i++) {
            before[i] = passes.get(i);
        }
        QoS.exit();
        waitUntil(() -> {
            for (int i = 0; i < n; i++) {
                if (passes.get(i) <= before[i]) {
                    return false;
                }
            }
            return s.stats().suspendedThreads() == 0;
        }, "all virtual threads resumed");
        synchronized (stop) {
            stop[0] = true;
        }
        for (Thread t : ts) {
            t.join(10_000);
            if (t.isAlive()) {
                fail("a virtual thread did not finish");
            }
        }
        if (!((Boolean) Thread.class.getMethod("isVirtual").invoke(ts.get(0)))) {
            fail("not a virtual thread");
        }
        System.out.println("OK virtual threads on " + System.getProperty("java.version")
                + ": suspensions=" + s.stats().suspensions() + " resumes=" + s.stats().resumes());
        Scheduler.uninstall();
        System.exit(0);
    }

    private static boolean stopped(boolean[] stop) {
        synchronized (stop) {
            return stop[0];
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier c, String what) throws InterruptedException {
        long end = System.nanoTime() + 20_000_000_000L;
        while (!c.getAsBoolean()) {
            if (System.nanoTime() > end) {
                fail("timed out waiting: " + what);
            }
            Thread.sleep(5);
        }
    }

    private static void fail(String msg) {
        System.out.println("FAIL " + msg);
        System.exit(1);
    }
}
