/**
 * The read side of the scheduler: immutable snapshots of its counters
 * ({@link io.qosweaver.scheduler.stats.SchedulerStats}), its running-threads timeline
 * ({@link io.qosweaver.scheduler.stats.Timeline}), control-point interval histograms, and their
 * renderings for JMX and Prometheus. Value types only; depends on nothing of ours.
 */
package io.qosweaver.scheduler.stats;
