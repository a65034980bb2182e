package io.qosweaver.agent.bootstrap;

import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the policy file's {@code aspects:} woven advice calls: bulkheads and synchronization
 * aspects, each registered under an index that is never reused, so that code woven by an earlier
 * policy (still on a stack after a swap) reaches its own aspect, and a release always goes to the
 * aspect that admitted (the advice keeps what {@code enter} returned). On the bootstrap class path.
 */
public final class Aspects {
    private static final Object LOCK = new Object();
    private static volatile Object[] registry = new Object[0];

    private Aspects() {}

    /** A bulkhead: at most {@code limit} inside, at most {@code queue} waiting, each at most {@code timeoutNanos}. */
    public static final class Bulkhead {
        final String name;
        final int limit;
        final int queue;
        final long timeoutNanos;
        final Semaphore permits;
        final AtomicInteger waiting = new AtomicInteger();
        final AtomicLong admitted = new AtomicLong();
        final AtomicLong rejected = new AtomicLong();

        Bulkhead(String name, int limit, int queue, long timeoutNanos) {
            this.name = name;
            this.limit = limit;
            this.queue = queue;
            this.timeoutNanos = timeoutNanos;
            this.permits = new Semaphore(limit, true); // first come, first served among the waiting
        }

        Object enter() {
            try {
                // the timed form keeps the queue's order; the untimed tryAcquire would barge ahead of it
                if (permits.tryAcquire(0, TimeUnit.NANOSECONDS)) {
                    admitted.incrementAndGet();
                    return this;
                }
                if (waiting.incrementAndGet() > queue) {
                    waiting.decrementAndGet();
                    throw reject("full: " + limit + " running and " + queue + " waiting");
                }
                try {
                    boolean in;
                    if (timeoutNanos > 0) {
                        in = permits.tryAcquire(timeoutNanos, TimeUnit.NANOSECONDS);
                    } else {
                        permits.acquire();
                        in = true;
                    }
                    if (!in) {
                        throw reject("no room within " + timeoutNanos / 1_000_000 + " ms");
                    }
                    admitted.incrementAndGet();
                    return this;
                } finally {
                    waiting.decrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw reject("interrupted while waiting");
            }
        }

        private RejectedExecutionException reject(String why) {
            rejected.incrementAndGet();
            return new RejectedExecutionException("qosweaver bulkhead " + name + " " + why);
        }

        public String describe() {
            return "bulkhead " + name + ": limit " + limit + ", running " + (limit - permits.availablePermits())
                    + ", waiting " + waiting.get() + " (at most " + queue + "), admitted " + admitted.get()
                    + ", rejected " + rejected.get();
        }

        public long rejected() {
            return rejected.get();
        }

        public long admitted() {
            return admitted.get();
        }
    }

    /** Runs the selected executions one at a time, in arrival order. */
    public static final class Serializer {
        final String name;
        final ReentrantLock lock = new ReentrantLock(true);
        final AtomicLong entered = new AtomicLong();

        Serializer(String name) {
            this.name = name;
        }

        Object enter() {
            lock.lock();
            entered.incrementAndGet();
            return this;
        }

        public String describe() {
            return "synchronize " + name + ": entered " + entered.get() + ", waiting " + lock.getQueueLength();
        }
    }

    /**
     * A semaphore between two join points (the paper's SynchSem, Fig. 9): a thread waits for a
     * permit before a {@code wait} execution, and a {@code signal} execution adds one when it
     * returns, so that a consumer that polled in a loop blocks until there is something to take.
     * A wait never outlasts {@code maxWaitNanos} (0: no limit): then the method runs anyway, as
     * it did before the aspect.
     */
    public static final class Signal {
        final String name;
        final Semaphore permits;
        final long maxWaitNanos;
        final AtomicLong waits = new AtomicLong();
        final AtomicLong signals = new AtomicLong();
        final AtomicLong timedOut = new AtomicLong();

        Signal(String name, int initial, long maxWaitNanos) {
            this.name = name;
            this.permits = new Semaphore(initial, true);
            this.maxWaitNanos = maxWaitNanos;
        }

        void await() {
            waits.incrementAndGet();
            try {
                if (maxWaitNanos > 0) {
                    if (!permits.tryAcquire(maxWaitNanos, TimeUnit.NANOSECONDS)) {
                        timedOut.incrementAndGet();
                    }
                } else {
                    permits.acquire();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the application's to see; the method runs
            }
        }

        public String describe() {
            return "semaphore " + name + ": waits " + waits.get() + ", signals " + signals.get() + ", waiting now "
                    + permits.getQueueLength() + ", permits " + permits.availablePermits() + ", waits that timed out "
                    + timedOut.get();
        }
    }

    /** Registers a semaphore aspect; its index, for both of its advices. */
    public static int signal(String name, int initial, long maxWaitNanos) {
        return register(new Signal(name, initial, maxWaitNanos));
    }

    /** Before a semaphore's {@code wait} execution. */
    public static void await(int index) {
        ((Signal) registry[index]).await();
    }

    /** After a semaphore's {@code signal} execution returned. */
    public static void signal(int index) {
        Signal s = (Signal) registry[index];
        s.signals.incrementAndGet();
        s.permits.release();
    }

    /** Registers a bulkhead; its index, for the advice. */
    public static int bulkhead(String name, int limit, int queue, long timeoutNanos) {
        return register(new Bulkhead(name, limit, queue, timeoutNanos));
    }

    /** Registers a synchronization aspect; its index, for the advice. */
    public static int serializer(String name) {
        return register(new Serializer(name));
    }

    /** The counters of the aspect registered last under {@code name}, or a line saying there is none. */
    public static String describeLatest(String name) {
        Object[] r = registry;
        for (int i = r.length - 1; i >= 0; i--) {
            if (r[i] instanceof Bulkhead b && b.name.equals(name)) {
                return b.describe();
            }
            if (r[i] instanceof Serializer s && s.name.equals(name)) {
                return s.describe();
            }
            if (r[i] instanceof Signal g && g.name.equals(name)) {
                return g.describe();
            }
        }
        return "no aspect " + name;
    }

    /** The aspect registered under {@code index}. */
    public static Object get(int index) {
        return registry[index];
    }

    private static int register(Object aspect) {
        synchronized (LOCK) {
            Object[] r = Arrays.copyOf(registry, registry.length + 1);
            r[r.length - 1] = aspect;
            registry = r;
            return r.length - 1;
        }
    }

    /** Before a selected execution: waits for room or throws {@link RejectedExecutionException}. */
    public static Object enter(int index) {
        Object a = registry[index];
        return a instanceof Bulkhead b ? b.enter() : ((Serializer) a).enter();
    }

    /** After it, on return or throw: releases what {@link #enter} took. */
    public static void exit(Object entered) {
        if (entered instanceof Bulkhead b) {
            b.permits.release();
        } else if (entered instanceof Serializer s) {
            s.lock.unlock();
        }
    }
}
