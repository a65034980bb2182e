/**
 * The OS level: per-thread state (running, runnable waiting for a CPU, sleeping, blocked in I/O)
 * and CPU, from one of two sources on a thread of its own. {@link io.qosweaver.trace.os.TracefsSession}
 * reads the kernel's scheduler events from a tracefs instance of its own (root; every switch, exact),
 * parsed by {@link io.qosweaver.trace.os.SchedEventParser} and turned into slices by
 * {@link io.qosweaver.trace.os.SchedStates}; {@link io.qosweaver.trace.os.OsSampler} samples
 * {@code /proc} at a fixed rate ({@link io.qosweaver.trace.os.ProcReader}) where tracefs cannot be
 * used. Depends on the platform module ({@code LinuxThreads}) and the timeline.
 */
package io.qosweaver.trace.os;
