package io.qosweaver.agent.bootstrap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The probe of the agent's profiling mode (QoSWeaver section 3.3: "a profiling aspect that records
 * a caller's method name, a callee's method signature and the time stamp for each method call").
 * The agent weaves {@code CallProbe.record(callerId, calleeId)} before every call instruction of
 * the profiled packages, with both ids interned at weave time. It lives on the bootstrap class
 * path (see {@code BootstrapInjector}) so that woven classes of any loader reach one copy, and it
 * depends on nothing but the JDK.
 *
 * <p><b>Hot path.</b> One volatile read of {@link #active} (null: not recording, so a stopped
 * profile costs a read and a branch), a {@code ThreadLocal} lookup, the recursion guard (a field
 * of the thread's {@link Local}, set and cleared), {@code System.nanoTime()} and three array
 * stores into the thread's current {@link Chunk}. No allocation, no lock, no map except the
 * thread-local. It never throws: every failure is counted and swallowed.
 *
 * <p><b>What it runs.</b> Only {@code java.lang} ({@code Thread}, {@code ThreadLocal},
 * {@code System}, {@code VarHandle}), {@code java.util} ({@code Arrays}, {@code ArrayList}, the
 * concurrent queue, atomics and {@code LockSupport}) and, under those, {@code jdk.internal.misc}:
 * the profiling mode never weaves them ({@code io.qosweaver.agent.unit.callprobe.ProfiledPackages}). Should a
 * profiled method still be called from inside the probe, the guard skips it instead of
 * recursing.
 *
 * <p><b>Assumptions and guarantees.</b> A chunk has one producer (its owner thread) while it is
 * current, and one consumer (the agent's writer thread) after it has been handed off through
 * {@link Session#full}; it returns to the owner side only through the free list, after the writer
 * has consumed it, so producer and consumer never touch a chunk at the same time except at the
 * end ({@link Session#partialChunks}), where the consumer reads up to the release-stored
 * {@code published} count. The chunks of one thread are queued in the order they were filled,
 * and a thread's partial chunk is only read after the queue is empty, so each thread's join
 * points reach the writer in time order. Memory is bounded by the session's chunk budget: when
 * it is spent and the writer has not recycled a chunk, the producer waits for it (back-pressure:
 * the profile stays complete; the wait is counted as a stall) for at most one second, then drops
 * the join point and counts it.
 */
public final class CallProbe {
    private CallProbe() {}

    /** Join points per chunk: 4096 x 16 bytes = 64 KiB. */
    public static final int CHUNK = 4096;

    private static volatile Session active;
    private static final ThreadLocal<Local> CURRENT = new ThreadLocal<>() {
        @Override
        protected Local initialValue() {
            return new Local();
        }
    };

    static {
        // Load the classes of the hot path now, not from inside a probe: loading a class runs every
        // ClassFileTransformer (ours, any other agent's), code the probe must not depend on.
        new Local();
        Recorder.class.getName();
        Chunk.class.getName();
        VarHandleHolder.PUBLISHED.getClass();
    }

    /**
     * A thread's probe state across sessions: whether it is inside the probe now (the recursion
     * guard) and its recorder of the current session.
     */
    static final class Local {
        boolean inProbe;
        Recorder recorder;
    }

    /**
     * Before every profiled call instruction. Never throws, never recurses: a probe entered while
     * the same thread is already inside one (code the probe runs that is itself profiled: a JDK
     * method, an overridden {@code Thread.getId()}, another agent's transformer loading a class)
     * returns at once and is counted ({@link Session#reentered()}), so the outer probe records
     * its join point and the inner call is not a join point of the profile.
     */
    public static void record(int callerId, int calleeId) {
        Session s = active;
        if (s == null) {
            return;
        }
        record(s, callerId, calleeId);
    }

    /**
     * A join point's caller and callee id when its thread entered a server's request: no signature
     * but a mark in the thread's time line, corrected like the join points around it.
     */
    public static final int REQUEST_BEGIN = -1;
    /** The mark of its thread leaving a server's request (see {@link #REQUEST_BEGIN}). */
    public static final int REQUEST_END = -2;

    /** At a server's entry for a request, in the profiling mode (nested entries each mark). */
    public static void requestBegin() {
        Session s = active;
        if (s != null) {
            record(s, REQUEST_BEGIN, REQUEST_BEGIN);
        }
    }

    /** Where a server's entry for a request returns or throws. */
    public static void requestEnd() {
        Session s = active;
        if (s != null) {
            record(s, REQUEST_END, REQUEST_END);
        }
    }

    /** The probe's work once it has found an active session; {@link #measureCost} times exactly this. */
    private static void record(Session s, int callerId, int calleeId) {
        Local l;
        try {
            l = CURRENT.get();
        } catch (Throwable t) {
            s.errors.incrementAndGet();
            return;
        }
        if (l.inProbe) {
            s.reentered.incrementAndGet();
            return;
        }
        l.inProbe = true;
        try {
            Recorder r = l.recorder;
            if (r == null || r.session != s) {
                r = s.register(Thread.currentThread());
                l.recorder = r;
            }
            r.add(callerId, calleeId);
        } catch (Throwable t) {
            s.errors.incrementAndGet();
        } finally {
            l.inProbe = false;
        }
    }

    /**
     * The probe's cost per join point on this machine, in nanoseconds: the median of five timed
     * runs of {@code calls} probes into a private session (after as many to warm up), none of them
     * recorded anywhere. A probe woven into an application costs at least this; what it also
     * costs there (a call the compiler did not inline, optimizations of the caller's loop that the
     * call prevents) is not in it.
     */
    public static double measureCost(int calls) {
        Session s = new Session(64L * CHUNK * 16, 1);
        Local l = CURRENT.get();
        Recorder saved = l.recorder;
        double[] perCall = new double[5];
        runCalibration(s, calls);
        for (int run = 0; run < perCall.length; run++) {
            perCall[run] = (double) runCalibration(s, calls) / calls;
        }
        java.util.Arrays.sort(perCall);
        l.recorder = saved; // this thread's recorder of a real session, if it had one
        return perCall[perCall.length / 2];
    }

    /** Nanoseconds spent in {@code calls} probes, the full chunks handed back between batches. */
    private static long runCalibration(Session s, int calls) {
        long spent = 0;
        for (int done = 0; done < calls; ) {
            int batch = Math.min(CHUNK / 2, calls - done);
            long start = System.nanoTime();
            for (int i = 0; i < batch; i++) {
                record(s, i & 7, 8);
            }
            spent += System.nanoTime() - start;
            done += batch;
            for (Chunk c; (c = s.pollFull()) != null; ) {
                s.recycle(c);
            }
        }
        return spent;
    }

    /** Starts recording into {@code s} (replacing any other session). */
    public static void activate(Session s) {
        active = s;
    }

    /** Stops recording into {@code s}; false if another session (or none) was active. */
    public static boolean deactivate(Session s) {
        if (active == s) {
            active = null;
            return true;
        }
        return false;
    }

    public static Session active() {
        return active;
    }

    /** One recording: its chunk budget, the queue of full chunks and the threads that recorded. */
    public static final class Session {
        final int maxChunks;
        final int maxThreads;
        final AtomicInteger chunks = new AtomicInteger();
        final ConcurrentLinkedQueue<Chunk> free = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Chunk> full = new ConcurrentLinkedQueue<>();
        private Recorder[] recorders = new Recorder[0];
        private int threadsSeen;
        private volatile boolean threadLimitReached;
        private volatile boolean closed;
        private volatile Thread writer;
        final AtomicLong stalls = new AtomicLong();
        final AtomicLong stallNanos = new AtomicLong();
        final AtomicLong dropped = new AtomicLong();
        final AtomicLong errors = new AtomicLong();
        final AtomicLong reentered = new AtomicLong();

        /**
         * @param maxBufferBytes the bound on buffered join points of all threads together
         * @param maxThreads threads beyond this many record nothing ({@link #threadLimitReached()})
         */
        public Session(long maxBufferBytes, int maxThreads) {
            this.maxChunks = (int) Math.max(2, Math.min(Integer.MAX_VALUE, maxBufferBytes / (CHUNK * 16L)));
            this.maxThreads = maxThreads;
            // created here, outside any probe: its first use loads and initializes classes
            java.lang.management.ThreadMXBean t = null;
            try {
                t = java.lang.management.ManagementFactory.getThreadMXBean();
                if (!t.isCurrentThreadCpuTimeSupported() || !t.isThreadCpuTimeEnabled()) {
                    t = null;
                } else {
                    t.getCurrentThreadCpuTime();
                }
            } catch (RuntimeException | Error e) {
                t = null;
            }
            this.threads = t;
        }

        private final java.lang.management.ThreadMXBean threads;

        /** The calling thread's CPU time, -1 without a CPU clock; once per chunk, so its cost does not count. */
        long cpuNow() {
            return threads == null ? -1 : threads.getCurrentThreadCpuTime();
        }

        /** The thread that drains this session; producers unpark it when they need a chunk. */
        public void writer(Thread t) {
            writer = t;
        }

        synchronized Recorder register(Thread t) {
            if (t == writer) {
                // the writer never records: it would wait for the chunks it is meant to drain
                return new Recorder(this, t, false);
            }
            if (threadsSeen >= maxThreads) {
                threadLimitReached = true;
                return new Recorder(this, t, false);
            }
            threadsSeen++;
            Recorder r = new Recorder(this, t, true);
            Recorder[] a = java.util.Arrays.copyOf(recorders, recorders.length + 1);
            a[recorders.length] = r;
            recorders = a;
            return r;
        }

        /** The next full chunk in hand-off order, or null. */
        public Chunk pollFull() {
            return full.poll();
        }

        /** True if no full chunk waits for the writer. */
        public boolean noneFull() {
            return full.isEmpty();
        }

        /** Gives a consumed chunk back to the producers. */
        public void recycle(Chunk c) {
            c.owner = null;
            c.size = 0;
            c.read = 0;
            c.cpuStart = -1;
            c.cpuEnd = -1;
            c.wallEnd = -1;
            VarHandleHolder.PUBLISHED.setRelease(c, 0);
            free.offer(c);
        }

        /**
         * The current (partial) chunks of threads that have died, removing them: call after the
         * queue of full chunks has been drained, with the dead set taken before that drain.
         */
        public synchronized Chunk[] takeDeadPartials(java.util.function.Predicate<Thread> dead) {
            java.util.List<Chunk> out = new java.util.ArrayList<>();
            java.util.List<Recorder> keep = new java.util.ArrayList<>();
            for (Recorder r : recorders) {
                if (dead.test(r.thread)) {
                    if (r.chunk != null) {
                        out.add(r.chunk);
                        r.chunk = null;
                    }
                } else {
                    keep.add(r);
                }
            }
            recorders = keep.toArray(new Recorder[0]);
            return out.toArray(new Chunk[0]);
        }

        /** The threads that recorded in this session and have ended since. */
        public synchronized java.util.Set<Thread> deadThreads() {
            java.util.Set<Thread> dead = new java.util.HashSet<>();
            for (Recorder r : recorders) {
                if (!r.thread.isAlive()) {
                    dead.add(r.thread);
                }
            }
            return dead;
        }

        /** Every live thread's current chunk; only after {@link #close()} and a drained queue. */
        public synchronized Chunk[] partialChunks() {
            java.util.List<Chunk> out = new java.util.ArrayList<>();
            for (Recorder r : recorders) {
                if (r.chunk != null) {
                    out.add(r.chunk);
                }
            }
            return out.toArray(new Chunk[0]);
        }

        /** Producers stop waiting for chunks and drop from now on. */
        public void close() {
            closed = true;
        }

        public boolean threadLimitReached() {
            return threadLimitReached;
        }

        public int threadsSeen() {
            synchronized (this) {
                return threadsSeen;
            }
        }

        public long stalls() {
            return stalls.get();
        }

        public long stallNanos() {
            return stallNanos.get();
        }

        public long dropped() {
            return dropped.get();
        }

        public long errors() {
            return errors.get();
        }

        /** Probes entered while their thread was already inside the probe, and skipped. */
        public long reentered() {
            return reentered.get();
        }

        public int chunksAllocated() {
            return chunks.get();
        }

        public int maxChunks() {
            return maxChunks;
        }

        Chunk take(Recorder r) {
            Chunk c = free.poll();
            if (c == null && chunks.incrementAndGet() <= maxChunks) {
                c = new Chunk();
            } else if (c == null) {
                chunks.decrementAndGet();
                c = waitForChunk();
            }
            if (c != null) {
                c.owner = r;
            }
            return c;
        }

        private Chunk waitForChunk() {
            long start = System.nanoTime();
            long deadline = start + TimeUnit.SECONDS.toNanos(1);
            stalls.incrementAndGet();
            try {
                while (!closed) {
                    Thread w = writer;
                    if (w != null) {
                        LockSupport.unpark(w);
                    }
                    LockSupport.parkNanos(20_000);
                    Chunk c = free.poll();
                    if (c != null) {
                        return c;
                    }
                    if (System.nanoTime() - deadline > 0) {
                        return null;
                    }
                }
                return null;
            } finally {
                stallNanos.addAndGet(System.nanoTime() - start);
            }
        }
    }

    /** A thread's view of one session: its current chunk. */
    static final class Recorder {
        final Session session;
        final Thread thread;
        final long threadId;
        final boolean recording;
        Chunk chunk;

        @SuppressWarnings("deprecation") // Thread.threadId() is JDK 19+; getId() is the same number
        Recorder(Session session, Thread thread, boolean recording) {
            this.session = session;
            this.thread = thread;
            this.threadId = thread.getId();
            this.recording = recording;
        }

        void add(int caller, int callee) {
            if (!recording) {
                return;
            }
            Chunk c = chunk;
            if (c == null || c.size == CHUNK) {
                if (c != null) {
                    // the chunk's end on both clocks: the writer takes the time off the CPU out
                    c.cpuEnd = session.cpuNow();
                    c.wallEnd = System.nanoTime();
                    session.full.offer(c);
                }
                c = session.take(this);
                chunk = c;
                if (c == null) {
                    session.dropped.incrementAndGet();
                    return;
                }
                c.cpuStart = session.cpuNow();
            }
            int n = c.size;
            c.times[n] = System.nanoTime();
            c.callers[n] = caller;
            c.callees[n] = callee;
            c.size = n + 1;
            VarHandleHolder.PUBLISHED.setRelease(c, n + 1);
        }
    }

    /** Up to {@link #CHUNK} join points of one thread, in time order. */
    public static final class Chunk {
        public final long[] times = new long[CHUNK];
        /**
         * The thread's CPU time just before the chunk's first join point and just after its last
         * (-1 where unknown: no CPU clock, or a chunk not filled), and the wall time with the
         * latter: a thread that was off its CPU (preempted, a GC pause) shows the difference.
         */
        public long cpuStart = -1;
        public long cpuEnd = -1;
        public long wallEnd = -1;
        public final int[] callers = new int[CHUNK];
        public final int[] callees = new int[CHUNK];
        int size; // producer only
        @SuppressWarnings("unused") // through VarHandleHolder.PUBLISHED
        private volatile int published;
        /** Consumer only: how far the writer has read. */
        public int read;
        volatile Recorder owner;

        /** Join points readable by the consumer (release-stored by the producer). */
        public int published() {
            return (int) VarHandleHolder.PUBLISHED.getAcquire(this);
        }

        public long threadId() {
            Recorder r = owner;
            return r == null ? -1 : r.threadId;
        }
    }

    private static final class VarHandleHolder {
        static final VarHandle PUBLISHED;

        static {
            try {
                PUBLISHED = MethodHandles.lookup().findVarHandle(Chunk.class, "published", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}
