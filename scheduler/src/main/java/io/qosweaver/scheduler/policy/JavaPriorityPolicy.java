package io.qosweaver.scheduler.policy;

import io.qosweaver.platform.JavaPriorities;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.stats.PriorityReport;

/**
 * Java priority scheduling, a baseline of the QoSWeaver paper (5.1): on entering a high-importance
 * scope the thread gets {@link Thread#MAX_PRIORITY}, on entering a low one
 * {@link Thread#MIN_PRIORITY}, and {@link Thread#NORM_PRIORITY} again when it leaves ("because
 * those threads were reused via a thread pool"). Task classes carry {@code importance:
 * high|low|normal}; there are no parameters. Nothing is ever suspended, so control points keep
 * their fast path.
 *
 * <p>Whether it does anything is up to the JVM ({@link JavaPriorities}: HotSpot on Linux ignores
 * Java priorities unless it runs with {@code -XX:ThreadPriorityPolicy=1}, and even then cannot
 * raise a thread without privilege). That is part of what the paper's result shows. So that a run
 * never believes it measured priorities the JVM ignored, the policy reports what it measured in
 * {@link #priorityReport()} (Prometheus {@code qosweaver_priority_effective}) and warns once when
 * they are not effective.
 */
final class JavaPriorityPolicy implements Policy {
    static final String NAME = "java-priority";

    private final JavaPriorities probe;
    private long changes, failures;

    JavaPriorityPolicy(JavaPriorities probe) {
        this.probe = probe;
    }

    static Policy create(PolicyContext context) {
        context.parameters().allowOnly(java.util.List.of(), "");
        JavaPriorities p = context.javaPriorities();
        if (!p.effective()) {
            context.warnOnce("policy java-priority: Java thread priorities are NOT effective here: " + p.reason()
                    + ". The run measures the application without priority scheduling.");
        }
        return new JavaPriorityPolicy(p);
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
        if (cause == Cause.DEATH) {
            return; // nothing to restore on a dead thread
        }
        apply(t.thread(), to == null ? Thread.NORM_PRIORITY
                : Importance.isHigh(to) ? Thread.MAX_PRIORITY : Thread.MIN_PRIORITY);
    }

    @Override
    public void onDetach(ThreadView t, TaskClass role) {
        if (t.thread().isAlive()) {
            apply(t.thread(), Thread.NORM_PRIORITY);
        }
    }

    private void apply(Thread thread, int priority) {
        if (thread.getPriority() == priority) {
            return;
        }
        try {
            thread.setPriority(priority); // capped by the thread group's maximum
            changes++;
        } catch (RuntimeException e) { // SecurityException
            failures++;
        }
    }

    @Override
    public PriorityReport priorityReport() {
        return new PriorityReport("java", probe.effective(), probe.reason(), changes, failures);
    }
}
