/**
 * The trace's server level in Jetty 9.4 to 12: one unit, matching each version's classes by name,
 * whose advice reports accept, close, TLS handshakes, reads (parsing) and the service (on Jetty 12
 * also per HTTP/2 stream) through the bootstrap helper {@code ServerEvents} and the tracer's
 * {@code ServerTrace}. Woven only while a trace with the {@code server} level runs.
 */
package io.qosweaver.agent.unit.jettyserver;
