package org.example.connpool;

import java.util.concurrent.ThreadLocalRandom;

/**
 * A worker thread (the thesis' HttpProcessor): serves requests one after the other, each some CPU
 * work, then a query on a pooled connection (the database's answer is a sleep) and the reading of
 * its results, then the answer sent to the client (a sleep too). Counts what it served and how long
 * it waited for a connection.
 */
final class Processor extends Thread {
    private final ConnectionPool pool;
    private final long cpuMicros;
    private final long queryMillis;
    private final long sendMillis;
    private volatile boolean stop;
    volatile long served;
    volatile long serviceNanos;
    volatile long poolWaitNanos;
    private long sink;

    Processor(String name, ConnectionPool pool, long cpuMicros, long queryMillis, long sendMillis) {
        super(name);
        this.sendMillis = sendMillis;
        this.pool = pool;
        this.cpuMicros = cpuMicros;
        this.queryMillis = queryMillis;
    }

    void finish() {
        stop = true;
    }

    @Override
    public void run() {
        try {
            while (!stop) {
                long start = System.nanoTime();
                compute(cpuMicros / 2);
                long asked = System.nanoTime();
                int c = pool.acquire();
                long got = System.nanoTime();
                try {
                    Thread.sleep(jitter(queryMillis)); // the database works
                    compute(cpuMicros / 2); // the results are read while the connection is held
                } finally {
                    pool.release(c);
                }
                Thread.sleep(jitter(sendMillis)); // the page goes to a slow client
                long end = System.nanoTime();
                served++;
                serviceNanos += end - start;
                poolWaitNanos += got - asked;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Uniform in [ms/2, 3ms/2]: requests differ, so processors do not fall into lock step. */
    private static long jitter(long ms) {
        return ms / 2 + ThreadLocalRandom.current().nextLong(ms + 1);
    }

    /** Spins about this long on the CPU (the servlet's own work). */
    private void compute(long micros) {
        long end = System.nanoTime() + micros * 1000;
        long x = sink;
        while (System.nanoTime() < end) {
            x = x * 31 + 7;
        }
        sink = x;
    }
}
