/**
 * The trace's server level in Tomcat's NIO and NIO2 connectors: one unit whose advice reports accept,
 * close, the JSSE TLS handshake (full or resumed), reads (parsing) and the service (with
 * {@code Http2Protocol}, also each HTTP/2 stream's parsing, request and service, h2c and h2) through
 * {@code ServerEvents} and the tracer's {@code ServerTrace}. Woven when a trace with the
 * {@code server} level starts; after it ends the join points stay woven and cost one volatile
 * read each (the trace's server switch off).
 */
package io.qosweaver.agent.unit.tomcatserver;
