/**
 * The JVM and scheduler levels: JFR streamed in process, its threads joined to OS thread ids, its
 * time calibrated to the trace's clock. Depends on {@code jdk.jfr} and the timeline.
 */
package io.qosweaver.trace.jvm;
