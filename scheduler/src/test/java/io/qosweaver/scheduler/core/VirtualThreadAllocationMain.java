package io.qosweaver.scheduler.core;

import io.qosweaver.scheduler.QoS;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.testing.Configs;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/**
 * Run in a child JVM on JDK 21+ by {@code VirtualThreadTest}: one virtual thread per request, as
 * a server with virtual threads runs them, each entering a low scope, passing a control point and
 * leaving. Measures the heap allocated per request with the scope against the same requests
 * without it (the JVM's total allocation counter, JDK 21+; the minimum of several rounds, after a
 * warm-up), one request at a time: the steady path, without the lock contention under which a
 * blocked virtual thread allocates for its own unmounting whatever the scheduler does. Then runs
 * batches of concurrent requests and checks that the records came back to a bounded pool. Prints
 * OK and exits 0 on success.
 */
public final class VirtualThreadAllocationMain {
    static final int REQUESTS = 20_000, BATCH = 64, ROUNDS = 5;
    /** Bytes per request the scope may add: far below one record, map or array. */
    static final double MAX_EXTRA_BYTES = 24;

    public static void main(String[] args) throws Exception {
        Scheduler.install(Configs.importance(1));
        Method total = com.sun.management.ThreadMXBean.class.getMethod("getTotalThreadAllocatedBytes");
        Object bean = ManagementFactory.getThreadMXBean();
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Method unstarted = Class.forName("java.lang.Thread$Builder").getMethod("unstarted", Runnable.class);
        Runnable plain = () -> { };
        Runnable scoped = () -> {
            QoS.enter("chart");
            QoS.controlPoint();
            QoS.exit();
        };
        double bestPlain = Double.MAX_VALUE, bestScoped = Double.MAX_VALUE;
        for (int round = 0; round < ROUNDS; round++) {
            bestPlain = Math.min(bestPlain, perRequest(plain, 1, total, bean, builder, unstarted));
            bestScoped = Math.min(bestScoped, perRequest(scoped, 1, total, bean, builder, unstarted));
        }
        perRequest(scoped, BATCH, total, bean, builder, unstarted);
        int[] pool = ThreadStates.poolSizes();
        double extra = bestScoped - bestPlain;
        System.out.printf("virtual-thread request: %.1f B without a scope, %.1f B with one (%+.1f B); pool: %d in use, %d free%n",
                bestPlain, bestScoped, extra, pool[0], pool[1]);
        if (pool[0] != 0) {
            fail(pool[0] + " records still in use after every request ended");
        }
        // each stripe keeps its own free records: the pool is bounded by stripes + concurrency
        if (pool[1] > ThreadStates.STRIPES + 4 * BATCH) {
            fail("the pool grew to " + pool[1] + " records for " + BATCH + " concurrent requests");
        }
        if (extra > MAX_EXTRA_BYTES) {
            fail(String.format("a scope costs %.1f B per virtual-thread request (at most %.0f allowed)", extra, MAX_EXTRA_BYTES));
        }
        Scheduler.uninstall();
        System.out.println("OK virtual-thread allocation on " + System.getProperty("java.version"));
        System.exit(0);
    }

    private static double perRequest(Runnable body, int concurrent, Method total, Object bean, Object builder,
            Method unstarted) throws Exception {
        long before = (long) total.invoke(bean);
        List<Thread> batch = new ArrayList<>(concurrent);
        for (int i = 0; i < REQUESTS; i += concurrent) {
            batch.clear();
            for (int k = 0; k < concurrent; k++) {
                Thread t = (Thread) unstarted.invoke(builder, body);
                batch.add(t);
                t.start();
            }
            for (Thread t : batch) {
                t.join();
            }
        }
        return ((long) total.invoke(bean) - before) / (double) REQUESTS;
    }

    private static void fail(String msg) {
        System.out.println("FAIL " + msg);
        System.exit(1);
    }
}
