/**
 * {@code qosweaver trace}: a java command run, or a running JVM attached, under the cross-level
 * tracer (the trace module, loaded by the agent in its tracing mode).
 */
package io.qosweaver.cli.trace;
