package io.qosweaver.scheduler.stats;

/**
 * Whether a priority-based policy's priorities take effect (SchedulerStats, Prometheus
 * {@code qosweaver_priority_effective}). Priority policies are the paper's baselines (5.1); a run
 * that believes it measures them while the JVM or the OS ignores the priorities measures the
 * unscheduled application instead, so this is reported rather than assumed.
 *
 * @param mechanism {@code java} (Thread.setPriority) or {@code linux-nice} (setpriority on the
 *     native thread)
 * @param effective whether the priorities reach the OS scheduler in both directions (raising the
 *     high task and lowering the low ones)
 * @param reason why, in one line (for example the JVM flag or the errno that decided it)
 * @param changes priority changes applied to threads since install
 * @param failures priority changes that failed since install
 */
public record PriorityReport(String mechanism, boolean effective, String reason, long changes, long failures) {}
