package io.qosweaver.e2e;

import io.qosweaver.testtargets.HostageWorker;

/**
 * A small program that knows nothing of QoSWeaver: a low thread takes a lock and works, a high
 * thread makes progress and then needs that lock. Run under the agent with a policy that makes the
 * low thread yield while the high one runs ({@code DeadlockIT}), the low thread is suspended with
 * the lock held. Prints {@code COMPLETED} and exits 0 when the high task ends, {@code DEADLOCK} and
 * exits 3 when it has not ended after {@code args[0]} ms.
 */
public final class E2eHostageApp {
    private E2eHostageApp() {}

    public static void main(String[] args) throws InterruptedException {
        long patienceMs = Long.parseLong(args[0]);
        HostageWorker w = new HostageWorker();
        Thread low = new Thread(w::chart, "low");
        low.setDaemon(true);
        low.start();
        while (!w.holdsLock) {
            Thread.sleep(1);
        }
        Thread high = new Thread(() -> w.collect(100), "high");
        high.setDaemon(true);
        high.start();
        Thread.sleep(300); // the high task has begun; the low thread would let the lock go now, if it ran
        w.stop = true;
        long start = System.nanoTime(), deadline = start + patienceMs * 1_000_000L;
        while (w.holdsLock && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        System.out.println((w.holdsLock ? "LOCK STILL HELD" : "LOCK RELEASED") + " after "
                + (System.nanoTime() - start) / 1_000_000 + " ms");
        w.highMayEnd = true;
        high.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        boolean completed = !high.isAlive();
        System.out.println(completed ? "COMPLETED" : "DEADLOCK");
        w.done = true;
        low.join(1_000);
        System.exit(completed ? 0 : 3);
    }
}
