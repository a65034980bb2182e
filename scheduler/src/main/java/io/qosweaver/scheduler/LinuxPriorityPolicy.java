package io.qosweaver.scheduler;

import io.qosweaver.scheduler.spi.NativePriorityException;
import io.qosweaver.scheduler.spi.NativeThreads;
import java.util.Map;

/**
 * Linux priority scheduling, a baseline of the QoSWeaver paper (5.1): "issues the setpriority
 * system call ... when threads start processing requests": nice {@code highNice} (default -20) on
 * the native thread when it enters a high-importance scope, {@code lowNice} (default 19) when it
 * enters a low one, 0 again when it leaves ("when it returns the low-importance thread to the
 * thread pool"). Task classes carry {@code importance: high|low|normal}. Nothing is suspended.
 *
 * <p>The system call comes from the {@link NativeThreads} SPI (the agent can register a JNA one).
 * The paper ran as root because raising a thread to -20, and back from 19 to 0, needs privilege.
 * The policy therefore checks at creation, on a throw-away thread, that it can set {@code
 * highNice} and 0; if there is no implementation or the kernel answers EPERM, it changes no
 * priority at all (lowering low threads alone would leave pooled threads at 19 for good, since
 * they could not come back to 0), warns once on System.err and reports {@code effective=false}
 * with the reason in {@link #priorityReport()}, so that the run does not pass off the unscheduled
 * application as this baseline. A later EPERM (privilege dropped) does the same from then on.
 *
 * <p>The call is made on the thread's own scope entry and exit, with the controller lock held (it
 * is one short system call). A thread's id is resolved once, by the thread itself, and kept in
 * its {@link ManagedThread}. On uninstall the policy resets the threads still inside a scope;
 * threads that died inside one are not touched (their id may belong to a new thread).
 */
final class LinuxPriorityPolicy implements Policy {
    static final String NAME = "linux-priority";
    static final String HIGH_NICE = "highNice", LOW_NICE = "lowNice";

    private final NativeThreads nt;
    private final int highNice, lowNice;
    // under the controller lock (the initial values are set before install)
    private boolean effective;
    private String reason;
    private long changes, failures;

    LinuxPriorityPolicy(NativeThreads nt, int highNice, int lowNice) {
        this.nt = nt;
        this.highNice = highNice;
        this.lowNice = lowNice;
    }

    static Policy create(Map<String, String> parameters) {
        return create(parameters, NativeThreads.get());
    }

    static LinuxPriorityPolicy create(Map<String, String> parameters, NativeThreads nt) {
        for (String k : parameters.keySet()) {
            if (!k.equals(HIGH_NICE) && !k.equals(LOW_NICE)) {
                throw new PolicyConfigException("policy." + k, "unknown parameter '" + k
                        + "' for policy linux-priority; remove it (parameters: highNice, default -20;"
                        + " lowNice, default 19)");
            }
        }
        LinuxPriorityPolicy p = new LinuxPriorityPolicy(nt, nice(parameters, HIGH_NICE, -20), nice(parameters, LOW_NICE, 19));
        p.probe();
        return p;
    }

    private static int nice(Map<String, String> parameters, String key, int dflt) {
        String v = parameters.get(key);
        if (v == null) {
            return dflt;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n >= -20 && n <= 19) {
                return n;
            }
        } catch (NumberFormatException e) {
            // fall through
        }
        throw new PolicyConfigException("policy." + key, key + " must be a nice value, an integer in"
                + " [-20, 19] (lower means more CPU), got '" + v + "'");
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
        Warnings.once("policy linux-priority cannot apply Linux priorities: " + why
                + ". No thread priority is changed; the run measures the application WITHOUT priority scheduling.");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank(SchedulerConfig.TaskClassSpec spec) {
        return ImportancePolicy.rankByImportance(spec);
    }

    @Override
    public void onRoleChange(Control c, ManagedThread t, TaskClass from, TaskClass to) {
        if (!effective || t.thread != Thread.currentThread()) {
            return; // only the owner knows its id for sure; the other case is a reaped dead thread
        }
        if (t.nativeTid == 0) {
            t.nativeTid = nt.currentNativeThreadId();
        }
        int target = to == null ? 0 : to.rank() == ImportancePolicy.RANK_HIGH ? highNice : lowNice;
        apply(t, target);
    }

    @Override
    public void onDetach(ManagedThread t, TaskClass role) {
        if (effective && t.thread.isAlive()) {
            apply(t, 0);
        }
    }

    private void apply(ManagedThread t, int target) {
        int current = t.niceApplied == ManagedThread.NO_NICE ? 0 : t.niceApplied;
        if (current == target || t.nativeTid <= 0) {
            return;
        }
        try {
            nt.setNice(t.nativeTid, target);
            t.niceApplied = target == 0 ? ManagedThread.NO_NICE : target;
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
