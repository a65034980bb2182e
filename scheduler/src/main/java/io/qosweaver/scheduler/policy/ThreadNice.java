package io.qosweaver.scheduler.policy;

import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.scheduler.spi.Policy.Cause;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.stats.PriorityReport;
import java.util.function.Consumer;

/**
 * A thread's OS nice value by its role ({@code setpriority} on the native thread), for the
 * policies that ask for it: set when the thread enters a scope, put back to what it was when it
 * leaves, on the thread's own scope changes.
 *
 * <p>Only when it can be undone: putting back a value lower than the one set (19 back to 0) needs
 * privilege (root, CAP_SYS_NICE, or RLIMIT_NICE), and a pooled thread left at 19 would be slow
 * for good. {@link #probe} therefore sets the lowest and the highest value asked and goes back,
 * on a throw-away thread, before anything is applied; if that fails (or there is no native
 * implementation) no priority is changed at all, the policy warns once and {@link #report} says
 * {@code effective=false} with the reason, so that a run does not pass the application without
 * priorities off as one with them. A later EPERM (privilege dropped) does the same from then on.
 *
 * <p>A thread's kernel id can only be learnt on the thread itself, so it is resolved there once
 * and kept, with its value before the first change and the value applied, in the policy's
 * per-thread slot (its owner checked, since a slot of a dead thread's view may come to another).
 * Adopted threads ({@link Cause#ADOPTED}) keep their value until their next scope change. Callers
 * hold the scheduler's lock (policy callbacks are serialized): the counters need no atomics.
 */
final class ThreadNice {
    /** The per-thread state kept in the policy's slot. */
    static final class Slot {
        Thread owner;
        int tid;
        /** The thread's value before the first change: what it goes back to. */
        int base;
        int applied;
    }

    private final NativeThreads nt;
    private final String policy;
    private final int lowest;
    private final int highest;
    private final Consumer<String> warn;
    private volatile boolean effective;
    private volatile String reason;
    private long changes, failures;

    /**
     * @param lowest the lowest nice value the policy applies (the most CPU)
     * @param highest the highest one
     */
    ThreadNice(NativeThreads nt, String policy, int lowest, int highest, Consumer<String> warn) {
        this.nt = nt;
        this.policy = policy;
        this.lowest = Math.min(lowest, 0);
        this.highest = Math.max(highest, 0);
        this.warn = warn;
    }

    /** Checks on a throw-away thread that the values can be set and undone; decides {@link #effective}. */
    ThreadNice probe(String applied) {
        if (!nt.available()) {
            disable(nt.unavailableReason());
            return this;
        }
        String[] failure = {"probe thread did not finish"};
        Thread t = new Thread(() -> {
            int tid = nt.currentNativeThreadId();
            if (tid <= 0) {
                failure[0] = "cannot find the native thread id";
                return;
            }
            try {
                int base = nt.getNice(tid);
                nt.setNice(tid, highest);
                nt.setNice(tid, lowest);
                nt.setNice(tid, base);
                failure[0] = null;
            } catch (NativePriorityException e) {
                failure[0] = describe(e);
            }
        }, "qosweaver-nice-probe");
        t.setDaemon(true);
        t.start();
        try {
            t.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure[0] != null) {
            disable(failure[0]);
        } else {
            effective = true;
            reason = "setpriority: " + applied;
        }
        return this;
    }

    private String describe(NativePriorityException e) {
        return e.permissionDenied()
                ? "EPERM: the process may not raise thread priorities (nice " + lowest
                        + " after " + highest + " needs root, CAP_SYS_NICE or RLIMIT_NICE >= " + (20 - lowest) + ")"
                : "setpriority failed: " + e.getMessage() + (e.errno() != 0 ? " (errno " + e.errno() + ")" : "");
    }

    private void disable(String why) {
        effective = false;
        reason = why;
        warn.accept("policy " + policy + " cannot apply Linux priorities: " + why
                + ". No thread priority is changed; the run measures the application WITHOUT them.");
    }

    boolean effective() {
        return effective;
    }

    /**
     * The thread's role changed: {@code target} is the nice value of its new role, or null to put
     * back its own value (it left every observed scope, or its role asks for none).
     */
    void onRoleChange(ThreadView t, Integer target, Cause cause) {
        if (!effective || cause != Cause.SCOPE) {
            return; // only the thread itself knows its id for sure; DEATH is a reaped dead thread
        }
        Slot s = (Slot) t.slot();
        if (s == null || s.owner != t.thread()) {
            if (target == null) {
                return; // never changed by us
            }
            s = s == null ? new Slot() : s;
            s.owner = t.thread();
            s.tid = nt.currentNativeThreadId();
            try {
                s.base = s.tid > 0 ? nt.getNice(s.tid) : 0;
            } catch (NativePriorityException | RuntimeException e) {
                s.base = 0;
            }
            s.applied = s.base;
            t.setSlot(s);
        }
        apply(s, target == null ? s.base : target);
    }

    /** The policy is uninstalled with the thread inside a scope: its own value back. */
    void onDetach(ThreadView t) {
        Slot s = (Slot) t.slot();
        if (effective && s != null && s.owner == t.thread() && t.thread().isAlive()) {
            apply(s, s.base);
        }
    }

    private void apply(Slot s, int target) {
        if (s.applied == target || s.tid <= 0) {
            return;
        }
        try {
            nt.setNice(s.tid, target);
            s.applied = target;
            changes++;
        } catch (NativePriorityException e) {
            failures++;
            if (e.permissionDenied()) {
                disable(describe(e));
            }
        } catch (RuntimeException e) {
            failures++;
        }
    }

    PriorityReport report() {
        return new PriorityReport("linux-nice", effective, reason, changes, failures);
    }
}
