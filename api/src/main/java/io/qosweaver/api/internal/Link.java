package io.qosweaver.api.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The scheduler's share bridge ({@code io.qosweaver.scheduler.ShareBridge}) as method handles,
 * looked up once on the bootstrap class loader, where the agent puts the scheduler. Each call is an
 * exact invocation: no boxing, no allocation, no lock.
 */
public final class Link {
    static final String BRIDGE = "io.qosweaver.scheduler.ShareBridge";

    private final MethodHandle newShare, setFraction, enter, exit, controlPoint, active, capacity;

    private Link(Class<?> bridge, Class<?> qos) throws ReflectiveOperationException {
        MethodHandles.Lookup l = MethodHandles.publicLookup();
        newShare = l.findStatic(bridge, "newShare", MethodType.methodType(Object.class, String.class, double.class));
        setFraction = l.findStatic(bridge, "setFraction", MethodType.methodType(void.class, Object.class, double.class));
        enter = l.findStatic(bridge, "enter", MethodType.methodType(void.class, Object.class));
        exit = l.findStatic(bridge, "exit", MethodType.methodType(void.class));
        active = l.findStatic(bridge, "active", MethodType.methodType(boolean.class));
        capacity = l.findStatic(bridge, "capacity", MethodType.methodType(double.class));
        controlPoint = l.findStatic(qos, "controlPoint", MethodType.methodType(void.class));
    }

    /**
     * The bridge if the agent has put the scheduler on the bootstrap class path, else null. Only
     * the bootstrap loader is asked: a scheduler jar on the application's own class path is not
     * the agent's, and binding to it would schedule nothing.
     */
    static Link find() {
        try {
            return new Link(Class.forName(BRIDGE, true, null), Class.forName("io.qosweaver.scheduler.QoS", true, null));
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    MethodHandle enterHandle() {
        return enter;
    }

    MethodHandle exitHandle() {
        return exit;
    }

    MethodHandle controlPointHandle() {
        return controlPoint;
    }

    /** A new handle for a share (allocated once per share, on the scheduler's side). */
    public Object newShare(String name, double fraction) {
        try {
            return (Object) newShare.invokeExact(name, fraction);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public void setFraction(Object share, double fraction) {
        try {
            setFraction.invokeExact(share, fraction);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }




    public boolean active() {
        try {
            return (boolean) active.invokeExact();
        } catch (Throwable e) {
            rethrowErrors(e);
            return false;
        }
    }

    /** What run-time shares may ask together; NaN when the installed policy takes none. */
    public double capacity() {
        try {
            return (double) capacity.invokeExact();
        } catch (Throwable e) {
            rethrowErrors(e);
            return Double.NaN;
        }
    }

    static void rethrowErrors(Throwable e) {
        if (e instanceof Error) {
            throw (Error) e;
        }
    }
}
