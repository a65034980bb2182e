/**
 * What the mechanism records as it decides: JFR events for every scheduling decision
 * ({@link io.qosweaver.scheduler.event.SchedulerEvents}), the ring behind the running-threads
 * timeline, the suspension-time episodes and the control-point interval histograms. Writers are
 * the mechanism (under its lock, or a thread's own accumulator); readers copy out
 * {@code io.qosweaver.scheduler.stats} snapshots. Depends only on the stats value types.
 */
package io.qosweaver.scheduler.event;
