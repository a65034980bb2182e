package org.example.connpool;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The thesis' case study 2 (a lost wake-up in a connection pool) as a tiny program: N processors
 * share a pool of M &lt; N connections for a while, then each prints its requests served, mean
 * service time and share of time spent waiting for a connection.
 *
 * <pre>java -jar connection-pool.jar [--fixed] [--processors 10] [--connections 4] [--seconds 20]
 *     [--cpu-us 1000] [--query-ms 10] [--send-ms 30] [--wait-ms 0] [--drain-seconds 3]</pre>
 *
 * <p>{@code --wait-ms 0} (the default) waits for a notification as long as it takes, as RUBiS did.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        boolean fixed = false;
        int processors = 10;
        int connections = 4;
        double seconds = 20;
        long cpuMicros = 1000;
        long queryMillis = 10;
        long waitMillis = 0;
        long sendMillis = 30;
        double drain = 3;

        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--fixed" -> fixed = true;
                case "--processors" -> processors = Integer.parseInt(args[++i]);
                case "--connections" -> connections = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--cpu-us" -> cpuMicros = Long.parseLong(args[++i]);
                case "--query-ms" -> queryMillis = Long.parseLong(args[++i]);
                case "--wait-ms" -> waitMillis = Long.parseLong(args[++i]);
                case "--send-ms" -> sendMillis = Long.parseLong(args[++i]);
                case "--drain-seconds" -> drain = Double.parseDouble(args[++i]);
                default -> {
                    System.err.println("unknown argument " + a + "; usage: [--fixed] [--processors N] [--connections M]"
                            + " [--seconds S] [--cpu-us US] [--query-ms MS] [--send-ms MS] [--wait-ms MS] [--drain-seconds S]");
                    System.exit(2);
                }
            }
        }
        ConnectionPool pool = new ConnectionPool(connections, fixed, waitMillis);
        List<Processor> all = new ArrayList<>();
        for (int i = 1; i <= processors; i++) {
            all.add(new Processor("processor-" + i, pool, cpuMicros, queryMillis, sendMillis));
        }
        System.out.printf(Locale.ROOT, "connection pool (%s): %d processors, %d connections, %.0f s%n",
                fixed ? "fixed: notifyAll on every release" : "lost wake-up: notify only into an empty pool",
                processors, connections, seconds);
        long start = System.nanoTime();
        all.forEach(Thread::start);
        Thread.sleep((long) (seconds * 1000));
        all.forEach(Processor::finish);
        double wall = (System.nanoTime() - start) / 1e9;
        // The load has ended: every processor finishes its request and stops. One still waiting for a
        // connection after the drain time waits for a notification no release will send any more.
        long drainEnd = System.nanoTime() + (long) (drain * 1e9);
        for (Processor p : all) {
            p.join(Math.max(1, (drainEnd - System.nanoTime()) / 1_000_000));
        }
        for (Processor p : all) {
            if (p.isAlive()) {
                System.out.printf(Locale.ROOT, "%s is still waiting for a connection %.1f s after the load ended, with %d"
                        + " of %d connections free: stranded by a lost wake-up; interrupted%n", p.getName(), drain,
                        pool.free(), connections);
                p.interrupt();
                p.join();
            }
        }
        System.out.println("releases into a non-empty pool while processors were waiting (no notification): "
                + pool.unnotified());
        System.out.println("processor      served  mean service ms  waiting for a connection");
        for (Processor p : all) {
            System.out.printf(Locale.ROOT, "%-13s %7d %16.1f %22.1f %%%n", p.getName(), p.served,
                    p.served > 0 ? p.serviceNanos / 1e6 / p.served : 0, 100 * p.poolWaitNanos / 1e9 / wall);
        }
    }
}
