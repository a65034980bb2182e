/**
 * The tracing mode's start ({@code trace=OUT.pftrace} among the agent's arguments, alone or beside
 * a policy): hands the trace options to the trace module's {@code Tracer} and, for the
 * {@code server} level, weaves the Jetty 12 and Tomcat server units. Reached only after the
 * bootstrap jar is appended.
 */
package io.qosweaver.agent.tracing;
