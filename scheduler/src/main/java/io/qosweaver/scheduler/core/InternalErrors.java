package io.qosweaver.scheduler.core;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fail open (SYSTEM.md principles): every Throwable inside the scheduler is caught at the
 * {@link QoS} boundary, counted, and logged to System.err once per kind (exception class plus
 * throwing frame), at most {@link #MAX_KINDS} kinds and one line per second, so that a broken
 * policy can neither flood the log nor stop the application.
 */
public final class InternalErrors {
    static final int MAX_KINDS = 64;
    private static final AtomicLong COUNT = new AtomicLong();
    private static final ConcurrentHashMap<String, Boolean> SEEN = new ConcurrentHashMap<>();
    private static final AtomicLong LAST_LOG = new AtomicLong(Long.MIN_VALUE / 2);

    private InternalErrors() {}

    public static void report(Throwable e) {
        try {
            COUNT.incrementAndGet();
            StackTraceElement[] st = e.getStackTrace();
            String kind = e.getClass().getName() + (st.length > 0 ? " at " + st[0] : "");
            if (SEEN.size() >= MAX_KINDS || SEEN.putIfAbsent(kind, Boolean.TRUE) != null) {
                return;
            }
            long now = System.nanoTime();
            long last = LAST_LOG.get();
            if (now - last < 1_000_000_000L || !LAST_LOG.compareAndSet(last, now)) {
                SEEN.remove(kind); // rate-limited: let a later occurrence of this kind be logged
                return;
            }
            System.err.println("[qosweaver] internal error, the thread goes on unscheduled ("
                    + count() + " so far; each kind is logged once): " + kind + ": " + e.getMessage());
        } catch (Throwable ignored) {
            // never throw from the error path
        }
    }

    public static long count() {
        return COUNT.get();
    }

    /** Test hook. */
    public static void resetForTests() {
        SEEN.clear();
        LAST_LOG.set(Long.MIN_VALUE / 2);
    }
}
