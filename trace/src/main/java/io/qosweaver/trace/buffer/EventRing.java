package io.qosweaver.trace.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One thread's events, a single-producer single-consumer ring of preallocated arrays: the owner
 * thread {@link #offer}s (no allocation, no lock: a few plain stores and one release store), the
 * tracer's drain thread {@link #drain}s. A full ring drops the newest event and counts it, so that
 * the application never waits for the tracer.
 *
 * <p>An event is a timestamp, a kind, one number and up to three references (strings the caller
 * already has: a task class name, a request's method and path; storing a reference allocates
 * nothing).
 */
public final class EventRing {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle DROPPED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(EventRing.class, "head", long.class);
            TAIL = l.findVarHandle(EventRing.class, "tail", long.class);
            DROPPED = l.findVarHandle(EventRing.class, "dropped", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Receives drained events, on the drain thread. */
    public interface Sink {
        void event(EventRing ring, long nanos, int kind, long number, Object a, Object b, Object c);
    }

    private final long[] nanos;
    private final int[] kinds;
    private final long[] numbers;
    private final Object[] as;
    private final Object[] bs;
    private final Object[] cs;
    private final int mask;
    private final Thread thread;
    private final int tid;
    @SuppressWarnings("unused") // through HEAD
    private volatile long head;
    @SuppressWarnings("unused") // through TAIL
    private volatile long tail;
    @SuppressWarnings("unused") // through DROPPED
    private volatile long dropped;

    /**
     * @param capacity rounded up to a power of two
     * @param tid the owner's OS thread id, -1 when unknown
     */
    public EventRing(int capacity, Thread thread, int tid) {
        int cap = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        nanos = new long[cap];
        kinds = new int[cap];
        numbers = new long[cap];
        as = new Object[cap];
        bs = new Object[cap];
        cs = new Object[cap];
        mask = cap - 1;
        this.thread = thread;
        this.tid = tid;
    }

    public int capacity() {
        return mask + 1;
    }

    public Thread thread() {
        return thread;
    }

    public int tid() {
        return tid;
    }

    /** Owner thread only. False when the ring was full (the event is counted as dropped). */
    public boolean offer(long t, int kind, long number, Object a, Object b, Object c) {
        long h = (long) HEAD.getOpaque(this);
        if (h - (long) TAIL.getAcquire(this) > mask) {
            DROPPED.setRelease(this, (long) DROPPED.getOpaque(this) + 1);
            return false;
        }
        int i = (int) h & mask;
        nanos[i] = t;
        kinds[i] = kind;
        numbers[i] = number;
        as[i] = a;
        bs[i] = b;
        cs[i] = c;
        HEAD.setRelease(this, h + 1);
        return true;
    }

    /** Drain thread only: hands every event written so far to {@code sink}; returns how many. */
    public int drain(Sink sink) {
        long t = (long) TAIL.getOpaque(this);
        long h = (long) HEAD.getAcquire(this);
        for (long s = t; s < h; s++) {
            int i = (int) s & mask;
            sink.event(this, nanos[i], kinds[i], numbers[i], as[i], bs[i], cs[i]);
            as[i] = null;
            bs[i] = null;
            cs[i] = null;
        }
        TAIL.setRelease(this, h);
        return (int) (h - t);
    }

    /** Events dropped because the ring was full. */
    public long dropped() {
        return (long) DROPPED.getAcquire(this);
    }

    /** Nothing left to drain. */
    public boolean empty() {
        return (long) HEAD.getAcquire(this) == (long) TAIL.getAcquire(this);
    }
}
