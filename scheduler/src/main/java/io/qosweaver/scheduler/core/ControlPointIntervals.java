package io.qosweaver.scheduler.core;

import io.qosweaver.scheduler.event.IntervalHistogram;
import io.qosweaver.scheduler.stats.IntervalSnapshot;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Measures the time between adjacent control points of a thread within one task (QoSWeaver 5.3,
 * Fig. 19 and 21: "the interval at which the scheduler is called"), per task class. It tells
 * whether generated control points come as often as the pointcut generator predicted, in
 * single-thread and loaded execution.
 *
 * <p>Off by default, and then free: turning it on adds {@link #MEASURING} to
 * {@link Pending}, so every control point leaves the fast path and reaches
 * {@link #record}; turning it off subtracts it again. The fast path itself never changes.
 *
 * <h2>Assumptions and guarantees</h2>
 * <ul>
 *   <li>{@code pending == flagged threads + (on ? MEASURING : 0)}; {@link #start} and
 *       {@link #stop} toggle under this class's monitor, so the offset is added at most once.
 *   <li>A thread records into its own histogram ({@code ThreadState.ivLocal}, owner only, no
 *       lock) and drains it into its task class's total under {@link #LOCK} when its span of that
 *       role ends (a scope entered or left changed the role) and at most every
 *       {@link #FLUSH_NANOS} while it runs, so a reader sees a running task's intervals within
 *       that delay and a finished task's at once.
 *   <li>An interval is counted only between two control points of the same role span: the time
 *       before the first one and after the last one of a task are not intervals (the paper's
 *       "time between adjacent join points"), and time parked at a control point is not part of
 *       any interval (the clock restarts when the thread resumes).
 *   <li>Time comes from the scheduler's ticker, so tests can drive it.
 * </ul>
 */
public final class ControlPointIntervals {
    /** Added to {@link Pending} while measuring; far above any thread count. */
    public static final int MEASURING = 1 << 30;
    /** A running thread publishes its intervals at least this often. */
    static final long FLUSH_NANOS = 250_000_000L;

    static volatile boolean on;

    /** Whether intervals are being measured. */
    public static boolean measuring() {
        return on;
    }
    private static final ReentrantLock LOCK = new ReentrantLock();

    private ControlPointIntervals() {}

    /** Starts measuring; false if it already was. */
    public static synchronized boolean start() {
        if (on) {
            return false;
        }
        on = true;
        Pending.add(MEASURING);
        return true;
    }

    /** Stops measuring; false if it was not. Totals are kept. */
    public static synchronized boolean stop() {
        if (!on) {
            return false;
        }
        on = false;
        Pending.add(-MEASURING);
        return true;
    }

    /** At a control point of the owner thread, while measuring. */
    static void record(ThreadState t) {
        TaskClassState r = t.role;
        if (r == null) {
            return; // not inside a task: no interval to speak of
        }
        long now = r.machine.ticker.nanos();
        if (t.ivClass != r) {
            flush(t);
            t.ivClass = r;
            t.ivLast = now;
            t.ivFlushedAt = now;
            return;
        }
        long last = t.ivLast;
        t.ivLast = now;
        if (last == 0) {
            return; // the span's first control point
        }
        IntervalHistogram h = t.ivLocal;
        if (h == null) {
            h = new IntervalHistogram(); // once per thread
            t.ivLocal = h;
        }
        h.add(now - last);
        if (now - t.ivFlushedAt > FLUSH_NANOS) {
            flush(t);
            t.ivFlushedAt = now;
        }
    }

    /** The owner thread resumed after parking at a control point: the wait is not an interval. */
    static void resumed(ThreadState t) {
        TaskClassState r = t.role;
        if (r != null && t.ivClass == r && t.ivLast != 0) {
            t.ivLast = r.machine.ticker.nanos();
        }
    }

    /** The owner thread's role is about to change: its span ends (cheap when nothing was recorded). */
    static void endSpan(ThreadState t) {
        t.ivLast = 0;
        IntervalHistogram h = t.ivLocal;
        if (h != null && h.count() > 0) {
            flush(t);
        }
    }

    private static void flush(ThreadState t) {
        IntervalHistogram h = t.ivLocal;
        TaskClassState c = t.ivClass;
        if (h == null || c == null || h.count() == 0) {
            return;
        }
        LOCK.lock();
        try {
            c.intervals.drainFrom(h);
        } finally {
            LOCK.unlock();
        }
    }

    /** Per task class with at least one interval, in the classes' order. */
    static Map<String, IntervalSnapshot> snapshot(List<TaskClassState> classes) {
        Map<String, IntervalSnapshot> out = new LinkedHashMap<>();
        LOCK.lock();
        try {
            for (TaskClassState c : classes) {
                if (c.intervals.count() > 0) {
                    out.put(c.name(), c.intervals.snapshot());
                }
            }
        } finally {
            LOCK.unlock();
        }
        return out;
    }
}
