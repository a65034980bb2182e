/**
 * What the JVM does not say about its threads, behind small interfaces with stated units: the
 * kernel thread id of the calling thread ({@link io.qosweaver.platform.LinuxThreads}), a thread's
 * state, CPU time and run-queue wait from {@code /proc} ({@link io.qosweaver.platform.ProcThreadStat}),
 * per-thread CPU time from the JVM ({@link io.qosweaver.platform.ThreadCpuClock}), what Java
 * priorities do to a thread's nice value ({@link io.qosweaver.platform.JavaPriorities}), and native
 * priorities and affinity ({@link io.qosweaver.platform.NativeThreads}, whose native part is
 * plugged in from outside because Java 17 has no FFI).
 *
 * <p>No dependencies beyond {@code java.base} and {@code java.management}: this package goes on the
 * bootstrap class path with the scheduler, and is used by the scheduler's policies, and later by
 * the tracer and the CPU manager. Every reader answers "unknown" (a negative value or an empty
 * result) off Linux instead of throwing.
 */
package io.qosweaver.platform;
