package io.qosweaver.agent.bootstrap;

import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.ReentrantLock;

/**
 * What the policy file's {@code aspects:} woven advice calls: bulkheads, synchronization,
 * semaphore and time-out aspects, each registered under an index that is never reused, so that code woven by an earlier
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

    /**
     * A time-out aspect. {@code fail}: an execution that returns normally after {@code afterNanos}
     * throws {@link CancellationException} instead (no timer: the clock is read at entry and at
     * return). {@code interrupt}: an execution still running at the bound has its thread
     * interrupted, once, by the one timer thread of all time-outs; see {@link Timed} for the race
     * with the execution's end.
     */
    public static final class Timeout {
        final String name;
        final long afterNanos;
        final boolean interrupt;
        final AtomicLong started = new AtomicLong();
        final AtomicLong timedOut = new AtomicLong();
        final AtomicLong acted = new AtomicLong();

        Timeout(String name, long afterNanos, boolean interrupt) {
            this.name = name;
            this.afterNanos = afterNanos;
            this.interrupt = interrupt;
        }

        public String describe() {
            return "timeout " + name + ": after " + millis(afterNanos) + " " + (interrupt ? "interrupt" : "fail")
                    + ", started " + started.get() + ", timed out " + timedOut.get() + ", "
                    + (interrupt ? "interrupted " : "failed ") + acted.get();
        }

        public long started() {
            return started.get();
        }

        public long timedOut() {
            return timedOut.get();
        }

        /** Threads interrupted ({@code interrupt}) or late returns turned into a throw ({@code fail}). */
        public long acted() {
            return acted.get();
        }
    }

    private static String millis(long nanos) {
        long ms = nanos / 1_000_000;
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }

    /**
     * One execution under an {@code interrupt} time-out, the one object it allocates: its own
     * entry in the timer's queue. Its state goes from RUNNING to DONE (the execution ended first:
     * the timer will find it DONE and drop it) or to FIRING (the timer first), then to
     * INTERRUPTED (the timer set the thread's interrupt status) or SKIPPED (the status was set
     * already, by someone else: not ours to clear). The end of an execution that lost the race
     * waits out FIRING, a few instructions of the timer's, then clears the status only if the
     * timer set it; so an interrupt of the time-out never outlives its execution, and one that
     * fires after the return does nothing.
     */
    public static final class Timed implements Delayed {
        static final int RUNNING = 0;
        static final int DONE = 1;
        static final int FIRING = 2;
        static final int INTERRUPTED = 3;
        static final int SKIPPED = 4;
        private static final AtomicIntegerFieldUpdater<Timed> STATE =
                AtomicIntegerFieldUpdater.newUpdater(Timed.class, "state");

        final Timeout aspect;
        final Thread thread;
        final long deadline;
        volatile int state;

        Timed(Timeout aspect, Thread thread, long deadline) {
            this.aspect = aspect;
            this.thread = thread;
            this.deadline = deadline;
        }

        /** On the timer thread, at the deadline. */
        void fire() {
            if (!STATE.compareAndSet(this, RUNNING, FIRING)) {
                return; // ended before its bound
            }
            aspect.timedOut.incrementAndGet();
            if (thread.isInterrupted()) {
                state = SKIPPED;
                return;
            }
            thread.interrupt();
            aspect.acted.incrementAndGet();
            state = INTERRUPTED;
        }

        /** On the executing thread, when the execution returns or throws. */
        void end() {
            if (STATE.compareAndSet(this, RUNNING, DONE)) {
                return;
            }
            int s;
            while ((s = state) == FIRING) {
                Thread.onSpinWait();
            }
            if (s == INTERRUPTED) {
                Thread.interrupted(); // ours: the execution's caller never sees it
            }
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(deadline - ((Timed) o).deadline, 0);
        }
    }

    /** The deadlines of every {@code interrupt} time-out; its thread starts with the first such aspect. */
    private static final DelayQueue<Timed> DEADLINES = new DelayQueue<>();
    private static Thread timer;

    private static void startTimer() {
        synchronized (LOCK) {
            if (timer != null) {
                return;
            }
            Thread t = new Thread(() -> {
                while (true) {
                    try {
                        DEADLINES.take().fire();
                    } catch (InterruptedException e) {
                        // only the JVM's end stops the timer
                    } catch (RuntimeException | Error e) {
                        // a failed interrupt (a security manager) must not stop every other time-out
                    }
                }
            }, "qosweaver-timeouts");
            t.setDaemon(true);
            t.setContextClassLoader(null);
            t.start();
            timer = t;
        }
    }

    /** Registers a time-out aspect; its index, for the advice. */
    public static int timeout(String name, long afterNanos, boolean interrupt) {
        if (interrupt) {
            startTimer();
        }
        return register(new Timeout(name, afterNanos, interrupt));
    }

    /** Before an execution under an {@code interrupt} time-out: its deadline, queued. */
    public static Object startTimed(int index) {
        Timeout a = (Timeout) registry[index];
        a.started.incrementAndGet();
        Timed t = new Timed(a, Thread.currentThread(), System.nanoTime() + a.afterNanos);
        DEADLINES.offer(t);
        return t;
    }

    /** After it, on return or throw. */
    public static void endTimed(Object timed) {
        if (timed instanceof Timed t) {
            t.end();
        }
    }

    /** Before an execution under a {@code fail} time-out: the clock. */
    public static long startFail(int index) {
        ((Timeout) registry[index]).started.incrementAndGet();
        return System.nanoTime();
    }

    /** After it returned normally: throws if it took longer than the bound. */
    public static void endFail(int index, long started) {
        long took = System.nanoTime() - started;
        Timeout a = (Timeout) registry[index];
        if (took > a.afterNanos) {
            a.timedOut.incrementAndGet();
            a.acted.incrementAndGet();
            throw new CancellationException("qosweaver timeout " + a.name + ": the execution took "
                    + took / 1_000_000 + " ms, exceeded " + millis(a.afterNanos));
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
            if (r[i] instanceof Timeout t && t.name.equals(name)) {
                return t.describe();
            }
        }
        return "no aspect " + name;
    }

    /**
     * The counters of the aspect registered last under {@code name}, as {@code ctl status --json}
     * gives them (agent/README.md, "ctl status --json"), or null when there is none.
     */
    public static java.util.Map<String, Object> stateLatest(String name) {
        Object[] r = registry;
        for (int i = r.length - 1; i >= 0; i--) {
            java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
            if (r[i] instanceof Bulkhead b && b.name.equals(name)) {
                m.put("limit", b.limit);
                m.put("running", b.limit - b.permits.availablePermits());
                m.put("waiting", b.waiting.get());
                m.put("queue", b.queue);
                m.put("timeoutMs", b.timeoutNanos / 1_000_000);
                m.put("admitted", b.admitted.get());
                m.put("rejected", b.rejected.get());
                return m;
            }
            if (r[i] instanceof Serializer s && s.name.equals(name)) {
                m.put("entered", s.entered.get());
                m.put("waiting", s.lock.getQueueLength());
                return m;
            }
            if (r[i] instanceof Signal g && g.name.equals(name)) {
                m.put("waits", g.waits.get());
                m.put("signals", g.signals.get());
                m.put("waiting", g.permits.getQueueLength());
                m.put("permits", g.permits.availablePermits());
                m.put("timedOut", g.timedOut.get());
                return m;
            }
            if (r[i] instanceof Timeout t && t.name.equals(name)) {
                m.put("afterMs", t.afterNanos / 1_000_000);
                m.put("action", t.interrupt ? "interrupt" : "fail");
                m.put("started", t.started.get());
                m.put("timedOut", t.timedOut.get());
                m.put(t.interrupt ? "interrupted" : "failed", t.acted.get());
                return m;
            }
        }
        return null;
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
