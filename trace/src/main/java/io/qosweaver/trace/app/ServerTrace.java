package io.qosweaver.trace.app;

import io.qosweaver.trace.buffer.ThreadRings;

/**
 * What the server integrations call on the server's threads (the trace's {@code server} level):
 * a connection's accept and close, its TLS handshake's begin and end, a request's parsing and
 * service. A connection is named by a number the integration derives from its socket channel
 * (its identity hash), the same on every thread. Off (no tracer, or the level not asked for),
 * each call is one volatile read; on, a clock read and a few stores into the thread's ring.
 */
public final class ServerTrace {
    public static final int ACCEPT = 10;
    public static final int CLOSE = 11;
    public static final int TLS_BEGIN = 12;
    /** {@code number}: the connection in the low 32 bits, 1 in the high ones for a resumed session. */
    public static final int TLS_END = 13;
    /**
     * {@code number}: the connection in the low 32 bits, 1 in the high ones for a multiplexed
     * connection (HTTP/2), whose read may bring the headers of several streams.
     */
    public static final int PARSE_BEGIN = 14;
    /**
     * The request line and headers are read: the parsing ends ({@code number}: 0, or an HTTP/2
     * stream's id in the low 31 bits; with bit 31 set, {@link #streamRequest}: the connection in the high 32 bits).
     */
    public static final int HEADERS_DONE = 15;
    /** The read that began the parsing returns (ends the parsing if no request was complete). */
    public static final int READ_END = 16;
    /**
     * {@code number}: 0, or the connection in the low 32 bits, 1 in bit 32 (a service on a thread
     * that did not parse it) and an HTTP/2 stream's id (31 bits) above it.
     */
    public static final int SERVICE_BEGIN = 17;
    /** {@code number}: 1 when the request may go on elsewhere (its connection's idle begins at {@link #REQUEST_DONE}). */
    public static final int SERVICE_END = 18;
    /**
     * A request's exchange completed: its connection waits for the next one ({@code number}: the
     * connection in the low 32 bits; for {@link #streamDone}, the HTTP/2 stream in the high ones).
     */
    public static final int REQUEST_DONE = 19;

    private static volatile ThreadRings rings;

    private ServerTrace() {}

    public static void install(ThreadRings r) {
        rings = r;
    }

    public static boolean on() {
        return rings != null;
    }

    private static void offer(int kind, long number) {
        ThreadRings r = rings;
        if (r != null) {
            r.current().offer(System.nanoTime(), kind, number, null, null, null);
        }
    }

    /** A connection was accepted on this thread. */
    public static void accept(int conn) {
        offer(ACCEPT, conn & 0xFFFFFFFFL);
    }

    public static void close(int conn) {
        offer(CLOSE, conn & 0xFFFFFFFFL);
    }

    public static void tlsBegin(int conn) {
        offer(TLS_BEGIN, conn & 0xFFFFFFFFL);
    }

    /** The handshake succeeded; {@code resumed}: the session came from an earlier connection. */
    public static void tlsEnd(int conn, boolean resumed) {
        offer(TLS_END, (conn & 0xFFFFFFFFL) | (resumed ? 1L << 32 : 0));
    }

    /** This thread starts reading (and parsing) what arrived on {@code conn}. */
    public static void parseBegin(int conn) {
        offer(PARSE_BEGIN, conn & 0xFFFFFFFFL);
    }

    public static void headersDone() {
        offer(HEADERS_DONE, 0);
    }

    /**
     * This thread starts reading what arrived on the HTTP/2 connection {@code conn}: the headers
     * of several streams may follow, each reported by {@link #streamHeadersDone}.
     */
    public static void parseBeginMultiplexed(int conn) {
        offer(PARSE_BEGIN, (conn & 0xFFFFFFFFL) | 1L << 32);
    }

    /** The headers of the HTTP/2 stream {@code stream} (a new request) are parsed, in the read of this thread. */
    public static void streamHeadersDone(int stream) {
        offer(HEADERS_DONE, stream & 0x7FFFFFFFL);
    }

    /**
     * The request of HTTP/2 stream {@code stream} of {@code conn} is ready to be served: its headers
     * were parsed in this thread's read of {@code conn} (then as {@link #streamHeadersDone}), or it
     * is the HTTP/1.1 request that upgraded the connection to HTTP/2 ({@code Upgrade: h2c}), parsed
     * earlier as HTTP/1.1.
     */
    public static void streamRequest(int conn, int stream) {
        offer(HEADERS_DONE, (stream & 0x7FFFFFFFL) | 1L << 31 | (conn & 0xFFFFFFFFL) << 32);
    }

    /** The service of HTTP/2 stream {@code stream} of {@code conn} begins, on any thread. */
    public static void streamServiceBegin(int conn, int stream) {
        offer(SERVICE_BEGIN, (conn & 0xFFFFFFFFL) | 1L << 32 | (stream & 0x7FFFFFFFL) << 33);
    }

    public static void readEnd() {
        offer(READ_END, 0);
    }

    public static void serviceBegin() {
        offer(SERVICE_BEGIN, 0);
    }

    public static void serviceEnd() {
        offer(SERVICE_END, 0);
    }

    /**
     * A service of {@code conn} begins, maybe on a thread other than the one that parsed it (a
     * request dispatched to a worker); such a server reports its requests' ends with
     * {@link #serviceReturned} and {@link #requestDone}.
     */
    public static void serviceBegin(int conn) {
        offer(SERVICE_BEGIN, (conn & 0xFFFFFFFFL) | 1L << 32);
    }

    /** The handler returned, but the request may go on elsewhere: its connection is not idle yet. */
    public static void serviceReturned() {
        offer(SERVICE_END, 1);
    }

    /** The request on {@code conn} completed (the response sent): the connection waits for its next request. */
    public static void requestDone(int conn) {
        offer(REQUEST_DONE, conn & 0xFFFFFFFFL);
    }

    /**
     * HTTP/2 stream {@code stream} of {@code conn} completed (its response sent), for a server whose
     * stream services report {@link #serviceReturned}: the connection is idle once none of its streams is in service.
     */
    public static void streamDone(int conn, int stream) {
        offer(REQUEST_DONE, (conn & 0xFFFFFFFFL) | (stream & 0x7FFFFFFFL) << 32);
    }
}
