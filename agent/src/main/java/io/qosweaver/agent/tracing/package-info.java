/**
 * The tracing mode's start ({@code trace=OUT.pftrace} among the agent's arguments, alone or beside
 * a policy): hands the trace options to the trace module's {@code Tracer} and, for the
 * {@code server} level, weaves the server units (Jetty 9.4 to 12, Tomcat NIO, Undertow 2). Reached
 * only after the bootstrap jar is appended.
 */
package io.qosweaver.agent.tracing;
