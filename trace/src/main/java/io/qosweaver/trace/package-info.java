/**
 * The cross-level timeline (issue 17): {@link io.qosweaver.trace.Tracer} starts the levels' sources
 * (OS, JVM, scheduler, application, server, user events), merges what they report in timestamp
 * order and writes one Perfetto trace; {@link io.qosweaver.trace.TraceOptions} is what the agent argument and
 * {@code qosweaver trace} say.
 */
package io.qosweaver.trace;
