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
        Path f = dir.resolve("s.pftrace");
        PerfettoWriter w = new PerfettoWriter(f, 1 << 20, 4096);
        Timeline t = new Timeline(w, 100, "p", null, 0, 0, 1000);
        t.nameThread(IO, "io");
        t.nameThread(WORKER, "worker");
        ServerLevel level = new ServerLevel(t);
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
        t.flush(Long.MAX_VALUE);
        w.close();

        TraceChecks c = TraceChecks.read(f).valid();
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
