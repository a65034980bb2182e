package io.qosweaver.agent.bootstrap;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a watch's woven advice calls ({@code qosweaver watch PID POINTCUT}): one line per matched
 * call (thread, duration, method, arguments, outcome) into a bounded buffer the agent drains, at
 * most {@code maxPerSecond} lines a second; calls beyond the rate or a full buffer are counted,
 * not formatted. Arguments are shown by value only for strings, numbers, booleans, characters and
 * enums (abbreviated); any other object by its class and identity hash, so that watching never runs
 * the application's own {@code toString}. On the bootstrap class path, like every helper woven
 * code calls.
 */
public final class WatchProbe {
    static final int BUFFER = 10_000;
    static final int MAX_VALUE_CHARS = 40;
    static final int MAX_ARGS_CHARS = 200;

    /** The running watch, or null: every advice checks it first, so a stopped watch costs a volatile read. */
    private static volatile Watch active;

    private WatchProbe() {}

    /** One watch: its buffer and counters. */
    public static final class Watch {
        final int maxPerSecond;
        final ArrayBlockingQueue<String> lines = new ArrayBlockingQueue<>(BUFFER);
        final AtomicLong matched = new AtomicLong();
        final AtomicLong dropped = new AtomicLong();
        /** The rate's window: the current second of nanoTime and the lines in it (a race at its turn lets a few more by). */
        final AtomicLong second = new AtomicLong(-1);
        final AtomicLong inSecond = new AtomicLong();

        Watch(int maxPerSecond) {
            this.maxPerSecond = maxPerSecond;
        }

        boolean admit(long now) {
            long s = now / 1_000_000_000L;
            long seen = second.get();
            if (s != seen && second.compareAndSet(seen, s)) {
                inSecond.set(0);
            }
            return inSecond.incrementAndGet() <= maxPerSecond;
        }

        /** Lines written since the last drain. */
        public List<String> drain() {
            List<String> out = new ArrayList<>();
            lines.drainTo(out);
            return out;
        }

        public long matched() {
            return matched.get();
        }

        /** Calls matched but not printed: over the rate, or the buffer full. */
        public long dropped() {
            return dropped.get();
        }
    }

    /** Starts a watch (the caller makes sure only one runs). */
    public static Watch start(int maxPerSecond) {
        Watch w = new Watch(maxPerSecond);
        active = w;
        return w;
    }

    /** Stops the running watch; advice still woven does nothing from now on. */
    public static void stop() {
        active = null;
    }

    /** Before a watched method: its start time, or 0 when no watch runs. */
    public static long enter() {
        return active == null ? 0 : System.nanoTime();
    }

    /** After a watched method, on return or throw. */
    public static void exit(long start, String method, Object[] args, Object result, Throwable thrown, boolean isVoid) {
        Watch w = active;
        if (w == null || start == 0) {
            return;
        }
        long now = System.nanoTime();
        w.matched.incrementAndGet();
        if (!w.admit(now)) {
            w.dropped.incrementAndGet();
            return;
        }
        String line = line(Thread.currentThread().getName(), now - start, method, args, result, thrown, isVoid);
        if (!w.lines.offer(line)) {
            w.dropped.incrementAndGet();
        }
    }

    static String line(String thread, long nanos, String method, Object[] args, Object result, Throwable thrown,
            boolean isVoid) {
        StringBuilder b = new StringBuilder(128);
        b.append('[').append(thread).append("] ").append(String.format(java.util.Locale.ROOT, "%.3f", nanos / 1e6))
                .append(" ms ").append(method).append('(');
        int start = b.length();
        for (int i = 0; args != null && i < args.length; i++) {
            if (i > 0) {
                b.append(", ");
            }
            if (b.length() - start > MAX_ARGS_CHARS) {
                b.append("...");
                break;
            }
            b.append(value(args[i]));
        }
        b.append(')');
        if (thrown != null) {
            b.append(" threw ").append(thrown.getClass().getName());
        } else if (!isVoid) {
            b.append(" = ").append(value(result));
        }
        return b.toString();
    }

    /** Strings, numbers, booleans, characters and enums by value (abbreviated); anything else by type and identity. */
    static String value(Object o) {
        if (o == null) {
            return "null";
        }
        if (o instanceof String s) {
            return '"' + abbreviate(s) + '"';
        }
        if ((o instanceof Number || o instanceof Boolean || o instanceof Character) && o.getClass().getClassLoader() == null) {
            return abbreviate(String.valueOf(o)); // a JDK class's own toString: no application code runs
        }
        if (o instanceof Enum<?> e) {
            return e.getDeclaringClass().getSimpleName() + "." + e.name();
        }
        return o.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(o));
    }

    private static String abbreviate(String s) {
        return s.length() <= MAX_VALUE_CHARS ? s : s.substring(0, MAX_VALUE_CHARS) + "...";
    }
}
