package io.qosweaver.trace.app;

import io.qosweaver.trace.buffer.ThreadRings;

/**
 * User events (the trace's {@code user} level): what the policy file's {@code trace.events}
 * pointcuts weave and what the application's {@code io.qosweaver.api.Trace} calls, by name. The
 * name is stored as a reference (a constant the caller has): no allocation, no lock; off, one
 * volatile read.
 */
public final class UserTrace {
    public static final int BEGIN = 20;
    public static final int END = 21;
    public static final int INSTANT = 22;

    private static volatile ThreadRings rings;

    private UserTrace() {}

    public static void install(ThreadRings r) {
        rings = r;
    }

    public static boolean on() {
        return rings != null;
    }

    /** A slice named {@code name} begins on this thread (ended by {@link #end}). */
    public static void begin(String name) {
        ThreadRings r = rings;
        if (r != null) {
            r.current().offer(System.nanoTime(), BEGIN, 0, name, null, null);
        }
    }

    /** The innermost slice this thread began ends. */
    public static void end() {
        ThreadRings r = rings;
        if (r != null) {
            r.current().offer(System.nanoTime(), END, 0, null, null, null);
        }
    }

    /** An instant named {@code name}. */
    public static void event(String name) {
        ThreadRings r = rings;
        if (r != null) {
            r.current().offer(System.nanoTime(), INSTANT, 0, name, null, null);
        }
    }
}
