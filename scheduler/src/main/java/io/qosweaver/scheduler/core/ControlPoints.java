package io.qosweaver.scheduler.core;

/**
 * The slow paths behind the bridge's control and progress points: taken only when the pending
 * word is not 0 (some thread somewhere is flagged, or intervals are measured).
 */
public final class ControlPoints {
    private ControlPoints() {}

    /**
     * A control point of the calling thread with something pending. Parks it if it is told to
     * yield, unless the point is inside a monitor ({@code inMonitor}: the mechanism never suspends
     * a thread holding a lock, and a virtual thread parked there would pin its carrier on JDK
     * 21-23) or its interrupt status is set; both cases are counted.
     */
    public static void slowPath(boolean inMonitor) {
        try {
            await(inMonitor);
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    private static void await(boolean inMonitor) {
        ThreadState t = ThreadStates.peek();
        if (t == null) {
            return;
        }
        if (ControlPointIntervals.on) {
            ControlPointIntervals.record(t);
        }
        if (!t.yield) {
            return;
        }
        TaskClassState r = t.role;
        Controller c = r == null ? null : r.controller;
        if (c == null) {
            return;
        }
        if (inMonitor) {
            r.machine.monitorSkips.increment();
            return;
        }
        if (Thread.currentThread().isInterrupted()) {
            r.machine.interruptedPasses.increment();
            return;
        }
        if (t.skipLeft > 0) {
            if (t.skipStamp == r.machine.regime) {
                t.skipLeft--; // running on, nothing changed: the policy's answer stands
                r.machine.lockFreeRunOnPasses.increment();
                return;
            }
            t.skipLeft = 0;
        }
        c.await(t);
        if (ControlPointIntervals.on) {
            ControlPointIntervals.resumed(t);
        }
    }

    /** A progress point: counts one step of the calling thread's task class. */
    public static void progress() {
        ThreadState t = ThreadStates.peek();
        TaskClassState r = t == null ? null : t.role;
        if (r != null) {
            r.progress.increment();
        }
    }
}
