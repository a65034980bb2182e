package io.qosweaver.scheduler.policy;

import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Parameters;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.stats.PriorityReport;
import java.util.List;
import java.util.function.Consumer;

/**
 * Linux priority scheduling, a baseline of the QoSWeaver paper (5.1): "issues the setpriority
 * system call ... when threads start processing requests": nice {@code highNice} (default -20) on
 * the native thread when it enters a high-importance scope, {@code lowNice} (default 19) when it
 * enters a low one, 0 again when it leaves ("when it returns the low-importance thread to the
 * thread pool"). Task classes carry {@code importance: high|low|normal}. Nothing is suspended.
 *
 * <p>The system call comes from the platform's {@link NativeThreads} (the agent registers a JNA
 * one). The paper ran as root because raising a thread to -20, and back from 19 to 0, needs
 * privilege. The policy therefore checks at creation, on a throw-away thread, that it can set
 * {@code highNice} and 0; if there is no implementation or the kernel answers EPERM, it changes no
 * priority at all (lowering low threads alone would leave pooled threads at 19 for good, since
 * they could not come back to 0), warns once and reports {@code effective=false} with the reason
 * in {@link #priorityReport()}, so that the run does not pass off the unscheduled application as
 * this baseline. A later EPERM (privilege dropped) does the same from then on.
 *
 * <p>The call is made on the thread's own scope entry and exit. A thread's kernel id can only be
 * learnt on the thread itself, so it is resolved there once and kept, with the nice value applied,
 * in the policy's per-thread slot. On uninstall the policy resets the threads still inside a
 * scope; threads that died inside one are not touched (their id may belong to a new thread).
 */
final class LinuxPriorityPolicy implements Policy {
    static final String NAME = "linux-priority";
    static final String HIGH_NICE = "highNice", LOW_NICE = "lowNice";
    private static final String NICE_MEANING = "a nice value; lower means more CPU";

    /** What the policy keeps per thread. */
    private static final class Slot {
        Thread owner;
        int tid;
        int applied;
    }

    private final NativeThreads nt;
    private final int highNice, lowNice;
    private final Consumer<String> warn;
    private boolean effective;
    private String reason;
    private long changes, failures;

    LinuxPriorityPolicy(NativeThreads nt, int highNice, int lowNice, Consumer<String> warn) {
        this.nt = nt;
        this.highNice = highNice;
        this.lowNice = lowNice;
        this.warn = warn;
    }

    static Policy create(PolicyContext context) {
        Parameters p = context.parameters().allowOnly(List.of(HIGH_NICE, LOW_NICE),
                "highNice, default -20; lowNice, default 19");
        LinuxPriorityPolicy policy = new LinuxPriorityPolicy(context.nativeThreads(),
                p.intValue(HIGH_NICE, -20, -20, 19, NICE_MEANING), p.intValue(LOW_NICE, 19, -20, 19, NICE_MEANING),
                context::warnOnce);
        policy.probe();
        return policy;
    }

    /** Checks on a throw-away thread that highNice and 0 can be set; decides {@link #effective}. */
    private void probe() {
        if (!nt.available()) {
            disable(nt.unavailableReason());
            return;
        }
        String[] failure = {"probe thread did not finish"};
        Thread t = new Thread(() -> {
            int tid = nt.currentNativeThreadId();
            if (tid <= 0) {
                failure[0] = "cannot find the native thread id";
                return;
            }
            try {
                nt.setNice(tid, highNice);
                nt.setNice(tid, 0);
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
            reason = "setpriority: high nice " + highNice + ", low nice " + lowNice;
        }
    }

    private String describe(NativePriorityException e) {
        return e.permissionDenied()
                ? "EPERM: the process may not raise thread priorities (nice " + highNice
                        + " needs root, CAP_SYS_NICE or RLIMIT_NICE >= " + (20 - highNice) + ")"
                : "setpriority failed: " + e.getMessage() + (e.errno() != 0 ? " (errno " + e.errno() + ")" : "");
    }

    private void disable(String why) {
        effective = false;
        reason = why;
        warn.accept("policy linux-priority cannot apply Linux priorities: " + why
                + ". No thread priority is changed; the run measures the application WITHOUT priority scheduling.");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank(TaskClassSpec spec) {
        return Importance.rank(spec);
    }

    @Override
    public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
        if (!effective || cause != Cause.SCOPE) {
            return; // only the thread itself knows its id for sure; DEATH is a reaped dead thread
        }
        Slot s = (Slot) t.slot();
        if (s == null || s.owner != t.thread()) {
            s = s == null ? new Slot() : s;
            s.owner = t.thread();
            s.tid = nt.currentNativeThreadId();
            s.applied = 0;
            t.setSlot(s);
        }
        apply(s, to == null ? 0 : Importance.isHigh(to) ? highNice : lowNice);
    }

    @Override
    public void onDetach(ThreadView t, TaskClass role) {
        Slot s = (Slot) t.slot();
        if (effective && s != null && t.thread().isAlive()) {
            apply(s, 0);
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

    boolean effective() {
        return effective;
    }

    @Override
    public PriorityReport priorityReport() {
        return new PriorityReport("linux-nice", effective, reason, changes, failures);
    }
}
