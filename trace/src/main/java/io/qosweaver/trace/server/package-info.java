/**
 * The server level on the tracer's side: turns the server integrations' ring events into slices
 * and instants on each thread's {@code server} track and into per-connection lanes (connection,
 * TLS handshake, keep-alive idle), which need state across threads.
 */
package io.qosweaver.trace.server;
