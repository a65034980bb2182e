package io.qosweaver.api.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.MutableCallSite;

/**
 * Where the API finds the scheduler: one {@link Link}, looked up when this class initializes and
 * again when the agent starts later ({@link #rebind}).
 *
 * <p>The calls on a scope's and a control point's path go through {@link MutableCallSite}s held in
 * static final fields: the JIT treats their targets as constants and inlines them (a no-op
 * without the agent, the scheduler's own static method with it), and a rebind re-targets them,
 * deoptimizing the code that inlined the old target. So the hot path pays neither a volatile read
 * of a handle nor an indirect call. {@link #link()} (one volatile read) is for the decisions off
 * that path: whether a share needs the scheduler's handle, whether a scope was told.
 *
 * <p>Two start-up orders, both covered:
 * <ul>
 *   <li>The agent starts first ({@code -javaagent}, or attached before the application touches the
 *       API): the scheduler is on the bootstrap class path when this class initializes.
 *   <li>The application uses the API first and the agent is attached later: the lookup found
 *       nothing, and the agent, once the scheduler is installed, calls {@link #rebind} on every
 *       loaded copy of this class (by name, reflectively: the agent links no API class).
 * </ul>
 * Not part of the API: applications use {@code io.qosweaver.api.Shares}.
 */
public final class Bridge {
    private static final MutableCallSite ENTER_SITE =
            new MutableCallSite(MethodHandles.empty(MethodType.methodType(void.class, Object.class)));
    private static final MutableCallSite EXIT_SITE = new MutableCallSite(MethodHandles.empty(MethodType.methodType(void.class)));
    private static final MutableCallSite CONTROL_POINT_SITE =
            new MutableCallSite(MethodHandles.empty(MethodType.methodType(void.class)));
    /** {@code (Object share) void}: enter a scope of the share; a no-op until bound. */
    public static final MethodHandle ENTER = ENTER_SITE.dynamicInvoker();
    /** {@code () void}: leave the innermost scope; a no-op until bound. */
    public static final MethodHandle EXIT = EXIT_SITE.dynamicInvoker();
    /** {@code () void}: a control point; a no-op until bound. */
    public static final MethodHandle CONTROL_POINT = CONTROL_POINT_SITE.dynamicInvoker();

    private static volatile Link link;

    /** Enters a scope of the share (never throws: the scheduler's side catches everything). */
    public static void enter(Object share) {
        try {
            ENTER.invokeExact(share);
        } catch (Throwable e) {
            Link.rethrowErrors(e);
        }
    }

    /** Leaves the innermost scope. */
    public static void exit() {
        try {
            EXIT.invokeExact();
        } catch (Throwable e) {
            Link.rethrowErrors(e);
        }
    }

    /** A control point. */
    public static void controlPoint() {
        try {
            CONTROL_POINT.invokeExact();
        } catch (Throwable e) {
            Link.rethrowErrors(e);
        }
    }

    static {
        bind(Link.find());
    }

    private Bridge() {}

    /** The scheduler's bridge, or null without the agent. */
    public static Link link() {
        return link;
    }

    /** Looks the scheduler up again; the agent calls it after it started (by reflection). */
    public static void rebind() {
        bind(Link.find());
        TraceBridge.rebind();
    }

    private static synchronized void bind(Link l) {
        if (l == null) {
            return;
        }
        ENTER_SITE.setTarget(l.enterHandle());
        EXIT_SITE.setTarget(l.exitHandle());
        CONTROL_POINT_SITE.setTarget(l.controlPointHandle());
        MutableCallSite.syncAll(new MutableCallSite[] {ENTER_SITE, EXIT_SITE, CONTROL_POINT_SITE});
        link = l; // last: a share that sees the link finds the call sites bound
    }
}
