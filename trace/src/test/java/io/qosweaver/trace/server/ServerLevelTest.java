package io.qosweaver.trace.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.trace.TraceChecks;
import io.qosweaver.trace.app.ServerTrace;
import io.qosweaver.trace.proto.Args;
import io.qosweaver.trace.proto.PerfettoWriter;
import io.qosweaver.trace.timeline.Timeline;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perfetto.protos.DebugAnnotationOuterClass.DebugAnnotation;
import perfetto.protos.TracePacketOuterClass.TracePacket;
import perfetto.protos.TrackEventOuterClass.TrackEvent;

class ServerLevelTest {
    private static final long MS = 1_000_000;
    private static final int IO = 1;
    private static final int WORKER = 2;
    private static final int CONN = 5;

    @TempDir
    Path dir;

    /**
     * A server that dispatches (Undertow): the IO thread parses and returns from the handler, a
     * worker serves the connection it did not parse and completes the exchange; a read that finds
     * nothing does not end the idle, the read that brings the next headers does, from its beginning.
     */
    @Test
    void aDispatchedRequestIsServedOnItsConnectionAndItsIdleRunsFromTheExchangesEndToTheNextHeaders() throws Exception {
        Traced tr = new Traced("s.pftrace");
        tr.timeline.nameThread(IO, "io");
        tr.timeline.nameThread(WORKER, "worker");
        ServerLevel level = tr.level;
        level.event(IO, 100 * MS, ServerTrace.ACCEPT, CONN);
        level.event(IO, 200 * MS, ServerTrace.PARSE_BEGIN, CONN);
        level.event(IO, 210 * MS, ServerTrace.HEADERS_DONE, 0);
        level.event(IO, 220 * MS, ServerTrace.SERVICE_BEGIN, 0);
        level.event(IO, 230 * MS, ServerTrace.SERVICE_END, 1); // dispatched: the request goes on
        level.event(IO, 240 * MS, ServerTrace.READ_END, 0);
        level.event(WORKER, 300 * MS, ServerTrace.SERVICE_BEGIN, CONN | 1L << 32);
        level.event(WORKER, 390 * MS, ServerTrace.REQUEST_DONE, CONN);
        level.event(WORKER, 400 * MS, ServerTrace.SERVICE_END, 1);
        level.flush();
        level.event(IO, 500 * MS, ServerTrace.PARSE_BEGIN, CONN); // finds nothing
        level.event(IO, 505 * MS, ServerTrace.READ_END, 0);
        level.event(IO, 900 * MS, ServerTrace.PARSE_BEGIN, CONN);
        level.event(IO, 910 * MS, ServerTrace.HEADERS_DONE, 0);
        level.event(IO, 920 * MS, ServerTrace.SERVICE_BEGIN, 0); // served on the IO thread
        level.event(IO, 930 * MS, ServerTrace.SERVICE_END, 0);
        level.event(IO, 935 * MS, ServerTrace.READ_END, 0);
        level.event(IO, 1500 * MS, ServerTrace.CLOSE, CONN);
        level.flush();
        Args stats = level.statistics(new Args(), 2000 * MS);

        TraceChecks c = tr.finish();
        List<long[]> idles = new ArrayList<>();
        long[] open = null;
        for (TracePacket p : c.events) {
            TrackEvent e = p.getTrackEvent();
            if (!c.tracks.get(e.getTrackUuid()).getName().equals("connections 1")) {
                continue;
            }
            if (e.getName().equals("keep-alive idle")) {
                open = new long[] {p.getTimestamp() / MS, 0};
            } else if (e.getType() == TrackEvent.Type.TYPE_SLICE_END && open != null) {
                open[1] = p.getTimestamp() / MS;
                idles.add(open);
                open = null;
            }
        }
        assertThat(idles).containsExactly(new long[] {390, 900}, new long[] {930, 1500});
        List<TrackEvent> services = c.events.stream().map(TracePacket::getTrackEvent)
                .filter(e -> e.getName().equals("service")).toList();
        assertThat(services).hasSize(3).allSatisfy(e -> assertThat(conn(e)).isEqualTo(CONN));
        assertThat(c.on("server").stream().filter(e -> e.getName().equals("parsing"))).hasSize(3);
        assertThat(number(stats, "requestsParsed")).isEqualTo(2);
        assertThat(number(stats, "keepAliveIdleMs")).as("510 + 570 ms").isEqualTo(1080);
        assertThat(number(stats, "connectionsClosed")).isEqualTo(1);
    }

    /**
     * HTTP/2: one read brings the headers of streams 1 and 3, each its own parsing slice; the
     * streams are served on two threads at once, each service tagged with its stream; the
     * connection's lane shows both requests, and its idle begins only when the last service ends.
     */
    @Test
    void concurrentHttp2StreamsAreDistinctRequestsOfOneConnection() throws Exception {
        Traced tr = new Traced("h2.pftrace");
        ServerLevel level = tr.level;
        level.event(IO, 100 * MS, ServerTrace.ACCEPT, CONN);
        level.event(IO, 200 * MS, ServerTrace.PARSE_BEGIN, CONN | 1L << 32);
        level.event(IO, 210 * MS, ServerTrace.HEADERS_DONE, 1);
        level.event(IO, 215 * MS, ServerTrace.HEADERS_DONE, 3);
        level.event(IO, 220 * MS, ServerTrace.READ_END, 0);
        level.event(IO, 230 * MS, ServerTrace.SERVICE_BEGIN, CONN | 1L << 32 | 1L << 33);
        level.event(WORKER, 231 * MS, ServerTrace.SERVICE_BEGIN, CONN | 1L << 32 | 3L << 33);
        level.event(IO, 300 * MS, ServerTrace.SERVICE_END, 0);
        level.event(WORKER, 400 * MS, ServerTrace.SERVICE_END, 0);
        level.event(IO, 600 * MS, ServerTrace.PARSE_BEGIN, CONN | 1L << 32); // brings no new stream
        level.event(IO, 601 * MS, ServerTrace.READ_END, 0);
        level.event(IO, 900 * MS, ServerTrace.CLOSE, CONN);
        level.flush();
        Args stats = level.statistics(new Args(), 1000 * MS);

        TraceChecks c = tr.finish();
        List<long[]> parsings = new ArrayList<>(); // stream, begin, end (ms)
        List<long[]> services = new ArrayList<>();
        java.util.Map<Long, long[]> open = new java.util.HashMap<>();
        List<Long> requests = new ArrayList<>();
        long[] idle = null;
        for (TracePacket p : c.events) {
            TrackEvent e = p.getTrackEvent();
            String track = c.tracks.get(e.getTrackUuid()).getName();
            long ms = p.getTimestamp() / MS;
            if (track.equals("server") && e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN) {
                assertThat(conn(e)).isEqualTo(CONN);
                assertThat(e.getDebugAnnotationsList()).anyMatch(a -> a.getName().equals("protocol")
                        && a.getStringValue().equals("HTTP/2"));
                open.put(e.getTrackUuid(), new long[] {arg(e, "stream"), ms, 0, e.getName().equals("parsing") ? 1 : 0});
            } else if (track.equals("server") && e.getType() == TrackEvent.Type.TYPE_SLICE_END) {
                long[] s = open.remove(e.getTrackUuid());
                (s[3] == 1 ? parsings : services).add(new long[] {s[0], s[1], ms});
            } else if (track.equals("connections 1") && e.getName().equals("request")) {
                assertThat(conn(e)).isEqualTo(CONN);
                requests.add(arg(e, "stream"));
            } else if (track.equals("connections 1") && e.getName().equals("keep-alive idle")) {
                idle = new long[] {ms, 0};
            } else if (track.equals("connections 1") && e.getType() == TrackEvent.Type.TYPE_SLICE_END && idle != null
                    && idle[1] == 0) {
                idle[1] = ms;
            }
        }
        assertThat(parsings).containsExactly(new long[] {1, 200, 210}, new long[] {3, 210, 215});
        assertThat(services).containsExactlyInAnyOrder(new long[] {1, 230, 300}, new long[] {3, 231, 400});
        assertThat(requests).containsExactly(1L, 3L);
        assertThat(idle).as("idle from the last stream's service end to the close").containsExactly(400, 900);
        assertThat(number(stats, "requestsParsed")).isEqualTo(2);
    }

    /**
     * {@code Upgrade: h2c}: the HTTP/1.1 request parsed and its (HTTP/1.1) service begun, the
     * upgrade makes it stream 1, served nested in that service (Undertow), its response completed
     * ({@code streamDone}); then stream 3 parsed in an HTTP/2 read and served. The lane gets a
     * request per stream, stream 1's saying it was upgraded; the idle runs from stream 1's
     * completion to stream 3's read, then from stream 3's service end to the close.
     */
    @Test
    void anUpgradedRequestIsStreamOneOfTheSameConnection() throws Exception {
        Traced tr = new Traced("upgrade.pftrace");
        ServerLevel level = tr.level;
        level.event(IO, 100 * MS, ServerTrace.ACCEPT, CONN);
        level.event(IO, 200 * MS, ServerTrace.PARSE_BEGIN, CONN);
        level.event(IO, 210 * MS, ServerTrace.HEADERS_DONE, 0);
        level.event(IO, 220 * MS, ServerTrace.SERVICE_BEGIN, CONN | 1L << 32);
        level.event(IO, 230 * MS, ServerTrace.HEADERS_DONE, 1 | 1L << 31 | (long) CONN << 32); // streamRequest(CONN, 1)
        level.event(IO, 240 * MS, ServerTrace.SERVICE_BEGIN, CONN | 1L << 32 | 1L << 33);
        level.event(IO, 250 * MS, ServerTrace.REQUEST_DONE, CONN | 1L << 32); // streamDone(CONN, 1)
        level.event(IO, 260 * MS, ServerTrace.SERVICE_END, 1);
        level.event(IO, 270 * MS, ServerTrace.SERVICE_END, 1);
        level.event(IO, 600 * MS, ServerTrace.PARSE_BEGIN, CONN | 1L << 32);
        level.event(IO, 610 * MS, ServerTrace.HEADERS_DONE, 3 | 1L << 31 | (long) CONN << 32);
        level.event(IO, 615 * MS, ServerTrace.READ_END, 0);
        level.event(WORKER, 620 * MS, ServerTrace.SERVICE_BEGIN, CONN | 1L << 32 | 3L << 33);
        level.event(WORKER, 700 * MS, ServerTrace.SERVICE_END, 0);
        level.event(IO, 900 * MS, ServerTrace.CLOSE, CONN);
        level.flush();
        Args stats = level.statistics(new Args(), 1000 * MS);

        TraceChecks c = tr.finish();
        List<String> server = new ArrayList<>();
        List<String> lane = new ArrayList<>();
        for (TracePacket p : c.events) {
            String track = c.tracks.get(p.getTrackEvent().getTrackUuid()).getName();
            String what = describe(p);
            if (track.equals("server")) {
                server.add(what);
            } else if (track.equals("connections 1")) {
                lane.add(what);
            }
        }
        assertThat(server).as("both threads' server tracks").containsExactly("100 accept", "200 parsing", "210 end",
                "220 service", "240 service 1", "260 end", "270 end", "600 parsing 3", "610 end", "620 service 3", "700 end",
                "900 close");
        assertThat(lane).containsExactly("100 connection", "230 request 1 upgraded", "250 keep-alive idle", "600 end",
                "610 request 3", "700 keep-alive idle", "900 end", "900 end");
        assertThat(number(stats, "requestsParsed")).as("the upgrading request once").isEqualTo(2);
    }

    /**
     * Two HTTP/2 streams parsed in one read, each served on its own thread; stream 5's headers are
     * published to the reading thread's ring only after the drain read that ring, while the drain
     * still found stream 3's service end (later in time) in the worker's ring. Interpreted at once,
     * stream 3's end would find no stream in service and begin a keep-alive idle inside stream 5's;
     * held back behind the horizon, the events are interpreted in time order once stream 5's
     * headers have arrived.
     */
    @Test
    void eventsPastTheHorizonWaitForTheRingsDrainedBeforeThem() throws Exception {
        assertThat(streamsDrainedOutOfOrder(200 * MS)).as("held back: one idle, after both streams")
                .containsExactly("100 connection", "210 request 3", "215 request 5", "300 keep-alive idle", "900 end",
                        "900 end", "late 0");
        assertThat(streamsDrainedOutOfOrder(Long.MAX_VALUE)).as("interpreted at once: an idle inside stream 5's service,"
                + " and the three events behind it counted").contains("220 keep-alive idle", "late 3");
    }

    private List<String> streamsDrainedOutOfOrder(long firstHorizon) throws Exception {
        Traced tr = new Traced("late-" + firstHorizon + ".pftrace");
        ServerLevel level = tr.level;
        int worker2 = 3;
        level.event(IO, 100 * MS, ServerTrace.ACCEPT, CONN);
        level.event(IO, 200 * MS, ServerTrace.PARSE_BEGIN, CONN | 1L << 32);
        level.event(IO, 210 * MS, ServerTrace.HEADERS_DONE, 3);
        level.event(WORKER, 211 * MS, ServerTrace.SERVICE_BEGIN, CONN | 1L << 32 | 3L << 33);
        level.event(WORKER, 220 * MS, ServerTrace.SERVICE_END, 0);
        level.flush(firstHorizon); // the first drain: stream 5's headers (215 ms) not yet in the IO thread's ring
        level.event(IO, 215 * MS, ServerTrace.HEADERS_DONE, 5);
        level.event(IO, 216 * MS, ServerTrace.READ_END, 0);
        level.event(worker2, 217 * MS, ServerTrace.SERVICE_BEGIN, CONN | 1L << 32 | 5L << 33);
        level.event(worker2, 300 * MS, ServerTrace.SERVICE_END, 0);
        level.event(IO, 900 * MS, ServerTrace.CLOSE, CONN);
        level.flush();
        Args stats = level.statistics(new Args(), 1000 * MS);
        TraceChecks c = tr.finish();
        List<String> lane = new ArrayList<>();
        for (TracePacket p : c.events) {
            if (c.tracks.get(p.getTrackEvent().getTrackUuid()).getName().equals("connections 1")) {
                lane.add(describe(p));
            }
        }
        lane.add("late " + number(stats, "serverEventsLate"));
        return lane;
    }

    /** A server level writing into a trace file of its own. */
    private final class Traced {
        final Path file;
        final PerfettoWriter writer;
        final Timeline timeline;
        final ServerLevel level;

        Traced(String name) throws java.io.IOException {
            file = dir.resolve(name);
            writer = new PerfettoWriter(file, 1 << 20, 4096);
            timeline = new Timeline(writer, 100, "p", null, 0, 0, 1000);
            level = new ServerLevel(timeline);
        }

        /** Everything written, the file closed and read back. */
        TraceChecks finish() throws Exception {
            timeline.flush(Long.MAX_VALUE);
            writer.close();
            return TraceChecks.read(file).valid();
        }
    }

    /** "ms name [stream] [upgraded]", or "ms end" for a slice's end. */
    private static String describe(TracePacket p) {
        TrackEvent e = p.getTrackEvent();
        return p.getTimestamp() / MS + " " + (e.getType() == TrackEvent.Type.TYPE_SLICE_END ? "end" : e.getName())
                + (arg(e, "stream") < 0 ? "" : " " + arg(e, "stream"))
                + (e.getDebugAnnotationsList().stream().anyMatch(a -> a.getName().equals("upgradedFrom")) ? " upgraded" : "");
    }

    private static long arg(TrackEvent e, String name) {
        return e.getDebugAnnotationsList().stream().filter(a -> a.getName().equals(name))
                .mapToLong(DebugAnnotation::getIntValue).findFirst().orElse(-1);
    }

    private static long number(Args a, String name) {
        for (int i = 0; i < a.size(); i++) {
            if (a.name(i).equals(name)) {
                return a.number(i);
            }
        }
        throw new AssertionError("no " + name);
    }

    private static long conn(TrackEvent e) {
        return e.getDebugAnnotationsList().stream().filter(a -> a.getName().equals("conn"))
                .mapToLong(DebugAnnotation::getIntValue).findFirst().orElse(-1);
    }
}
