/**
 * The trace's server level in Undertow 2 (HTTP/1.1, plain and TLS, and HTTP/2: h2c upgrade and h2
 * over TLS): one unit whose advice reports accept, close, the TLS handshake, reads (parsing), the
 * service (on the IO thread and on the worker a request is dispatched to) and the request's (or an
 * HTTP/2 stream's) completion, each HTTP/2 stream with its id, through {@code ServerEvents}
 * and the tracer's {@code ServerTrace}. Woven when a trace with the {@code server} level starts; after it ends the join points
 * stay woven and cost one volatile read each (the trace's server switch off).
 */
package io.qosweaver.agent.unit.undertowserver;
