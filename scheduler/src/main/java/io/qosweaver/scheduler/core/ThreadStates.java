package io.qosweaver.scheduler.core;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Finds the calling thread's {@link ThreadState} without allocating on the steady path.
 *
 * <ul>
 *   <li>Platform threads: a {@link ThreadLocal}; the record is created at the thread's first
 *       scope and kept for its life (pooled threads serve many requests with one record).
 *   <li>Virtual threads (JDK 21+), usually one per request: a thread local would allocate the
 *       virtual thread's own map and entry every request. Instead records live in a table of
 *       {@value #STRIPES} stripes keyed by thread identity; a record is taken from its stripe's
 *       free list at the thread's first scope and given back when its outermost scope closes with
 *       nothing of the scheduler left on it ({@link ThreadState#idle()}), so the pool grows to the
 *       number of virtual threads inside scopes at once and then allocates nothing. Each stripe
 *       has a {@link ReentrantLock} (held for a short scan, never while parking; a lock rather than
 *       a monitor so that a virtual thread never pins its carrier on it).
 * </ul>
 */
public final class ThreadStates {
    static final int STRIPES = 1024; // power of two
    private static final ThreadLocal<ThreadState> PLATFORM = new ThreadLocal<>();
    private static final Stripe[] TABLE = new Stripe[STRIPES];

    static {
        for (int i = 0; i < STRIPES; i++) {
            TABLE[i] = new Stripe();
        }
    }

    private static final class Stripe {
        final ReentrantLock lock = new ReentrantLock();
        ThreadState head;
        ThreadState free;
    }

    private ThreadStates() {}

    /** The calling thread's record, created (or taken from the pool) if it has none. */
    public static ThreadState current() {
        Thread th = Thread.currentThread();
        if (VirtualThreads.isVirtual(th)) {
            return virtualState(th, true);
        }
        ThreadState t = PLATFORM.get();
        if (t == null) {
            t = new ThreadState(th);
            PLATFORM.set(t);
        }
        return t;
    }

    /** The calling thread's record, or null if it has none. */
    public static ThreadState peek() {
        Thread th = Thread.currentThread();
        return VirtualThreads.isVirtual(th) ? virtualState(th, false) : PLATFORM.get();
    }

    /**
     * After an exit: gives a virtual thread's record back to the pool once nothing of the
     * scheduler is left on it. Platform threads keep theirs.
     */
    public static void exited(ThreadState t) {
        if (t.depth == 0 && VirtualThreads.isVirtual(t.thread) && t.idle()) {
            release(t);
        }
    }

    /** Forgets the record of a thread that died inside a scope (after the reaper released it). */
    static void forgetDead(ThreadState t) {
        if (VirtualThreads.isVirtual(t.thread)) {
            release(t);
        }
    }

    /** Drops the calling platform thread's record (tests). */
    public static void removeForTests() {
        PLATFORM.remove();
    }

    private static Stripe stripe(Thread th) {
        int h = System.identityHashCode(th);
        return TABLE[(h ^ (h >>> 16)) & (STRIPES - 1)];
    }

    private static ThreadState virtualState(Thread th, boolean create) {
        Stripe s = stripe(th);
        s.lock.lock();
        try {
            for (ThreadState t = s.head; t != null; t = t.poolNext) {
                if (t.thread == th) {
                    return t;
                }
            }
            if (!create) {
                return null;
            }
            ThreadState t = s.free;
            if (t != null) {
                s.free = t.poolNext;
                t.thread = th;
            } else {
                t = new ThreadState(th); // the pool grows; steady state takes from the free list
            }
            t.poolNext = s.head;
            s.head = t;
            return t;
        } finally {
            s.lock.unlock();
        }
    }

    private static void release(ThreadState t) {
        Stripe s = stripe(t.thread);
        s.lock.lock();
        try {
            ThreadState prev = null;
            for (ThreadState x = s.head; x != null; prev = x, x = x.poolNext) {
                if (x == t) {
                    if (prev == null) {
                        s.head = x.poolNext;
                    } else {
                        prev.poolNext = x.poolNext;
                    }
                    ControlPointIntervals.endSpan(t);
                    t.ivClass = null;
                    java.util.Arrays.fill(t.stack, 0, t.depth, null);
                    t.depth = 0;
                    t.overflow = 0;
                    t.thread = null;
                    t.poolNext = s.free;
                    s.free = t;
                    return;
                }
            }
        } finally {
            s.lock.unlock();
        }
    }

    /** Records in the virtual-thread pool, in use and free (tests). */
    static int[] poolSizes() {
        int used = 0, free = 0;
        for (Stripe s : TABLE) {
            s.lock.lock();
            try {
                for (ThreadState t = s.head; t != null; t = t.poolNext) {
                    used++;
                }
                for (ThreadState t = s.free; t != null; t = t.poolNext) {
                    free++;
                }
            } finally {
                s.lock.unlock();
            }
        }
        return new int[] {used, free};
    }
}
