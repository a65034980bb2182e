package io.qosweaver.scheduler.policy;

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
 * enters a low one, its own value (0 unless the JVM was started niced) again when it leaves ("when
 * it returns the low-importance thread to the thread pool"). Task classes carry
 * {@code importance: high|low|normal}. Nothing is suspended.
 *
 * <p>The system call comes from the platform's {@link NativeThreads} (the agent registers a JNA
 * one). The paper ran as root because raising a thread to -20, and back from 19 to 0, needs
 * privilege: {@link ThreadNice} checks that at creation and changes nothing without it, saying so
 * (its {@link #priorityReport()} is {@code effective=false} with the reason).
 */
final class LinuxPriorityPolicy implements Policy {
    static final String NAME = "linux-priority";
    static final String HIGH_NICE = "highNice", LOW_NICE = "lowNice";
    static final String NICE_MEANING = "a nice value; lower means more CPU";

    private final int highNice, lowNice;
    private final ThreadNice nice;

    LinuxPriorityPolicy(NativeThreads nt, int highNice, int lowNice, Consumer<String> warn) {
        this.highNice = highNice;
        this.lowNice = lowNice;
        this.nice = new ThreadNice(nt, NAME, Math.min(highNice, lowNice), Math.max(highNice, lowNice), warn);
    }

    static Policy create(PolicyContext context) {
        Parameters p = context.parameters().allowOnly(List.of(HIGH_NICE, LOW_NICE),
                "highNice, default -20; lowNice, default 19 (or idle: SCHED_IDLE)");
        LinuxPriorityPolicy policy = new LinuxPriorityPolicy(context.nativeThreads(),
                p.intValue(HIGH_NICE, -20, -20, 19, NICE_MEANING), ThreadNice.lowValue(p, LOW_NICE, 19, NICE_MEANING),
                context::warnOnce);
        policy.nice.probe("high nice " + policy.highNice + ", low " + ThreadNice.describeValue(policy.lowNice));
        return policy;
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
        nice.onRoleChange(t, niceOf(to), cause);
    }

    @Override
    public void beforeScopeChange(ThreadView t, TaskClass from, TaskClass to) {
        nice.raiseBefore(t, niceOf(to)); // leaving a low scope: its priority back before it wakes anyone
    }

    @Override
    public void beforeWait(ThreadView t) {
        nice.lendForWait(t); // its own priority while it holds the scheduler's lock
    }

    @Override
    public void afterWait(ThreadView t) {
        nice.endWait(t);
    }

    private Integer niceOf(TaskClass role) {
        return role == null ? null : Importance.isHigh(role) ? highNice : lowNice;
    }

    @Override
    public void onDetach(ThreadView t, TaskClass role) {
        nice.onDetach(t);
    }

    @Override
    public void afterScopeChange(ThreadView t, Object slot) {
        nice.afterScopeChange(t, slot); // outside the scheduler's lock
    }

    boolean effective() {
        return nice.effective();
    }

    @Override
    public PriorityReport priorityReport() {
        return nice.report();
    }
}
