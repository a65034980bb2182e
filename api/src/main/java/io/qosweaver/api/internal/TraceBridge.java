package io.qosweaver.api.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;

/**
 * Where {@code io.qosweaver.api.Trace} finds the tracer's user events
 * ({@code io.qosweaver.trace.app.UserTrace}, on the bootstrap class path when the agent runs), the
 * way {@link Bridge} finds the scheduler: call sites that are no-ops until bound, bound when this
 * class initializes and again on {@link #rebind} (the agent calls {@link Bridge#rebind}, which
 * calls this). Bound, each call is the tracer's own static method, itself a volatile read when no
 * trace runs. Not part of the API.
 */
public final class TraceBridge {
    private static final MethodType NAMED = MethodType.methodType(void.class, String.class);
    private static final MethodType NONE = MethodType.methodType(void.class);
    private static final MutableCallSite BEGIN_SITE = new MutableCallSite(MethodHandles.empty(NAMED));
    private static final MutableCallSite END_SITE = new MutableCallSite(MethodHandles.empty(NONE));
    private static final MutableCallSite EVENT_SITE = new MutableCallSite(MethodHandles.empty(NAMED));
    private static final MethodHandle BEGIN = BEGIN_SITE.dynamicInvoker();
    private static final MethodHandle END = END_SITE.dynamicInvoker();
    private static final MethodHandle EVENT = EVENT_SITE.dynamicInvoker();
    static final String USER_TRACE = "io.qosweaver.trace.app.UserTrace";

    static {
        rebind();
    }

    private TraceBridge() {}

    public static void begin(String name) {
        try {
            BEGIN.invokeExact(name);
        } catch (Throwable e) {
            Link.rethrowErrors(e);
        }
    }

    public static void end() {
        try {
            END.invokeExact();
        } catch (Throwable e) {
            Link.rethrowErrors(e);
        }
    }

    public static void event(String name) {
        try {
            EVENT.invokeExact(name);
        } catch (Throwable e) {
            Link.rethrowErrors(e);
        }
    }

    /** Looks the tracer up on the bootstrap class loader (only there: a copy elsewhere is not the agent's). */
    public static synchronized void rebind() {
        try {
            Class<?> user = Class.forName(USER_TRACE, true, null);
            MethodHandles.Lookup l = MethodHandles.publicLookup();
            BEGIN_SITE.setTarget(l.findStatic(user, "begin", NAMED));
            END_SITE.setTarget(l.findStatic(user, "end", NONE));
            EVENT_SITE.setTarget(l.findStatic(user, "event", NAMED));
            MutableCallSite.syncAll(new MutableCallSite[] {BEGIN_SITE, END_SITE, EVENT_SITE});
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            // no agent: the calls stay no-ops
        }
    }
}
