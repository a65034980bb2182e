/**
 * The trace's server level in Jetty 9.4 to 12: one unit, matching each version's classes by name,
 * whose advice reports accept, close, TLS handshakes, reads (parsing) and the service (on Jetty 12
 * also per HTTP/2 stream, the request of an {@code Upgrade: h2c} as stream 1) through the
 * bootstrap helper {@code ServerEvents} and the tracer's {@code ServerTrace}. Woven when a trace with the {@code server} level starts; after it ends the join points
 * stay woven and cost one volatile read each (the trace's server switch off).
 */
package io.qosweaver.agent.unit.jettyserver;
