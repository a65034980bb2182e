/**
 * The scheduler's outside: the bridge woven code calls ({@link io.qosweaver.scheduler.QoS}: static,
 * never throws, a no-op when nothing is installed) and the management API the agent calls
 * ({@link io.qosweaver.scheduler.Scheduler}, {@link io.qosweaver.scheduler.SchedulerConfig},
 * {@link io.qosweaver.scheduler.Policies}). Everything behind it is in the sub-packages:
 * {@code spi} (what policies implement and use), {@code core} (the mechanism), {@code policy} (the
 * built-in policies, one file each), {@code event} (what the mechanism records) and {@code stats}
 * (what readers get). This module goes on the bootstrap class path, so it depends on nothing but
 * the JDK ({@code java.base}, {@code java.management}, {@code jdk.jfr}) and the platform module.
 */
package io.qosweaver.scheduler;
