/**
 * The OS level: per-thread state and CPU sampled from {@code /proc} on a thread of its own.
 * Depends on the platform module ({@code ProcThreadStat}) and the timeline.
 */
package io.qosweaver.trace.os;
