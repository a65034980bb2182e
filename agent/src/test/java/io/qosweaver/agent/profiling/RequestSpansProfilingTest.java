package io.qosweaver.agent.profiling;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.agent.bootstrap.CallProbe;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.pointcuts.BinaryProfileFormat;
import io.qosweaver.pointcuts.BinaryProfileReader;
import io.qosweaver.pointcuts.SlotProfile;
import io.qosweaver.testtargets.profiled.Calls;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The profiling mode marks where a server's thread handles a request: Jetty 12 in-process. */
class RequestSpansProfilingTest {
    @TempDir
    Path dir;

    @Test
    void aServerThreadsRequestsAreSpansAndAThreadOutsideAnyRequestIsLeftOut() throws Exception {
        Server server = new Server();
        ServerConnector c = new ServerConnector(server, 1, 1);
        c.setHost("127.0.0.1");
        c.setPort(0);
        server.addConnector(c);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                new Calls().run(1000);
                response.setStatus(200);
                callback.succeeded();
                return true;
            }
        });
        server.start();
        Path file = dir.resolve("spans.qwp");
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        ProfilingSession profiling = ProfilingSession.start(
                ProfilingArgs.parse("profile=" + file + ",include=io.qosweaver.testtargets.profiled,probeCost=none"),
                ByteBuddyAgent.install(), new AgentLog(new PrintStream(logged, true, StandardCharsets.UTF_8), false));
        try {
            HttpClient http = HttpClient.newHttpClient();
            URI uri = URI.create("http://127.0.0.1:" + c.getLocalPort() + "/");
            for (int i = 0; i < 2; i++) {
                assertThat(http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
            }
            new Calls().run(500); // this thread handles no request
            profiling.stop();
        } finally {
            profiling.close();
            server.stop();
        }

        List<long[]> spans = new ArrayList<>();
        BinaryProfileReader.Summary s = readSpans(file, spans);
        assertThat(spans).as(logged.toString(StandardCharsets.UTF_8)).hasSize(2);
        assertThat(s.meta().get(BinaryProfileFormat.REQUEST_SPANS)).startsWith("2 requests");

        SlotProfile p = SlotProfile.read(List.of(file), 1_000_000);
        assertThat(p.requestSpans()).isEqualTo(2);
        assertThat(p.timelinesOutsideRequests()).as("the test's thread").isEqualTo(1);
        // new Calls().run(n): 5n calls, valueOf, intValue and the constructor's super(); n = 1000 in each request
        assertThat(p.joinPoints()).isEqualTo(2 * 5003);
        assertThat(p.joinPointsOutsideRequests()).isEqualTo(2503);
        assertThat(p.joinPoints() + p.joinPointsOutsideRequests()).isEqualTo(s.joinPoints());
    }

    /**
     * A servlet inside Jetty enters twice: one span; a request still open when the recording
     * stops (the server returns just after the client has its response) ends at the thread's
     * last join point instead of being lost.
     */
    @Test
    void nestedEntriesAreOneSpanAndARequestOpenAtTheStopIsKept() throws Exception {
        Path file = dir.resolve("nested.qwp");
        ProfilingSession profiling = ProfilingSession.start(
                ProfilingArgs.parse("profile=" + file + ",include=io.qosweaver.testtargets.profiled,probeCost=none"),
                ByteBuddyAgent.install(), new AgentLog(new PrintStream(new ByteArrayOutputStream(), true,
                        StandardCharsets.UTF_8), false));
        try {
            CallProbe.requestBegin();
            CallProbe.requestBegin();
            new Calls().run(100);
            CallProbe.requestEnd();
            new Calls().run(100);
            CallProbe.requestEnd();
            Thread.sleep(3); // the base slots of 1 ms around the wait hold no request
            new Calls().run(50); // between the requests
            Thread.sleep(3);
            CallProbe.requestBegin();
            new Calls().run(200);
            profiling.stop();
        } finally {
            profiling.close();
        }
        List<long[]> spans = new ArrayList<>();
        readSpans(file, spans);
        assertThat(spans).hasSize(2);
        assertThat(spans.get(0)[0]).isEqualTo(spans.get(1)[0]);
        SlotProfile p = SlotProfile.read(List.of(file), 1_000_000);
        assertThat(p.requestSpans()).isEqualTo(2);
        // new Calls().run(n): 5n calls, valueOf, intValue and the constructor's super()
        assertThat(p.joinPoints()).isEqualTo(503 + 503 + 1003);
        assertThat(p.joinPointsOutsideRequests()).isEqualTo(253);
    }

    private static BinaryProfileReader.Summary readSpans(Path file, List<long[]> spans) throws Exception {
        return BinaryProfileReader.readSlots(file, new BinaryProfileReader.SlotTarget() {
            @Override
            public void span(int timeline, long startNanos, long endNanos) {
                spans.add(new long[] {timeline, startNanos, endNanos});
            }
        });
    }
}
