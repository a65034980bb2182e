package io.qosweaver.trace.app;

import io.qosweaver.trace.buffer.ThreadRings;

/**
 * What application threads call: the request integrations report a classified request's begin and
 * end here (the server level and user events have {@link ServerTrace} and {@link UserTrace}). Off (no tracer), each call is one volatile
 * read. On, it is a {@link ThreadLocal} lookup, a clock read and a few stores into the thread's
 * ring: no allocation, no lock.
 */
public final class AppTrace {
    public static final int REQUEST_BEGIN = 1;
    public static final int REQUEST_END = 2;

    private static volatile ThreadRings rings;

    private AppTrace() {}

    /** The tracer installs its rings while it runs and removes them ({@code null}) when it stops. */
    public static void install(ThreadRings r) {
        rings = r;
    }

    public static boolean on() {
        return rings != null;
    }

    /** A request of {@code taskClass} begins on this thread ({@code method} and {@code path} may be null). */
    public static void requestBegin(String taskClass, String method, String path) {
        ThreadRings r = rings;
        if (r != null) {
            r.current().offer(System.nanoTime(), REQUEST_BEGIN, 0, taskClass, method, path);
        }
    }

    /** The request this thread began ends. */
    public static void requestEnd() {
        ThreadRings r = rings;
        if (r != null) {
            r.current().offer(System.nanoTime(), REQUEST_END, 0, null, null, null);
        }
    }
}
