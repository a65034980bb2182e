/**
 * The trace's server level in Tomcat's NIO and NIO2 connectors: one unit whose advice reports accept,
 * close, the JSSE TLS handshake (full or resumed), reads (parsing) and the service through
 * {@code ServerEvents} and the tracer's {@code ServerTrace}. Woven only while a trace with the
 * {@code server} level runs.
 */
package io.qosweaver.agent.unit.tomcatserver;
