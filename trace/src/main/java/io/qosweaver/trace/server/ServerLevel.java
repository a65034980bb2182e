package io.qosweaver.trace.server;

import io.qosweaver.trace.app.ServerTrace;
import io.qosweaver.trace.proto.Args;
import io.qosweaver.trace.timeline.Level;
import io.qosweaver.trace.timeline.Timeline;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The server level, on the tracer's drain thread. A thread's {@code server} track gets what that
 * thread did: {@code accept}, {@code close}, {@code TLS handshake begins} / {@code ends} instants,
 * {@code parsing} slices (from the read that began a request to its headers) and {@code service}
 * slices (the server's handler). What belongs to a connection rather than a thread goes onto
 * process tracks {@code connections N}, lanes reused once their connection closed: a
 * {@code connection} slice from accept to close, with a {@code TLS handshake} slice (TLS opened to
 * handshake done) and {@code keep-alive idle} slices (a request's service ended, or its exchange
 * completed for a server that dispatches requests to other threads, to the beginning of the read
 * that brought the next request's headers, or the close) nested in it. Every event carries the connection as
 * {@code conn}.
 *
 * <p>HTTP/2 (a multiplexed connection): a read may bring the headers of several streams, so each
 * stream gets its own {@code parsing} slice (from the read's beginning or the previous stream's
 * headers to its own), and its {@code service} slice, on whichever thread runs it, carries the
 * connection and the {@code stream}; the connection's lane gets a {@code request} instant per
 * stream, and its keep-alive idle begins only when none of its streams is in service. A
 * connection upgraded from HTTP/1.1 ({@code Upgrade: h2c}) keeps its lane; the upgrading request,
 * parsed as HTTP/1.1 (an HTTP/1.1 {@code parsing} slice), becomes stream 1: its {@code request}
 * instant says {@code upgradedFrom}, its service slice carries stream 1.
 *
 * <p>A connection's events come from several threads' rings, drained one ring after the other,
 * so events are sorted by time before they are interpreted, and only up to a horizon somewhat
 * before the drain began ({@link #flush(long)}): a ring read early in a drain can still receive an
 * event older than one read from a later ring (an HTTP/2 stream's headers parsed on one thread
 * while another thread's stream ends), and interpreted in the wrong order such a pair begins a
 * keep-alive idle while a stream is still in service. Events older than what was interpreted
 * already are interpreted all the same and counted ({@code serverEventsLate}).
 * Connections accepted before the trace began have no lane: their closes and handshakes are only
 * instants on their threads.
 */
public final class ServerLevel {
    private record Ev(long ts, int tid, int kind, long number) {}

    private static final class Conn {
        final int lane;
        boolean handshaking;
        long idleSince = -1;
        long lastParse = Long.MIN_VALUE;
        /** HTTP/2: streams whose headers were parsed and whose service has not ended. */
        int activeStreams;

        Conn(int lane) {
            this.lane = lane;
        }
    }

    private static final class PerThread {
        boolean parsing;
        /** The read in progress is of an HTTP/2 connection (its parsing slices are written per stream). */
        boolean multiplexed;
        int conn;
        /** The HTTP/2 stream of the service in progress; 0 for HTTP/1. */
        int stream;
        int serviceDepth;
        /**
         * An HTTP/2 stream's service nested in an HTTP/1 one (Undertow serves the request that
         * upgraded its connection as stream 1 inside the upgrading exchange's service): the
         * service depth it began at (0: none), its connection and stream.
         */
        int innerDepth;
        int innerConn;
        int innerStream;
        long serviceBegan;
        long parseBegan;
    }

    private final Timeline timeline;
    private final List<Ev> batch = new ArrayList<>();
    private final Map<Integer, Conn> conns = new HashMap<>();
    private final Map<Integer, PerThread> threads = new HashMap<>();
    private final List<Long> laneTracks = new ArrayList<>();
    private final List<Boolean> laneBusy = new ArrayList<>();
    private long accepted;
    private long closed;
    private long tlsFull;
    private long tlsResumed;
    private long requests;
    private long handshakeNanos;
    private long idleNanos;
    private final Map<Integer, Long> handshakeSince = new HashMap<>();
    /** The newest time interpreted so far, and the events interpreted behind it. */
    private long interpreted = Long.MIN_VALUE;
    private long late;

    public ServerLevel(Timeline timeline) {
        this.timeline = timeline;
    }

    /** One ring event of {@link ServerTrace}'s kinds, held until {@link #flush}. */
    public void event(int tid, long ts, int kind, long number) {
        batch.add(new Ev(ts, tid, kind, number));
    }

    /** Interprets every event held, in time order (at the end of the trace). */
    public void flush() {
        flush(Long.MAX_VALUE);
    }

    /**
     * Interprets the events held up to {@code horizon}, in time order; later ones wait for the next
     * flush, when the rings drained before theirs may have delivered events older than them.
     */
    public void flush(long horizon) {
        batch.sort(Comparator.comparingLong(Ev::ts));
        int n = 0;
        for (Ev e : batch) {
            if (e.ts > horizon) {
                break;
            }
            if (e.ts < interpreted) {
                late++;
            } else {
                interpreted = e.ts;
            }
            handle(e);
            n++;
        }
        batch.subList(0, n).clear();
    }

    private static Args conn(int c) {
        return new Args().add("conn", c & 0xFFFFFFFFL);
    }

    private void handle(Ev e) {
        long track = Timeline.levelTrack(e.tid, Level.SERVER);
        int c = (int) e.number;
        PerThread t = threads.computeIfAbsent(e.tid, k -> new PerThread());
        switch (e.kind) {
            case ServerTrace.ACCEPT -> {
                accepted++;
                timeline.instant(e.ts, track, "accept", "server", conn(c));
                Conn old = conns.remove(c); // an identity hash reused before its close was seen
                if (old != null) {
                    closeLane(old, c, e.ts);
                }
                int lane = freeLane();
                conns.put(c, new Conn(lane));
                timeline.begin(e.ts, laneTracks.get(lane), "connection", "server", conn(c).add("acceptedOnTid", e.tid));
            }
            case ServerTrace.CLOSE -> {
                Conn k = conns.remove(c);
                if (k == null) {
                    return; // not accepted while traced (or a client's connection)
                }
                closed++;
                timeline.instant(e.ts, track, "close", "server", conn(c));
                closeLane(k, c, e.ts);
            }
            case ServerTrace.TLS_BEGIN -> {
                timeline.instant(e.ts, track, "TLS handshake begins", "server", conn(c));
                Conn k = conns.get(c);
                if (k != null && !k.handshaking) {
                    k.handshaking = true;
                    handshakeSince.put(c, e.ts);
                    timeline.begin(e.ts, laneTracks.get(k.lane), "TLS handshake", "server", conn(c));
                }
            }
            case ServerTrace.TLS_END -> {
                boolean resumed = (e.number >>> 32) != 0;
                if (resumed) {
                    tlsResumed++;
                } else {
                    tlsFull++;
                }
                String how = resumed ? "resumed" : "full";
                timeline.instant(e.ts, track, "TLS handshake ends", "server", conn(c).add("handshake", how));
                Conn k = conns.get(c);
                if (k != null && k.handshaking) {
                    k.handshaking = false;
                    handshakeNanos += e.ts - handshakeSince.remove(c);
                    timeline.end(e.ts, laneTracks.get(k.lane));
                }
            }
            case ServerTrace.PARSE_BEGIN -> {
                if (t.parsing) {
                    return; // a nested read: the outer one's parsing goes on
                }
                t.parsing = true;
                t.multiplexed = (e.number >>> 32) != 0;
                t.conn = c;
                t.parseBegan = e.ts;
                if (!t.multiplexed) {
                    timeline.begin(e.ts, track, "parsing", "server", conn(c));
                }
                Conn k = conns.get(c);
                if (k != null) {
                    k.lastParse = e.ts;
                }
            }
            case ServerTrace.HEADERS_DONE, ServerTrace.READ_END -> {
                if (e.kind == ServerTrace.HEADERS_DONE && (e.number & 1L << 31) != 0
                        && !(t.parsing && t.multiplexed && t.conn == (int) (e.number >>> 32))) {
                    upgraded(e.ts, (int) (e.number >>> 32), (int) (e.number & 0x7FFFFFFFL));
                    return;
                }
                if (e.kind == ServerTrace.HEADERS_DONE) {
                    requests++;
                    // The idle ends where the read that brought the next request began (a read that
                    // found nothing, or only part of the headers, does not end it).
                    Conn k = t.parsing ? conns.get(t.conn) : null;
                    if (k != null) {
                        endIdle(k, t.parseBegan);
                    }
                    if (t.parsing && t.multiplexed) {
                        streamParsed(e.ts, track, t, k, (int) (e.number & 0x7FFFFFFFL));
                        return; // the read goes on: the headers of more streams may follow
                    }
                }
                if (t.parsing) {
                    t.parsing = false;
                    if (!t.multiplexed) {
                        timeline.end(e.ts, track);
                    }
                }
            }
            case ServerTrace.SERVICE_BEGIN -> {
                if (t.serviceDepth++ == 0) {
                    if ((e.number >>> 32) != 0) {
                        t.conn = c; // dispatched: this thread did not parse it
                    }
                    t.stream = (int) (e.number >>> 33);
                    t.serviceBegan = e.ts;
                    timeline.begin(e.ts, track, "service", "server", t.stream == 0 ? conn(t.conn) : stream(t.conn, t.stream));
                } else if (t.innerDepth == 0 && t.stream == 0 && (e.number >>> 33) != 0) {
                    t.innerDepth = t.serviceDepth;
                    t.innerConn = c;
                    t.innerStream = (int) (e.number >>> 33);
                    timeline.begin(e.ts, track, "service", "server", stream(c, t.innerStream));
                }
            }
            case ServerTrace.SERVICE_END -> {
                if (t.serviceDepth > 0 && t.serviceDepth == t.innerDepth) {
                    t.serviceDepth--;
                    t.innerDepth = 0;
                    timeline.end(e.ts, track);
                    if (e.number != 1) {
                        streamServed(e.ts, t.innerConn);
                    }
                    return;
                }
                if (t.serviceDepth == 0 || --t.serviceDepth > 0) {
                    return;
                }
                timeline.end(e.ts, track);
                if (e.number == 1) {
                    return; // the request goes on elsewhere: its REQUEST_DONE begins the idle
                }
                Conn k = conns.get(t.conn);
                if (t.stream != 0) {
                    streamServed(e.ts, t.conn);
                    return;
                }
                // The connection waits for its next request, unless that request's parsing already
                // began (the response reached the client before this thread left the handler).
                if (k != null && k.idleSince < 0 && !k.handshaking && k.lastParse <= t.serviceBegan) {
                    k.idleSince = e.ts;
                    timeline.begin(e.ts, laneTracks.get(k.lane), "keep-alive idle", "server", conn(t.conn));
                }
            }
            case ServerTrace.REQUEST_DONE -> {
                Conn k = conns.get(c);
                if ((e.number >>> 32) != 0) {
                    streamServed(e.ts, c);
                    return;
                }
                if (k != null && k.idleSince < 0 && !k.handshaking) {
                    k.idleSince = e.ts;
                    timeline.begin(e.ts, laneTracks.get(k.lane), "keep-alive idle", "server", conn(c));
                }
            }
            default -> {
                // not a server event
            }
        }
    }

    private static Args stream(int c, int stream) {
        return conn(c).add("stream", stream).add("protocol", "HTTP/2");
    }

    /**
     * HTTP/2: the headers of {@code stream} were parsed in the read of thread {@code t}. Its
     * parsing slice runs from the read's beginning, or from the previous stream's headers in the
     * same read, and is written whole now that its stream is known (a read that brings no new
     * stream, only frames of streams already parsed, gets none). The connection's lane gets a
     * {@code request} instant, so that concurrent streams show as distinct requests of one connection.
     */
    private void streamParsed(long ts, long track, PerThread t, Conn k, int stream) {
        timeline.slice(t.parseBegan, ts, track, "parsing", "server", stream(t.conn, stream));
        t.parseBegan = ts;
        if (k != null) {
            k.activeStreams++;
            timeline.instant(ts, laneTracks.get(k.lane), "request", "server", stream(t.conn, stream));
        }
    }

    /**
     * HTTP/2 stream {@code stream} of {@code c} is ready to be served but was not parsed in a read
     * of this thread: stream 1, the HTTP/1.1 request that upgraded its connection ({@code
     * Upgrade: h2c}), or a stream the server pushed (even). The upgrading request was parsed (and counted) as HTTP/1.1, its
     * parsing slice is an HTTP/1.1 one; the connection's lane gets its {@code request} instant, and
     * the stream is in service until its service ends.
     */
    private void upgraded(long ts, int c, int stream) {
        Conn k = conns.get(c);
        if (k != null) {
            endIdle(k, ts);
            k.activeStreams++;
            Args args = stream(c, stream);
            timeline.instant(ts, laneTracks.get(k.lane), "request", "server", stream == 1 ? args.add("upgradedFrom", "HTTP/1.1") : args);
        }
    }

    /** HTTP/2: a stream of {@code c} was served; the connection is idle once none of its streams is in service. */
    private void streamServed(long ts, int c) {
        Conn k = conns.get(c);
        if (k != null && k.activeStreams > 0 && --k.activeStreams == 0 && k.idleSince < 0 && !k.handshaking) {
            k.idleSince = ts;
            timeline.begin(ts, laneTracks.get(k.lane), "keep-alive idle", "server", conn(c));
        }
    }

    private void endIdle(Conn k, long ts) {
        if (k.idleSince >= 0) {
            ts = Math.max(ts, k.idleSince);
            idleNanos += ts - k.idleSince;
            k.idleSince = -1;
            timeline.end(ts, laneTracks.get(k.lane));
        }
    }

    private void closeLane(Conn k, int c, long ts) {
        endIdle(k, ts);
        if (k.handshaking) {
            k.handshaking = false;
            handshakeNanos += ts - handshakeSince.remove(c);
            timeline.end(ts, laneTracks.get(k.lane));
        }
        timeline.end(ts, laneTracks.get(k.lane));
        laneBusy.set(k.lane, false);
    }

    private int freeLane() {
        for (int i = 0; i < laneBusy.size(); i++) {
            if (!laneBusy.get(i)) {
                laneBusy.set(i, true);
                return i;
            }
        }
        laneTracks.add(timeline.processChild("connections " + (laneTracks.size() + 1), 0));
        laneBusy.add(true);
        return laneBusy.size() - 1;
    }

    /** The level's totals, for the closing statistics; handshakes and idle times still open count up to {@code end}. */
    public Args statistics(Args into, long end) {
        long idle = idleNanos;
        long hs = handshakeNanos;
        for (Map.Entry<Integer, Conn> e : conns.entrySet()) {
            if (e.getValue().idleSince >= 0) {
                idle += end - e.getValue().idleSince;
            }
            if (e.getValue().handshaking) {
                hs += end - handshakeSince.get(e.getKey());
            }
        }
        return into.add("connectionsAccepted", accepted).add("connectionsClosed", closed)
                .add("tlsHandshakesFull", tlsFull).add("tlsHandshakesResumed", tlsResumed)
                .add("tlsHandshakeMs", hs / 1_000_000).add("requestsParsed", requests)
                .add("keepAliveIdleMs", idle / 1_000_000).add("serverEventsLate", late);
    }
}
