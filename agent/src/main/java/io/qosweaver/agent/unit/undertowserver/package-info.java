/**
 * The trace's server level in Undertow 2 (HTTP/1.1, plain and TLS): one unit whose advice reports
 * accept, close, the TLS handshake, reads (parsing), the service (on the IO thread and on the
 * worker a request is dispatched to) and the request's completion through {@code ServerEvents}
 * and the tracer's {@code ServerTrace}. Woven only while a trace with the {@code server} level runs.
 */
package io.qosweaver.agent.unit.undertowserver;
