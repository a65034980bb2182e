package io.qosweaver.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.testing.TestServer.Reply;
import io.qosweaver.bench.testing.TestServer;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The driver against a real embedded Jetty: counts, rate, histograms, errors. No absolute timings asserted. */
class LoadDriverTest {
    static TestServer server;
    static final AtomicLong slowCalls = new AtomicLong();

    @BeforeAll
    static void start() throws Exception {
        server = new TestServer()
                .route("/fast", q -> Reply.ok("fast"))
                .route("/slow", q -> new Reply(200, "text/plain", "slow", 30))
                .route("/fail", q -> new Reply(503, "text/plain", "down", 0))
                .route("/mixed", q -> q != null && q.contains("n=0") ? new Reply(500, "text/plain", "x", 0)
                        : Reply.ok("ok"))
                .route("/echo", q -> Reply.ok(q == null ? "" : q))
                .route("/gate", q -> {
                    gateEntered.countDown();
                    try {
                        gate.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return new Reply(200, "text/plain", "through", 0);
                })
                .routeExchange("/upload", e -> {
                    uploads.add(e.method() + " " + e.contentType() + " " + e.body().length + " "
                            + java.util.Arrays.hashCode(e.body()));
                    return Reply.ok("stored");
                });
    }

    static final java.util.concurrent.CountDownLatch gateEntered = new java.util.concurrent.CountDownLatch(1);
    static final java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
    static final java.util.Set<String> uploads = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @Test
    void closedLoopClientsEachWaitForTheirResponse() throws Exception {
        long before = server.count("/slow");
        LoadResult r = new LoadDriver().run(List.of(LoadSpec.closed("slow", 4, LoadSpec.Targets.fixed(
                server.uri("/slow")))), Duration.ZERO, Duration.ofMillis(1200), false);
        long served = server.count("/slow") - before;
        ClassResult c = r.get("slow");
        assertThat(c.requests()).isPositive();
        assertThat(c.errors()).isZero();
        // every recorded response was served; at most one request per client was still in flight at the end
        assertThat(served).isBetween(c.requests(), c.requests() + 4);
        // the handler sleeps 30 ms, so no latency can be lower (a lower bound, not a timing claim)
        assertThat(c.p50Ms()).isGreaterThanOrEqualTo(30.0);
        assertThat(c.maxMs()).isGreaterThanOrEqualTo(c.p99Ms()).isGreaterThanOrEqualTo(c.p50Ms());
        assertThat(c.throughputPerS()).isCloseTo(c.requests() / r.windowSeconds(), org.assertj.core.data.Percentage.withPercentage(1));
        assertThat(c.mode()).isEqualTo("closed");
        assertThat(c.clients()).isEqualTo(4);
    }

    @Test
    void closedLoopIsBoundedByItsClients() throws Exception {
        // 2 clients on a 30 ms handler: each client has one request outstanding at most, so the
        // count cannot exceed clients * window / service time (plus one each)
        LoadResult r = new LoadDriver().run(List.of(LoadSpec.closed("slow", 2, LoadSpec.Targets.fixed(
                server.uri("/slow")))), Duration.ZERO, Duration.ofMillis(900), false);
        assertThat(r.get("slow").requests()).isLessThanOrEqualTo((long) (2 * (r.windowSeconds() * 1000 / 30) + 2));
    }

    @Test
    void thinkTimeSlowsAClosedLoop() throws Exception {
        LoadSpec thinking = LoadSpec.closed("think", 1, LoadSpec.Targets.fixed(server.uri("/fast")))
                .withThinkTime(Duration.ofMillis(100));
        LoadResult r = new LoadDriver().run(List.of(thinking), Duration.ZERO, Duration.ofMillis(1000), false);
        // one client thinking 100 ms between requests: at most about 10 + 1 in a second
        assertThat(r.get("think").requests()).isBetween(1L, (long) (r.windowSeconds() * 10) + 2);
    }

    @Test
    void openLoopKeepsItsRateWhateverTheServerDoes() throws Exception {
        LoadSpec open = LoadSpec.open("open", 40, 100, LoadSpec.Targets.fixed(server.uri("/slow")));
        LoadResult r = new LoadDriver().run(List.of(open), Duration.ZERO, Duration.ofMillis(2000), true);
        ClassResult c = r.get("open");
        double expected = 40 * r.windowSeconds();
        // pacing is by intended start time: the count follows the rate, not the server (wide band: shared CPUs)
        assertThat((double) c.requests() + c.errors()).isBetween(expected * 0.6, expected * 1.3);
        assertThat(c.targetRatePerS()).isEqualTo(40.0);
        assertThat(c.mode()).isEqualTo("open");
        assertThat(c.p50Ms()).isGreaterThanOrEqualTo(30.0);
        assertThat(r.timeSeries()).isNotEmpty().allSatisfy(s -> assertThat(s.name()).isEqualTo("open"));
    }

    @Test
    void aSocketOpenLoopKeepsItsRateOnItsOwnThreadsAndSendsTheBody() throws Exception {
        long before = server.count("/upload");
        byte[] doc = "<html>a page</html>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        LoadSpec open = LoadSpec.open("sock", 40, 100, LoadSpec.Targets.fixed(server.uri("/upload")))
                .withBody(LoadSpec.Body.of("PUT", doc, "text/html")).withTransport(LoadSpec.Transport.SOCKET);
        assertThat(open.socketThreads()).isEqualTo(40);
        LoadResult r = new LoadDriver().run(List.of(open), Duration.ZERO, Duration.ofMillis(2000), false);
        ClassResult c = r.get("sock");
        double expected = 40 * r.windowSeconds();
        assertThat((double) c.requests()).isBetween(expected * 0.6, expected * 1.3);
        assertThat(c.errors()).isZero();
        assertThat(server.count("/upload") - before).isGreaterThanOrEqualTo(c.requests());
        assertThat(uploads).contains("PUT text/html " + doc.length + " " + java.util.Arrays.hashCode(doc));
    }

    @Test
    void aSlowServerMakesASocketOpenLoopSendLateAndTheLatencyShowsIt() throws Exception {
        // 4 threads at 100/s on a 30 ms handler: each thread's next request is due every 40 ms but
        // takes 30 ms plus; none is dropped, and the latencies from the intended start grow past 30 ms
        LoadSpec open = LoadSpec.open("late", 100, 4, LoadSpec.Targets.fixed(server.uri("/slow")))
                .withTransport(LoadSpec.Transport.SOCKET);
        assertThat(open.socketThreads()).isEqualTo(4);
        LoadResult r = new LoadDriver().run(List.of(open), Duration.ZERO, Duration.ofMillis(1000), false);
        ClassResult c = r.get("late");
        assertThat(c.errorKinds()).doesNotContainKey("overflow");
        assertThat(c.p50Ms()).isGreaterThanOrEqualTo(30.0);
        // 4 connections, each at most one request per 30 ms
        assertThat(c.requests()).isLessThanOrEqualTo((long) (4 * (r.windowSeconds() * 1000 / 30) + 4));
    }

    @Test
    void everySendingThreadRunsTheSenderSetupAndNoOtherThreadDoes() throws Exception {
        java.util.Set<String> ran = java.util.concurrent.ConcurrentHashMap.newKeySet();
        LoadDriver d = new LoadDriver().withSenderSetup(() -> {
            ran.add(Thread.currentThread().getName());
        });
        LoadResult r = d.run(List.of(
                LoadSpec.open("sock", 40, 3, LoadSpec.Targets.fixed(server.uri("/echo"))).withTransport(
                        LoadSpec.Transport.SOCKET),
                LoadSpec.closed("loop", 2, LoadSpec.Targets.fixed(server.uri("/fast"))),
                LoadSpec.open("jdk", 20, 5, LoadSpec.Targets.fixed(server.uri("/fast")))),
                Duration.ZERO, Duration.ofMillis(500), false);
        assertThat(r.get("sock").requests()).isPositive();
        // the socket senders, the closed-loop clients and the JDK client's pacer; not the sampler
        assertThat(ran).containsExactlyInAnyOrder("load-sock-0", "load-sock-1", "load-sock-2", "load-loop-0",
                "load-loop-1", "load-jdk-pacer");
    }

    @Test
    void aSocketOpenLoopCountsErrorsAndRefusedConnectionsWithoutSpinning() throws Exception {
        LoadResult r = new LoadDriver().run(List.of(LoadSpec.open("fail", 20, 10,
                LoadSpec.Targets.fixed(server.uri("/fail"))).withTransport(LoadSpec.Transport.SOCKET)),
                Duration.ZERO, Duration.ofMillis(600), false);
        assertThat(r.get("fail").errorKinds()).containsOnlyKeys("status 503");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        URI dead = URI.create("http://127.0.0.1:" + port + "/");
        LoadResult d = new LoadDriver().run(List.of(LoadSpec.open("dead", 20, 10, LoadSpec.Targets.fixed(dead))
                .withTransport(LoadSpec.Transport.SOCKET)), Duration.ZERO, Duration.ofMillis(500), false);
        assertThat(d.get("dead").errorKinds()).containsOnlyKeys("ConnectException");
        // paced: one attempt per intended start, not a retry loop
        assertThat(d.get("dead").errors()).isLessThanOrEqualTo((long) (20 * d.windowSeconds()) + 10);
    }

    @Test
    void openLoopCountsRequestsThatCouldNotStartAsOverflow() throws Exception {
        // at most 1 in flight, 100/s on a 30 ms handler: most starts find the slot taken
        LoadSpec open = LoadSpec.open("tight", 100, 1, LoadSpec.Targets.fixed(server.uri("/slow")));
        LoadResult r = new LoadDriver().run(List.of(open), Duration.ZERO, Duration.ofMillis(800), false);
        assertThat(r.get("tight").errorKinds()).containsKey("overflow");
    }

    @Test
    void errorsAreCountedPerClassAndKindAndKeptOutOfTheHistogram() throws Exception {
        LoadResult r = new LoadDriver().run(List.of(
                        LoadSpec.closed("fail", 2, LoadSpec.Targets.fixed(server.uri("/fail"))),
                        LoadSpec.closed("fast", 1, LoadSpec.Targets.fixed(server.uri("/fast")))),
                Duration.ZERO, Duration.ofMillis(600), false);
        ClassResult fail = r.get("fail");
        assertThat(fail.errors()).isPositive();
        assertThat(fail.requests()).isZero();
        assertThat(fail.p50Ms()).isNull();
        assertThat(fail.errorKinds()).containsOnlyKeys("status 503");
        // each refusal makes its client wait 100 ms (no Retry-After): 2 clients, 600 ms, at most 7 each
        assertThat(fail.errors()).isLessThanOrEqualTo(14);
        assertThat(r.get("fast").errors()).isZero();
        assertThat(r.get("fast").requests()).isPositive();
        assertThat(r.classes().keySet()).containsExactly("fail", "fast");
    }

    @Test
    void targetsSeeASequenceNumber() throws Exception {
        LoadSpec mixed = LoadSpec.closed("mixed", 1, seq -> server.uri("/mixed?n=" + (seq % 2)));
        LoadResult r = new LoadDriver().run(List.of(mixed), Duration.ZERO, Duration.ofMillis(600), false);
        ClassResult c = r.get("mixed");
        assertThat(c.errors()).isPositive();
        assertThat(c.requests()).isPositive();
        assertThat(Math.abs(c.errors() - c.requests())).isLessThanOrEqualTo(1);
    }

    @Test
    void aRefusedConnectionIsAnError() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        URI dead = URI.create("http://127.0.0.1:" + port + "/");
        LoadResult r = new LoadDriver().run(List.of(LoadSpec.closed("dead", 1, LoadSpec.Targets.fixed(dead))),
                Duration.ZERO, Duration.ofMillis(300), false);
        assertThat(r.get("dead").errors()).isPositive();
        assertThat(r.get("dead").errorKinds()).containsKey("ConnectException");
    }

    @Test
    void beginWindowDiscardsTheWarmUp() throws Exception {
        try (LoadRun run = new LoadDriver().start(List.of(LoadSpec.closed("fast", 2,
                LoadSpec.Targets.fixed(server.uri("/fast")))), true)) {
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> run.endWindow().get("fast").requests() > 0);
            LoadResult warm = run.endWindow();
            run.beginWindow();
            LoadResult empty = run.endWindow();
            assertThat(warm.get("fast").requests()).isPositive();
            assertThat(empty.get("fast").requests()).isLessThan(warm.get("fast").requests());
            assertThat(empty.timeSeries()).isEmpty();
        }
    }

    /**
     * A closed loop's request queued during the warm-up and answered in the window counts in the
     * window's throughput but not in its latencies (it would carry the warm-up's queueing into
     * the window's tail). The gate holds the one request across the window's start.
     */
    @Test
    void aRequestIssuedBeforeTheWindowCountsButHasNoLatencyInIt() throws Exception {
        try (LoadRun run = new LoadDriver().start(List.of(LoadSpec.closed("gated", 1,
                LoadSpec.Targets.fixed(server.uri("/gate")))), true)) {
            assertThat(gateEntered.await(20, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            run.beginWindow();
            Thread.sleep(300);
            gate.countDown(); // from now on /gate answers at once: the next requests are issued in the window
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20))
                    .until(() -> run.endWindow().get("gated").requests() > 5);
            ClassResult c = run.endWindow().get("gated");
            assertThat(c.issuedBeforeWindow()).isEqualTo(1);
            // the held request took at least 300 ms; every latency recorded is of a later, quick one
            assertThat(c.maxMs()).isLessThan(300.0);
            assertThat(c.requests()).isGreaterThan(5);
        }
    }

    @Test
    void specsAreValidated() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoadSpec.closed("x", 0,
                        LoadSpec.Targets.fixed(server.uri("/"))))
                .hasMessageContaining("clients");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoadSpec.open("x", 0, 1,
                        LoadSpec.Targets.fixed(server.uri("/"))))
                .hasMessageContaining("ratePerSecond");
    }

    @Test
    void everyRequestOfAClassSendsItsMethodAndBodyInBothLoops() throws Exception {
        byte[] doc = new byte[200_000];
        new java.util.Random(7).nextBytes(doc);
        uploads.clear();
        LoadSpec put = LoadSpec.closed("put", 2, LoadSpec.Targets.fixed(server.uri("/upload")))
                .withBody(LoadSpec.Body.of("PUT", doc, "application/pdf"));
        LoadSpec post = LoadSpec.open("post", 50, 10, LoadSpec.Targets.fixed(server.uri("/upload")))
                .withBody(LoadSpec.Body.of("post", "tiny".getBytes(), "text/plain"));
        LoadResult r = new LoadDriver().run(List.of(put, post), Duration.ZERO, Duration.ofMillis(800), false);
        assertThat(r.get("put").requests()).isPositive();
        assertThat(r.get("post").requests()).isPositive();
        assertThat(r.get("put").errors()).as("%s", r.get("put").errorKinds()).isZero();
        // an open-loop start that found 10 requests in flight is refused by the driver ("overflow"),
        // which a loaded machine causes; it sends nothing, so it says nothing about bodies
        assertThat(r.get("post").errorKinds()).as("%s", r.get("post").errorKinds())
                .satisfiesAnyOf(k -> assertThat(k).isEmpty(), k -> assertThat(k).containsOnlyKeys("overflow"));
        // one distinct request per class: the whole body every time, nothing else
        assertThat(uploads).containsExactlyInAnyOrder(
                "PUT application/pdf 200000 " + java.util.Arrays.hashCode(doc),
                "POST text/plain 4 " + java.util.Arrays.hashCode("tiny".getBytes()));
    }

    @Test
    void aGetStaysABodilessGet() throws Exception {
        uploads.clear();
        LoadSpec get = LoadSpec.closed("get", 1, LoadSpec.Targets.fixed(server.uri("/upload")));
        assertThat(get.body()).isSameAs(LoadSpec.Body.NONE);
        new LoadDriver().run(List.of(get), Duration.ZERO, Duration.ofMillis(200), false);
        assertThat(uploads).containsExactly("GET null 0 1");
    }

    @Test
    void aBodyIsCheckedWithWhatIsWrong() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoadSpec.Body.of("DELETE", new byte[1], "text/plain"))
                .hasMessage("method: GET, PUT or POST, got 'DELETE'");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoadSpec.Body.of("PUT", new byte[1], " "))
                .hasMessage("PUT needs a content type for its body");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LoadSpec.Body.of("GET", new byte[1], null))
                .hasMessage("a GET sends no body, got 1 bytes");
        assertThat(LoadSpec.Body.of("put", new byte[3], "text/plain")).hasToString("PUT 3 bytes of text/plain");
    }
}
