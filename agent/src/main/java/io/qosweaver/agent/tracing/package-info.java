/**
 * The tracing mode's start ({@code trace=OUT.pftrace} among the agent's arguments, alone or beside
 * a policy): hands the trace options to the trace module's {@code Tracer}. Reached only after the
 * bootstrap jar is appended.
 */
package io.qosweaver.agent.tracing;
