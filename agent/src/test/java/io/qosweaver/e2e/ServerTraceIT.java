package io.qosweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qosweaver.trace.TraceChecks;
import io.qosweaver.trace.stats.PageData;
import java.io.File;
import java.io.FileInputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.api.Session;
import org.eclipse.jetty.http2.api.Stream;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import perfetto.protos.DebugAnnotationOuterClass.DebugAnnotation;
import perfetto.protos.TracePacketOuterClass.TracePacket;
import perfetto.protos.TrackDescriptorOuterClass.TrackDescriptor;
import perfetto.protos.TrackEventOuterClass.TrackEvent;

/**
 * The trace's server level and user events in child JVMs running real servers under
 * {@code -javaagent:...=trace=...}, each on plain HTTP and HTTPS (a self-signed key store made by
 * keytool; a second client on the same SSLContext resumes the first one's session): Jetty 12,
 * Jetty 9.4, 10 and 11, Tomcat 11, 10.1 and 9.0 (NIO and NIO2, JSSE) and Undertow 2; and HTTP/2
 * on Jetty 12 (h2c by prior knowledge and by {@code Upgrade: h2c}, and h2 over TLS), Tomcat 11
 * and 10.1 and Undertow 2 (h2c by {@code Upgrade: h2c}, and h2 over TLS). The trace is read back with Perfetto's schema.
 */
class ServerTraceIT {
    private static final Pattern PORTS = Pattern.compile("PORTS http=(\\d+)(?: https=(\\d+))?");
    private static final long IDLE_MS = 300;

    @TempDir
    Path dir;
    /** Lives as long as the class: the key store every TLS test shares. */
    @TempDir
    static Path classDir;
    private static Path keyStore;
    private ChildJvms jvms;

    @AfterEach
    void stop() {
        if (jvms != null) {
            jvms.stopAll();
        }
    }

    /** Jetty, the API and the test classes. */
    private static String jettyClassPath() {
        return ChildJvms.appClassPath() + File.pathSeparator + Arrays.stream(System.getProperty("java.class.path")
                .split(File.pathSeparator)).filter(e -> e.contains("qosweaver-api") || e.endsWith("api/target/classes"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    /**
     * A self-signed EC key pair for 127.0.0.1 in a PKCS12 key store (password changeit, alias server), made once
     * for the class: keytool is a JVM of its own, about a second on two cores.
     */
    private static synchronized Path keyStore() throws Exception {
        if (keyStore != null) {
            return keyStore;
        }
        Path ks = classDir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
                "-ext", "san=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12", "-keystore",
                ks.toString(), "-storepass", "changeit", "-keypass", "changeit").inheritIO().start();
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0).as("keytool made the key store").isTrue();
        keyStore = ks;
        return ks;
    }

    @Test
    void jettyConnectionsHandshakesRequestPhasesAndUserEventsAreTraced() throws Exception {
        Path ks = keyStore();
        Path policy = Files.writeString(dir.resolve("trace.yaml"), """
                taskClasses:
                  - name: unused
                    entry: execution(void io.qosweaver.e2e.E2eServerTraceApp.never())
                    importance: high
                policy:
                  name: importance
                  lowLimit: 1
                trace:
                  events:
                    - execution(int io.qosweaver.e2e.E2eServerTraceApp.work())
                """);
        Path out = dir.resolve("jetty.pftrace");
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "trace=" + out + ",policy=" + policy, jettyClassPath(),
                E2eServerTraceApp.class.getName(), ks.toString(), "changeit");
        Matcher ports = awaitPorts(c);
        int http = Integer.parseInt(ports.group(1));
        int https = Integer.parseInt(ports.group(2));

        // plain: two requests on one kept-alive connection, IDLE_MS apart
        HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        get(plain, "http://127.0.0.1:" + http + "/a");
        Thread.sleep(IDLE_MS);
        get(plain, "http://127.0.0.1:" + http + "/b");
        // TLS: a full handshake, then a second client on the same SSLContext resumes its session
        SSLContext ssl = trusting(ks);
        get(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl).build(),
                "https://127.0.0.1:" + https + "/c");
        Thread.sleep(200);
        get(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl).build(),
                "https://127.0.0.1:" + https + "/d");
        awaitIdleClosed(http, https);
        TraceChecks t = finish(c, out);

        Map<Long, Integer> accepts = connsOf(t, "accept");
        Map<Long, Integer> closes = connsOf(t, "close");
        assertThat(accepts).as("a plain and two TLS connections accepted").hasSizeGreaterThanOrEqualTo(3);
        assertThat(closes.keySet()).as("each accepted connection closed").containsAll(accepts.keySet());
        List<TrackEvent> handshakes = named(t, "TLS handshake ends");
        assertThat(handshakes).extracting(e -> string(e, "handshake")).as("full, then resumed").containsExactly("full", "resumed");
        assertThat(accepts.keySet()).as("the handshakes are of accepted connections")
                .contains(number(handshakes.get(0), "conn"), number(handshakes.get(1), "conn"));
        assertThat(named(t, "TLS handshake").stream().filter(e -> e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN))
                .as("a handshake slice on each TLS connection's lane").hasSize(2);

        int services = checkParsingThenService(t);
        assertThat(services).as("four requests served").isEqualTo(4);
        checkKeepAliveIdle(t);

        // user events: the policy file's work() and the API's span and instant, inside the service on its thread
        Map<Integer, List<long[]>> serviceByTid = sliceTimes(t, "server", "service");
        for (String name : List.of("io.qosweaver.e2e.E2eServerTraceApp.work", "respond", "handled")) {
            List<TracePacket> ev = t.events.stream().filter(p -> name.equals(p.getTrackEvent().getName())).collect(Collectors.toList());
            assertThat(ev).as("user event %s, one per request", name).hasSize(4);
            for (TracePacket p : ev) {
                TrackDescriptor d = t.tracks.get(p.getTrackEvent().getTrackUuid());
                assertThat(d.getName()).isEqualTo("user events");
                int tid = t.tracks.get(d.getParentUuid()).getThread().getTid();
                assertThat(serviceByTid.getOrDefault(tid, List.of())).as("%s inside a service on tid %s", name, tid)
                        .anyMatch(s -> s[0] <= p.getTimestamp() && p.getTimestamp() <= s[1]);
            }
        }
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(stats.getName()).isEqualTo("trace statistics");
        assertThat(number(stats, "tlsHandshakesFull")).isEqualTo(1);
        assertThat(number(stats, "tlsHandshakesResumed")).isEqualTo(1);
        assertThat(number(stats, "requestsParsed")).isEqualTo(4);
        assertThat(number(stats, "keepAliveIdleMs")).isGreaterThanOrEqualTo(IDLE_MS - 50);

        PageData page = PageData.read(dir.resolve("jetty.html"));
        assertThat(page.threads.values()).as("a thread row with service and parsing columns")
                .anyMatch(r -> r.totalUs("server:service") > 0 && r.totalUs("server:parsing") > 0);
        assertThat(page.threads.values()).as("a thread row with the user events' column")
                .anyMatch(r -> r.totalUs("user:respond") > 0);
    }

    /**
     * HTTP/2 on Jetty 12 (h2c, prior knowledge, Jetty's own HTTP/2 client in this JVM): three
     * streams sent together on one connection, then a fourth IDLE_MS after they completed. Each
     * stream is a parsing and a service slice of its connection and stream id; the three are
     * served at once on distinct threads; the connection's lane shows the four requests, and its
     * keep-alive idle runs from the last concurrent stream's service end to the fourth's read.
     */
    @Test
    void jettyHttp2StreamsAreParsedAndServedAsRequestsOfOneConnection() throws Exception {
        Path out = dir.resolve("jetty-h2.pftrace");
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "trace=" + out, jettyClassPath(), E2eHttp2TraceApp.class.getName());
        int port = Integer.parseInt(awaitPorts(c).group(1));
        HTTP2Client client = new HTTP2Client();
        client.start();
        try {
            Session session = client.connect(new InetSocketAddress("127.0.0.1", port), new Session.Listener() {})
                    .get(20, TimeUnit.SECONDS);
            List<CompletableFuture<Integer>> together = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                together.add(h2Get(session, port, "/s" + i));
            }
            for (CompletableFuture<Integer> f : together) {
                assertThat(f.get(20, TimeUnit.SECONDS)).isEqualTo(200);
            }
            Thread.sleep(IDLE_MS);
            assertThat(h2Get(session, port, "/late").get(20, TimeUnit.SECONDS)).isEqualTo(200);
            awaitIdleClosed(port);
        } finally {
            client.stop();
        }
        TraceChecks t = finish(c, out);

        Map<Long, Integer> accepts = connsOf(t, "accept");
        assertThat(accepts).as("one connection").hasSize(1);
        long conn = accepts.keySet().iterator().next();
        assertThat(connsOf(t, "close")).containsOnlyKeys(conn);
        Set<Long> streams = Set.of(1L, 3L, 5L, 7L); // a client's streams are odd, in order
        List<TracePacket> requests = t.events.stream().filter(p -> "request".equals(p.getTrackEvent().getName()))
                .collect(Collectors.toList());
        assertThat(requests).extracting(p -> number(p.getTrackEvent(), "stream")).as("a request per stream")
                .containsExactlyInAnyOrderElementsOf(streams);
        assertThat(requests).extracting(p -> number(p.getTrackEvent(), "conn")).containsOnly(conn);
        assertThat(requests).extracting(p -> t.tracks.get(p.getTrackEvent().getTrackUuid()).getName())
                .as("on one connection lane").containsOnly("connections 1");

        // begin, end, tid of each stream's parsing and service
        Map<List<Long>, long[]> parsing = streamSlices(t, "parsing");
        Map<List<Long>, long[]> service = streamSlices(t, "service");
        Set<List<Long>> keys = streams.stream().map(s -> List.of(conn, s)).collect(Collectors.toSet());
        assertThat(parsing.keySet()).as("a parsing slice per stream").isEqualTo(keys);
        assertThat(service.keySet()).as("a service slice per stream").isEqualTo(keys);
        checkStreamPhases(parsing, service);
        long[] s1 = service.get(List.of(conn, 1L));
        long[] s3 = service.get(List.of(conn, 3L));
        long[] s5 = service.get(List.of(conn, 5L));
        assertThat(Set.of(s1[2], s3[2], s5[2])).as("the three streams sent together served on distinct threads").hasSize(3);
        long latestBegin = Math.max(s1[0], Math.max(s3[0], s5[0]));
        long earliestEnd = Math.min(s1[1], Math.min(s3[1], s5[1]));
        assertThat(latestBegin).as("and at once").isLessThan(earliestEnd);
        long lastEnd = Math.max(s1[1], Math.max(s3[1], s5[1]));
        checkKeepAliveIdle(t);
        List<TrackEvent> idles = named(t, "keep-alive idle");
        assertThat(t.events.stream().filter(p -> "keep-alive idle".equals(p.getTrackEvent().getName()))
                .map(TracePacket::getTimestamp)).as("idle only once no stream is in service, %s", idles)
                .allMatch(ts -> ts >= lastEnd);
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(number(stats, "requestsParsed")).isEqualTo(4);
        assertThat(number(stats, "connectionsAccepted")).isEqualTo(1);
    }

    /**
     * HTTP/2 over TLS on Jetty 12 (negotiated by ALPN, the JDK's client): one request, then two at
     * once on the same connection; a second client on the same SSLContext resumes the session for
     * a fourth. A full then a resumed handshake; each stream parsed and served as on h2c, on its
     * connection.
     */
    @Test
    void jettyHttp2OverTlsHandshakesAndStreamsAreTraced() throws Exception {
        Path ks = keyStore();
        Path out = dir.resolve("jetty-h2-tls.pftrace");
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "trace=" + out, jettyClassPath(), E2eHttp2TraceApp.class.getName(),
                ks.toString(), "changeit");
        int https = Integer.parseInt(awaitPorts(c).group(2));
        String base = "https://127.0.0.1:" + https;
        SSLContext ssl = trusting(ks);
        HttpClient first = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(ssl).build();
        assertThat(first.send(h2Request(base + "/a"), HttpResponse.BodyHandlers.ofString()).version())
                .isEqualTo(HttpClient.Version.HTTP_2);
        List<CompletableFuture<HttpResponse<String>>> together = new ArrayList<>();
        for (String path : List.of("/b", "/c")) {
            together.add(first.sendAsync(h2Request(base + path), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> f : together) {
            assertThat(f.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        Thread.sleep(200);
        HttpClient second = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(ssl).build();
        HttpResponse<String> last = second.send(h2Request(base + "/d"), HttpResponse.BodyHandlers.ofString());
        assertThat(last.version()).isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(last.statusCode()).isEqualTo(200);
        awaitIdleClosed(https);
        TraceChecks t = finish(c, out);

        Map<Long, Integer> accepts = connsOf(t, "accept");
        assertThat(accepts).as("one connection per client").hasSize(2);
        assertThat(connsOf(t, "close").keySet()).containsAll(accepts.keySet());
        List<TrackEvent> handshakes = named(t, "TLS handshake ends");
        assertThat(handshakes).extracting(e -> string(e, "handshake")).as("full, then resumed").containsExactly("full", "resumed");
        long firstConn = number(handshakes.get(0), "conn");
        long secondConn = number(handshakes.get(1), "conn");
        assertThat(accepts.keySet()).containsExactlyInAnyOrder(firstConn, secondConn);
        Map<List<Long>, long[]> parsing = streamSlices(t, "parsing");
        Map<List<Long>, long[]> service = streamSlices(t, "service");
        Map<Long, Long> streamsPerConn = service.keySet().stream().collect(Collectors.groupingBy(k -> k.get(0), Collectors.counting()));
        assertThat(streamsPerConn).as("three streams on the first connection, one on the second")
                .containsOnly(Map.entry(firstConn, 3L), Map.entry(secondConn, 1L));
        assertThat(parsing.keySet()).as("a parsing slice per stream").isEqualTo(service.keySet());
        assertThat(named(t, "request")).extracting(e -> List.of(number(e, "conn"), number(e, "stream")))
                .as("a request on its connection's lane per stream").containsExactlyInAnyOrderElementsOf(service.keySet());
        checkStreamPhases(parsing, service);
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(number(stats, "tlsHandshakesFull")).isEqualTo(1);
        assertThat(number(stats, "tlsHandshakesResumed")).isEqualTo(1);
        assertThat(number(stats, "requestsParsed")).isEqualTo(4);
    }

    private static HttpRequest h2Request(String uri) {
        return HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(20)).build();
    }

    /** Each stream parsed before its service began, and served for the app's SERVICE_MS. */
    private static void checkStreamPhases(Map<List<Long>, long[]> parsing, Map<List<Long>, long[]> service) {
        for (Map.Entry<List<Long>, long[]> e : service.entrySet()) {
            assertThat(parsing.get(e.getKey())[1]).as("%s parsed before its service", e.getKey())
                    .isLessThanOrEqualTo(e.getValue()[0]);
            assertThat(e.getValue()[1] - e.getValue()[0]).as("%s's service", e.getKey())
                    .isGreaterThanOrEqualTo((E2eHttp2TraceApp.SERVICE_MS - 20) * 1_000_000L);
        }
    }

    /** A GET on a new stream of {@code session}: its response's status. */
    private static CompletableFuture<Integer> h2Get(Session session, int port, String path) {
        CompletableFuture<Integer> status = new CompletableFuture<>();
        MetaData.Request request = new MetaData.Request("GET", HttpURI.from("http://127.0.0.1:" + port + path),
                HttpVersion.HTTP_2, HttpFields.EMPTY);
        session.newStream(new HeadersFrame(request, null, true), new Stream.Listener() {
            private int code;

            @Override
            public void onHeaders(Stream stream, HeadersFrame frame) {
                if (frame.getMetaData() instanceof MetaData.Response r) {
                    code = r.getStatus();
                }
                Stream.Listener.super.onHeaders(stream, frame);
            }

            @Override
            public void onClosed(Stream stream) {
                status.complete(code);
            }
        }).whenComplete((stream, failure) -> {
            if (failure != null) {
                status.completeExceptionally(failure);
            }
        });
        return status;
    }

    /**
     * The {@code name} slices on {@code server} tracks by their connection and {@code stream} (one
     * each, checked): begin, end and tid; each also says it is HTTP/2.
     */
    private static Map<List<Long>, long[]> streamSlices(TraceChecks t, String name) {
        return streamSlices(t, name, false);
    }

    /** As above; with {@code skipHttp1}, slices without a stream (HTTP/1.1 ones) are left out rather than failing. */
    private static Map<List<Long>, long[]> streamSlices(TraceChecks t, String name, boolean skipHttp1) {
        Map<List<Long>, long[]> out = new HashMap<>();
        Map<Long, List<TracePacket>> open = new HashMap<>();
        for (TracePacket p : t.events) {
            TrackEvent e = p.getTrackEvent();
            TrackDescriptor d = t.tracks.get(e.getTrackUuid());
            if (d == null || !"server".equals(d.getName())) {
                continue;
            }
            List<TracePacket> stack = open.computeIfAbsent(e.getTrackUuid(), k -> new ArrayList<>());
            if (e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN) {
                stack.add(p);
            } else if (e.getType() == TrackEvent.Type.TYPE_SLICE_END) {
                TracePacket b = stack.remove(stack.size() - 1);
                if (name.equals(b.getTrackEvent().getName()) && !(skipHttp1 && b.getTrackEvent().getDebugAnnotationsList().stream().noneMatch(a -> a.getName().equals("stream")))) {
                    TrackEvent be = b.getTrackEvent();
                    assertThat(string(be, "protocol")).isEqualTo("HTTP/2");
                    int tid = t.tracks.get(d.getParentUuid()).getThread().getTid();
                    long[] prev = out.put(List.of(number(be, "conn"), number(be, "stream")),
                            new long[] {b.getTimestamp(), p.getTimestamp(), tid});
                    assertThat(prev).as("one %s slice of stream %d", name, number(be, "stream")).isNull();
                }
            }
        }
        return out;
    }

    /**
     * Tomcat 11 (this module's test dependency), 10.1 and 9.0 (the jars the build copied), with the
     * NIO connector and ({@code -nio2}) the NIO2 one: a servlet answers 200 on 11 and 10.1, the
     * mapper 404 on 9.0 (an app built by reflection, as 9.0 is {@code javax}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"tomcat-11", "tomcat-10", "tomcat-9", "tomcat-11-nio2", "tomcat-10-nio2", "tomcat-9-nio2"})
    void tomcatConnectionsHandshakesAndRequestPhasesAreTraced(String variant) throws Exception {
        boolean nio2 = variant.endsWith("-nio2");
        String version = nio2 ? variant.substring(0, variant.length() - "-nio2".length()) : variant;
        String protocol = nio2 ? "org.apache.coyote.http11.Http11Nio2Protocol" : "org.apache.coyote.http11.Http11NioProtocol";
        String classPath = ChildJvms.tomcatClassPath();
        if (!version.equals("tomcat-11")) {
            Path jars = Path.of(System.getProperty("qosweaver.servers", "target/servers")).resolve(version);
            assertThat(jars).as("copied by the build (pre-integration-test)").isDirectory();
            try (var files = Files.list(jars)) {
                classPath = files.map(Path::toString).collect(Collectors.joining(File.pathSeparator))
                        + File.pathSeparator + ChildJvms.testClasses();
            }
        }
        Path ks = keyStore();
        Path out = dir.resolve(variant + ".pftrace");
        jvms = new ChildJvms(dir);
        boolean javax = version.equals("tomcat-9");
        int status = javax ? 404 : 200;
        ChildJvms.Child c = jvms.start(List.of(), "trace=" + out, classPath,
                (javax ? E2eTomcatTraceAnyApp.class : E2eTomcatTraceApp.class).getName(), ks.toString(), "changeit", protocol);
        Matcher ports = awaitPorts(c);
        assertThat(c.out()).contains("VERSION=" + version.substring(version.indexOf('-') + 1) + ".")
                .contains("PROTOCOL=" + protocol);
        int http = Integer.parseInt(ports.group(1));
        int https = Integer.parseInt(ports.group(2));
        HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        get(plain, "http://127.0.0.1:" + http + "/ok", status);
        Thread.sleep(IDLE_MS);
        get(plain, "http://127.0.0.1:" + http + "/ok", status);
        // TLS: a full handshake, then a second client on the same SSLContext resumes its session
        SSLContext ssl = trusting(ks);
        get(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl).build(),
                "https://127.0.0.1:" + https + "/ok", status);
        Thread.sleep(200);
        get(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl).build(),
                "https://127.0.0.1:" + https + "/ok", status);
        awaitIdleClosed(http, https);
        TraceChecks t = finish(c, out);

        Map<Long, Integer> accepts = connsOf(t, "accept");
        assertThat(accepts).as("one kept-alive plain connection and two TLS ones").hasSize(3);
        assertThat(connsOf(t, "close").keySet()).containsAll(accepts.keySet());
        List<TrackEvent> handshakes = named(t, "TLS handshake ends");
        assertThat(handshakes).extracting(e -> string(e, "handshake")).as("full, then resumed").containsExactly("full", "resumed");
        assertThat(accepts.keySet()).as("the handshakes are of accepted connections")
                .contains(number(handshakes.get(0), "conn"), number(handshakes.get(1), "conn"));
        assertThat(connsOf(t, "TLS handshake begins").keySet()).as("each handshake began on its connection")
                .containsExactlyInAnyOrder(number(handshakes.get(0), "conn"), number(handshakes.get(1), "conn"));
        assertThat(named(t, "TLS handshake").stream().filter(e -> e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN))
                .as("a handshake slice on each TLS connection's lane").hasSize(2);
        assertThat(checkParsingThenService(t)).as("four requests served").isEqualTo(4);
        checkKeepAliveIdle(t);
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(number(stats, "tlsHandshakesFull")).isEqualTo(1);
        assertThat(number(stats, "tlsHandshakesResumed")).isEqualTo(1);
        assertThat(number(stats, "requestsParsed")).isEqualTo(4);
    }

    /**
     * HTTP/2 on Tomcat 11, 10.1 and 9.0 ({@code Http2Protocol} on the NIO and on the NIO2 connector; the
     * JDK's client; 9.0 answers the mapper's 404):
     * h2c by {@code Upgrade: h2c}, the first request becoming stream 1, then two streams at once
     * and a fourth IDLE_MS after them; and h2 over TLS (ALPN), one stream then two at once. Each
     * stream served in a service slice of its connection and stream id; each stream but the
     * upgrading one parsed in its own parsing slice (the upgrading one was parsed as HTTP/1.1);
     * a request instant per stream on its connection's lane, inside its connection; the keep-alive
     * idle only once no stream is in service.
     */
    @ParameterizedTest
    @ValueSource(strings = {"tomcat-11", "tomcat-11-nio2", "tomcat-10", "tomcat-10-nio2", "tomcat-9", "tomcat-9-nio2"})
    void tomcatHttp2StreamsAreParsedAndServedAsRequestsOfOneConnection(String variant) throws Exception {
        boolean nio2 = variant.endsWith("-nio2");
        String version = nio2 ? variant.substring(0, variant.length() - "-nio2".length()) : variant;
        String classPath = ChildJvms.tomcatClassPath();
        if (!version.equals("tomcat-11")) {
            Path jars = Path.of(System.getProperty("qosweaver.servers", "target/servers")).resolve(version);
            assertThat(jars).as("copied by the build (pre-integration-test)").isDirectory();
            try (var files = Files.list(jars)) {
                classPath = files.map(Path::toString).collect(Collectors.joining(File.pathSeparator))
                        + File.pathSeparator + ChildJvms.testClasses();
            }
        }
        Path ks = keyStore();
        Path out = dir.resolve(variant + "-h2.pftrace");
        jvms = new ChildJvms(dir);
        // Tomcat 9 (javax): the app built by reflection, every request the mapper's 404, served at once
        boolean javax = version.equals("tomcat-9");
        int status = javax ? 404 : 200;
        ChildJvms.Child c = jvms.start(List.of(), "trace=" + out, classPath,
                (javax ? E2eTomcatTraceAnyApp.class : E2eTomcatTraceApp.class).getName(), ks.toString(), "changeit",
                nio2 ? "org.apache.coyote.http11.Http11Nio2Protocol" : "HTTP/1.1", "h2");
        Matcher ports = awaitPorts(c);
        assertThat(c.out()).contains("VERSION=" + version.substring(version.indexOf('-') + 1) + ".")
                .contains("PROTOCOL=org.apache.coyote.http11.Http11" + (nio2 ? "Nio2" : "Nio") + "Protocol");
        String h2c = "http://127.0.0.1:" + ports.group(1);
        String h2 = "https://127.0.0.1:" + ports.group(2);
        HttpClient upgrading = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        assertThat(upgrading.send(h2Request(h2c + "/slow"), HttpResponse.BodyHandlers.ofString()).version())
                .as("upgraded").isEqualTo(HttpClient.Version.HTTP_2);
        sendTogether(upgrading, status, h2c + "/slow", h2c + "/slow");
        Thread.sleep(IDLE_MS);
        sendTogether(upgrading, status, h2c + "/slow");
        HttpClient tls = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(trusting(ks)).build();
        assertThat(tls.send(h2Request(h2 + "/slow"), HttpResponse.BodyHandlers.ofString()).version())
                .as("h2 by ALPN").isEqualTo(HttpClient.Version.HTTP_2);
        sendTogether(tls, status, h2 + "/slow", h2 + "/slow");
        awaitIdleClosed(Integer.parseInt(ports.group(1)), Integer.parseInt(ports.group(2)));
        TraceChecks t = finish(c, out);

        Map<Long, Integer> accepts = connsOf(t, "accept");
        assertThat(accepts).as("one connection per client").hasSize(2);
        assertThat(connsOf(t, "close").keySet()).as("each connection closed").containsAll(accepts.keySet());
        long tlsConn = number(named(t, "TLS handshake ends").get(0), "conn");
        long plainConn = accepts.keySet().stream().filter(k -> k != tlsConn).findFirst().orElseThrow();
        Map<List<Long>, long[]> parsing = streamSlices(t, "parsing", true);
        Map<List<Long>, long[]> service = streamSlices(t, "service", false);
        assertThat(service.keySet()).as("a service slice per stream, stream 1 the upgraded request").containsExactlyInAnyOrder(
                List.of(plainConn, 1L), List.of(plainConn, 3L), List.of(plainConn, 5L), List.of(plainConn, 7L),
                List.of(tlsConn, 1L), List.of(tlsConn, 3L), List.of(tlsConn, 5L));
        assertThat(parsing.keySet()).as("a parsing slice per stream parsed as HTTP/2").containsExactlyInAnyOrder(
                List.of(plainConn, 3L), List.of(plainConn, 5L), List.of(plainConn, 7L),
                List.of(tlsConn, 1L), List.of(tlsConn, 3L), List.of(tlsConn, 5L));
        Map<List<Long>, long[]> parsedAsHttp2 = new HashMap<>(service);
        parsedAsHttp2.remove(List.of(plainConn, 1L));
        if (javax) {
            parsedAsHttp2.forEach((k, v) -> assertThat(parsing.get(k)[1]).as("%s parsed before its service", k)
                    .isLessThanOrEqualTo(v[0]));
        } else {
            checkStreamPhases(parsing, parsedAsHttp2);
        }
        checkRequestsOnLanes(t, service.keySet());
        assertThat(named(t, "request").stream().filter(e -> "HTTP/1.1".equals(string(e, "upgradedFrom"))))
                .extracting(e -> List.of(number(e, "conn"), number(e, "stream"))).as("the upgraded request")
                .containsExactly(List.of(plainConn, 1L));
        checkIdleAfterStreams(t, plainConn, parsing, service);
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(number(stats, "requestsParsed")).as("the upgrading request once, as HTTP/1.1").isEqualTo(7);
    }

    /**
     * On {@code conn}, whose streams 1 (alone), 3 and 5 (together) and 7 (IDLE_MS later) were
     * served: a keep-alive idle after stream 1 and after the others, and none beginning while a
     * stream is in service, from its headers parsed (stream 1, the upgraded request: its service's
     * beginning) to its service's end. Two streams sent together need not overlap: a server that
     * answers at once can end stream 3 before it parses stream 5's headers, and the connection is
     * then idle in between.
     */
    private static void checkIdleAfterStreams(TraceChecks t, long conn, Map<List<Long>, long[]> parsing,
            Map<List<Long>, long[]> service) {
        checkKeepAliveIdle(t);
        List<Long> idles = t.events.stream().filter(p -> "keep-alive idle".equals(p.getTrackEvent().getName())
                && p.getTrackEvent().getType() == TrackEvent.Type.TYPE_SLICE_BEGIN && number(p.getTrackEvent(), "conn") == conn)
                .map(TracePacket::getTimestamp).collect(Collectors.toList());
        assertThat(idles).as("idle after stream 1's service, and after 3 and 5").hasSizeGreaterThanOrEqualTo(2);
        Map<Long, long[]> inService = new TreeMap<>();
        service.forEach((k, v) -> {
            if (k.get(0) == conn) {
                long[] parsed = parsing.get(k);
                inService.put(k.get(1), new long[] {parsed != null ? parsed[1] : v[0], v[1]});
            }
        });
        // what a failure needs to tell a late event from a wrong count of streams in service
        String seen = "; streams in service " + inService.entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue()[0] + "-" + e.getValue()[1])
                .collect(Collectors.joining(", ")) + "; idle begins " + idles;
        assertThat(idles).as("idle only once no stream is in service" + seen)
                .noneMatch(ts -> inService.values().stream().anyMatch(iv -> iv[0] < ts && ts < iv[1]));
    }

    /**
     * Jetty 12, HTTP/1.1 upgraded to HTTP/2 by {@code Upgrade: h2c} (the JDK's client): the first
     * request becomes stream 1, then two streams at once and a fourth IDLE_MS later, all on the
     * connection's lane; the upgrading request parsed (and counted) once, as HTTP/1.1, and served
     * as stream 1.
     */
    @Test
    void jettyHttp2UpgradeFromHttp11KeepsTheConnectionAndServesStreamOne() throws Exception {
        Path out = dir.resolve("jetty-h2c-upgrade.pftrace");
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "trace=" + out, jettyClassPath(), E2eHttp2TraceApp.class.getName());
        awaitPorts(c);
        Matcher port = Pattern.compile("UPGRADE port=(\\d+)").matcher(c.out());
        assertThat(port.find()).isTrue();
        String base = "http://127.0.0.1:" + port.group(1);
        HttpClient upgrading = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        assertThat(upgrading.send(h2Request(base + "/u"), HttpResponse.BodyHandlers.ofString()).version())
                .as("upgraded").isEqualTo(HttpClient.Version.HTTP_2);
        sendTogether(upgrading, base + "/a", base + "/b");
        Thread.sleep(IDLE_MS);
        sendTogether(upgrading, base + "/late");
        awaitIdleClosed(Integer.parseInt(port.group(1)));
        TraceChecks t = finish(c, out);

        Map<Long, Integer> accepts = connsOf(t, "accept");
        assertThat(accepts).as("one connection").hasSize(1);
        long conn = accepts.keySet().iterator().next();
        assertThat(connsOf(t, "close")).containsOnlyKeys(conn);
        Map<List<Long>, long[]> parsing = streamSlices(t, "parsing", true);
        Map<List<Long>, long[]> service = streamSlices(t, "service", false);
        assertThat(service.keySet()).as("a service slice per stream, stream 1 the upgraded request")
                .containsExactlyInAnyOrder(List.of(conn, 1L), List.of(conn, 3L), List.of(conn, 5L), List.of(conn, 7L));
        assertThat(parsing.keySet()).as("a parsing slice per stream parsed as HTTP/2")
                .containsExactlyInAnyOrder(List.of(conn, 3L), List.of(conn, 5L), List.of(conn, 7L));
        List<long[]> http1Parsing = sliceTimes(t, "server", "parsing").values().stream().flatMap(List::stream)
                .filter(s -> s[1] <= service.get(List.of(conn, 1L))[0]).collect(Collectors.toList());
        assertThat(http1Parsing).as("the upgrading request parsed as HTTP/1.1 before stream 1's service").hasSize(1);
        Map<List<Long>, long[]> parsedAsHttp2 = new HashMap<>(service);
        parsedAsHttp2.remove(List.of(conn, 1L));
        checkStreamPhases(parsing, parsedAsHttp2);
        checkRequestsOnLanes(t, service.keySet());
        assertThat(named(t, "request").stream().filter(e -> "HTTP/1.1".equals(string(e, "upgradedFrom"))))
                .extracting(e -> number(e, "stream")).as("the upgraded request").containsExactly(1L);
        checkIdleAfterStreams(t, conn, parsing, service);
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(number(stats, "requestsParsed")).as("the upgrading request once").isEqualTo(4);
        assertThat(number(stats, "connectionsAccepted")).isEqualTo(1);
    }

    /**
     * HTTP/2 on Undertow 2.3 ({@code ENABLE_HTTP2}; the JDK's client, /io answered on the IO
     * thread): h2c by {@code Upgrade: h2c}, the first request becoming stream 1, then two streams
     * at once and a fourth IDLE_MS later; and h2 over TLS (ALPN), one stream then two at once. Each
     * stream served in a service slice of its connection and stream id, each but the upgrading one
     * parsed (before its service) in its own parsing slice; a request instant per stream on its
     * connection's lane; the keep-alive idle once no stream is in service.
     */
    @Test
    void undertowHttp2StreamsAreParsedAndServedAsRequestsOfOneConnection() throws Exception {
        Path ks = keyStore();
        Path out = dir.resolve("undertow-h2.pftrace");
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "trace=" + out, ChildJvms.undertowClassPath(),
                E2eUndertowTraceApp.class.getName(), ks.toString(), "changeit");
        Matcher ports = awaitPorts(c);
        String h2c = "http://127.0.0.1:" + ports.group(1);
        String h2 = "https://127.0.0.1:" + ports.group(2);
        HttpClient upgrading = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        assertThat(upgrading.send(h2Request(h2c + "/io"), HttpResponse.BodyHandlers.ofString()).version())
                .as("upgraded").isEqualTo(HttpClient.Version.HTTP_2);
        sendTogether(upgrading, h2c + "/io", h2c + "/io");
        Thread.sleep(IDLE_MS);
        sendTogether(upgrading, h2c + "/io");
        HttpClient tls = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).sslContext(trusting(ks)).build();
        assertThat(tls.send(h2Request(h2 + "/io"), HttpResponse.BodyHandlers.ofString()).version())
                .as("h2 by ALPN").isEqualTo(HttpClient.Version.HTTP_2);
        sendTogether(tls, h2 + "/io", h2 + "/io");
        awaitIdleClosed(Integer.parseInt(ports.group(1)), Integer.parseInt(ports.group(2)));
        TraceChecks t = finish(c, out);

        Map<Long, Integer> accepts = connsOf(t, "accept");
        assertThat(accepts).as("one connection per client").hasSize(2);
        assertThat(connsOf(t, "close").keySet()).as("each connection closed").containsAll(accepts.keySet());
        long tlsConn = number(named(t, "TLS handshake ends").get(0), "conn");
        long plainConn = accepts.keySet().stream().filter(k -> k != tlsConn).findFirst().orElseThrow();
        Map<List<Long>, long[]> parsing = streamSlices(t, "parsing", true);
        Map<List<Long>, long[]> service = streamSlices(t, "service", true);
        assertThat(service.keySet()).as("a service slice per stream, stream 1 the upgraded request").containsExactlyInAnyOrder(
                List.of(plainConn, 1L), List.of(plainConn, 3L), List.of(plainConn, 5L), List.of(plainConn, 7L),
                List.of(tlsConn, 1L), List.of(tlsConn, 3L), List.of(tlsConn, 5L));
        assertThat(parsing.keySet()).as("a parsing slice per stream parsed as HTTP/2").containsExactlyInAnyOrder(
                List.of(plainConn, 3L), List.of(plainConn, 5L), List.of(plainConn, 7L),
                List.of(tlsConn, 1L), List.of(tlsConn, 3L), List.of(tlsConn, 5L));
        for (Map.Entry<List<Long>, long[]> e : parsing.entrySet()) {
            assertThat(e.getValue()[1]).as("%s parsed before its service", e.getKey()).isLessThanOrEqualTo(service.get(e.getKey())[0]);
        }
        checkRequestsOnLanes(t, service.keySet());
        assertThat(named(t, "request").stream().filter(e -> "HTTP/1.1".equals(string(e, "upgradedFrom"))))
                .extracting(e -> List.of(number(e, "conn"), number(e, "stream"))).as("the upgraded request")
                .containsExactly(List.of(plainConn, 1L));
        checkKeepAliveIdle(t);
        // Undertow's streams of /io are served one after the other on the IO thread: the connection
        // may idle between them, but never while a stream is requested and not yet served
        Map<List<Long>, Long> requested = named(t, "request").stream()
                .collect(Collectors.toMap(e -> List.of(number(e, "conn"), number(e, "stream")), e -> 0L));
        t.events.stream().filter(p -> "request".equals(p.getTrackEvent().getName()))
                .forEach(p -> requested.put(List.of(number(p.getTrackEvent(), "conn"), number(p.getTrackEvent(), "stream")),
                        p.getTimestamp()));
        t.events.stream().filter(p -> "keep-alive idle".equals(p.getTrackEvent().getName())
                && p.getTrackEvent().getType() == TrackEvent.Type.TYPE_SLICE_BEGIN).forEach(p -> {
                    long conn = number(p.getTrackEvent(), "conn");
                    service.forEach((k, v) -> assertThat(k.get(0) == conn && requested.get(k) <= p.getTimestamp()
                            && p.getTimestamp() < v[0]).as("idle at %d while %s requested, not served", p.getTimestamp(), k).isFalse());
                });
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(number(stats, "requestsParsed")).as("the upgrading request once, as HTTP/1.1").isEqualTo(7);
    }

    /**
     * Tomcat 11's h2c by prior knowledge (Jetty's HTTP/2 client in this JVM): three streams at once
     * on one connection; each parsed and served with its stream id, a request instant per stream on
     * the connection's lane, three requests counted.
     */
    @Test
    void tomcatHttp2PriorKnowledgeStreamsAreTraced() throws Exception {
        Path ks = keyStore();
        Path out = dir.resolve("tomcat-h2c-prior.pftrace");
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "trace=" + out, ChildJvms.tomcatClassPath(), E2eTomcatTraceApp.class.getName(),
                ks.toString(), "changeit", "HTTP/1.1", "h2");
        int port = Integer.parseInt(awaitPorts(c).group(1));
        HTTP2Client client = new HTTP2Client();
        client.start();
        try {
            Session session = client.connect(new InetSocketAddress("127.0.0.1", port), new Session.Listener() {})
                    .get(20, TimeUnit.SECONDS);
            List<CompletableFuture<Integer>> together = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                together.add(h2Get(session, port, "/slow"));
            }
            for (CompletableFuture<Integer> f : together) {
                assertThat(f.get(20, TimeUnit.SECONDS)).isEqualTo(200);
            }
            awaitIdleClosed(port);
        } finally {
            client.stop();
        }
        TraceChecks t = finish(c, out);

        Map<Long, Integer> accepts = connsOf(t, "accept");
        assertThat(accepts).as("one connection").hasSize(1);
        long conn = accepts.keySet().iterator().next();
        Set<List<Long>> keys = Set.of(List.of(conn, 1L), List.of(conn, 3L), List.of(conn, 5L));
        Map<List<Long>, long[]> parsing = streamSlices(t, "parsing", true);
        Map<List<Long>, long[]> service = streamSlices(t, "service", false);
        assertThat(parsing.keySet()).as("a parsing slice per stream").isEqualTo(keys);
        assertThat(service.keySet()).as("a service slice per stream").isEqualTo(keys);
        checkStreamPhases(parsing, service);
        checkRequestsOnLanes(t, keys);
        assertThat(named(t, "request")).as("none upgraded").allMatch(e -> string(e, "upgradedFrom") == null);
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(number(stats, "requestsParsed")).isEqualTo(3);
    }

    /**
     * Undertow's h2c by prior knowledge (Jetty's HTTP/2 client in this JVM): three streams at once
     * on one connection; each parsed and served with its stream id, a request instant per stream
     * on the connection's lane, three requests counted.
     */
    @Test
    void undertowHttp2PriorKnowledgeStreamsAreTraced() throws Exception {
        Path ks = keyStore();
        Path out = dir.resolve("undertow-h2c-prior.pftrace");
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "trace=" + out, ChildJvms.undertowClassPath(),
                E2eUndertowTraceApp.class.getName(), ks.toString(), "changeit");
        int port = Integer.parseInt(awaitPorts(c).group(1));
        HTTP2Client client = new HTTP2Client();
        client.start();
        try {
            Session session = client.connect(new InetSocketAddress("127.0.0.1", port), new Session.Listener() {})
                    .get(20, TimeUnit.SECONDS);
            List<CompletableFuture<Integer>> together = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                together.add(h2Get(session, port, "/io"));
            }
            for (CompletableFuture<Integer> f : together) {
                assertThat(f.get(20, TimeUnit.SECONDS)).isEqualTo(200);
            }
            Thread.sleep(500);
        } finally {
            client.stop();
        }
        Thread.sleep(500);
        TraceChecks t = finish(c, out);

        Map<Long, Integer> accepts = connsOf(t, "accept");
        assertThat(accepts).as("one connection").hasSize(1);
        long conn = accepts.keySet().iterator().next();
        assertThat(connsOf(t, "close")).containsOnlyKeys(conn);
        Set<List<Long>> keys = Set.of(List.of(conn, 1L), List.of(conn, 3L), List.of(conn, 5L));
        Map<List<Long>, long[]> parsing = streamSlices(t, "parsing", true);
        Map<List<Long>, long[]> service = streamSlices(t, "service", true);
        assertThat(parsing.keySet()).as("a parsing slice per stream").isEqualTo(keys);
        assertThat(service.keySet()).as("a service slice per stream").isEqualTo(keys);
        parsing.forEach((k, v) -> assertThat(v[1]).as("%s parsed before its service", k).isLessThanOrEqualTo(service.get(k)[0]));
        checkRequestsOnLanes(t, keys);
        assertThat(named(t, "request")).as("none upgraded").allMatch(e -> string(e, "upgradedFrom") == null);
    }

    /** Sends GETs of {@code uris} at once on {@code client}; each answered 200 over HTTP/2. */
    private static void sendTogether(HttpClient client, String... uris) throws Exception {
        sendTogether(client, 200, uris);
    }

    /** As above, each answered {@code status}. */
    private static void sendTogether(HttpClient client, int status, String... uris) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> together = new ArrayList<>();
        for (String uri : uris) {
            together.add(client.sendAsync(h2Request(uri), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> f : together) {
            HttpResponse<String> r = f.get(20, TimeUnit.SECONDS);
            assertThat(r.statusCode()).isEqualTo(status);
            assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_2);
        }
    }

    /**
     * A {@code request} instant per stream in {@code streams}, on a connection lane, inside its
     * connection's slice (after its accept's slice began, before it ended).
     */
    private static void checkRequestsOnLanes(TraceChecks t, Set<List<Long>> streams) {
        List<List<Long>> seen = new ArrayList<>();
        Map<Long, List<TrackEvent>> stacks = new HashMap<>();
        for (TracePacket p : t.events) {
            TrackEvent e = p.getTrackEvent();
            TrackDescriptor d = t.tracks.get(e.getTrackUuid());
            if (d == null || !d.getName().startsWith("connections ")) {
                continue;
            }
            List<TrackEvent> stack = stacks.computeIfAbsent(e.getTrackUuid(), k -> new ArrayList<>());
            if (e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN) {
                stack.add(e);
            } else if (e.getType() == TrackEvent.Type.TYPE_SLICE_END) {
                stack.remove(stack.size() - 1);
            } else if ("request".equals(e.getName())) {
                assertThat(string(e, "protocol")).isEqualTo("HTTP/2");
                assertThat(stack).as("a request inside its connection").isNotEmpty();
                assertThat(stack.get(0).getName()).isEqualTo("connection");
                assertThat(number(stack.get(0), "conn")).isEqualTo(number(e, "conn"));
                seen.add(List.of(number(e, "conn"), number(e, "stream")));
            }
        }
        assertThat(seen).as("a request per stream").containsExactlyInAnyOrderElementsOf(streams);
    }

    /**
     * Jetty 9.4, 10 and 11, each on a class path of the jars the build copied (pre-integration-test),
     * plain HTTP and HTTPS; the default handler answers every request 404.
     */
    @ParameterizedTest
    @ValueSource(strings = {"jetty-9.4", "jetty-10", "jetty-11"})
    void olderJettysConnectionsHandshakesAndRequestPhasesAreTraced(String version) throws Exception {
        Path jars = Path.of(System.getProperty("qosweaver.servers", "target/servers")).resolve(version);
        assertThat(jars).as("copied by the build (pre-integration-test)").isDirectory();
        String classPath;
        try (var files = Files.list(jars)) {
            classPath = files.map(Path::toString).collect(Collectors.joining(File.pathSeparator))
                    + File.pathSeparator + ChildJvms.testClasses();
        }
        Path ks = keyStore();
        Path out = dir.resolve(version + ".pftrace");
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "trace=" + out, classPath, E2eJettyTraceAnyApp.class.getName(),
                ks.toString(), "changeit");
        Matcher ports = awaitPorts(c);
        assertThat(c.out()).contains("VERSION=" + version.substring(version.indexOf('-') + 1));
        int http = Integer.parseInt(ports.group(1));
        int https = Integer.parseInt(ports.group(2));
        HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        get(plain, "http://127.0.0.1:" + http + "/a", 404);
        Thread.sleep(IDLE_MS);
        get(plain, "http://127.0.0.1:" + http + "/b", 404);
        SSLContext ssl = trusting(ks);
        get(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl).build(),
                "https://127.0.0.1:" + https + "/c", 404);
        Thread.sleep(200);
        get(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl).build(),
                "https://127.0.0.1:" + https + "/d", 404);
        awaitIdleClosed(http, https);
        TraceChecks t = finish(c, out);

        Map<Long, Integer> accepts = connsOf(t, "accept");
        assertThat(accepts).as("one kept-alive plain connection and two TLS ones").hasSize(3);
        assertThat(connsOf(t, "close").keySet()).as("each accepted connection closed").containsAll(accepts.keySet());
        List<TrackEvent> handshakes = named(t, "TLS handshake ends");
        assertThat(handshakes).extracting(e -> string(e, "handshake")).as("full, then resumed").containsExactly("full", "resumed");
        assertThat(accepts.keySet()).as("the handshakes are of accepted connections")
                .contains(number(handshakes.get(0), "conn"), number(handshakes.get(1), "conn"));
        assertThat(named(t, "TLS handshake").stream().filter(e -> e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN))
                .as("a handshake slice on each TLS connection's lane").hasSize(2);
        assertThat(checkParsingThenService(t)).as("four requests served").isEqualTo(4);
        checkKeepAliveIdle(t);
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(number(stats, "tlsHandshakesFull")).isEqualTo(1);
        assertThat(number(stats, "tlsHandshakesResumed")).isEqualTo(1);
        assertThat(number(stats, "requestsParsed")).isEqualTo(4);
    }

    @Test
    void undertowConnectionsHandshakesAndRequestPhasesAreTraced() throws Exception {
        Path ks = keyStore();
        Path out = dir.resolve("undertow.pftrace");
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "trace=" + out, ChildJvms.undertowClassPath(),
                E2eUndertowTraceApp.class.getName(), ks.toString(), "changeit");
        Matcher ports = awaitPorts(c);
        int http = Integer.parseInt(ports.group(1));
        int https = Integer.parseInt(ports.group(2));
        // plain, one kept-alive connection: on the IO thread, dispatched to a worker, on the IO thread, IDLE_MS apart
        HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        get(plain, "http://127.0.0.1:" + http + "/io");
        Thread.sleep(IDLE_MS);
        get(plain, "http://127.0.0.1:" + http + "/work");
        Thread.sleep(IDLE_MS);
        get(plain, "http://127.0.0.1:" + http + "/io");
        // TLS: a full handshake, then a second client on the same SSLContext resumes its session
        SSLContext ssl = trusting(ks);
        get(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl).build(),
                "https://127.0.0.1:" + https + "/io");
        Thread.sleep(200);
        get(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(ssl).build(),
                "https://127.0.0.1:" + https + "/io");
        awaitIdleClosed(http, https);
        TraceChecks t = finish(c, out);

        Map<Long, Integer> accepts = connsOf(t, "accept");
        assertThat(accepts).as("one kept-alive plain connection and two TLS ones").hasSize(3);
        assertThat(connsOf(t, "close").keySet()).containsAll(accepts.keySet());
        List<TrackEvent> handshakes = named(t, "TLS handshake ends");
        assertThat(handshakes).extracting(e -> string(e, "handshake")).as("full, then resumed").containsExactly("full", "resumed");
        assertThat(accepts.keySet()).as("the handshakes are of accepted connections")
                .contains(number(handshakes.get(0), "conn"), number(handshakes.get(1), "conn"));
        assertThat(named(t, "TLS handshake").stream().filter(e -> e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN))
                .as("a handshake slice on each TLS connection's lane").hasSize(2);
        // five requests parsed; six services: /work's on the IO thread (it dispatches) and on the worker
        assertThat(checkParsingThenService(t, accepts.keySet())).as("services").isEqualTo(6);
        Map<Integer, List<long[]>> services = sliceTimes(t, "server", "service");
        Map<Integer, List<long[]>> parsings = sliceTimes(t, "server", "parsing");
        assertThat(services.keySet()).as("a service on a worker, a thread that parsed nothing")
                .anyMatch(tid -> !parsings.containsKey(tid));
        assertThat(checkKeepAliveIdle(t)).as("idle after the IO thread's response and after the worker's").isEqualTo(2);
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(number(stats, "tlsHandshakesFull")).isEqualTo(1);
        assertThat(number(stats, "tlsHandshakesResumed")).isEqualTo(1);
        assertThat(number(stats, "requestsParsed")).isEqualTo(5);
        assertThat(number(stats, "keepAliveIdleMs")).isGreaterThanOrEqualTo(2 * (IDLE_MS - 50));
        assertThat(number(stats, "tlsHandshakeMs")).as("both handshakes ended (not at the close, 1 s idle later)")
                .isLessThan(1_000);
    }

    /**
     * Many short connections, several at once (the flash-crowd case study's {@code curl} loops):
     * {@value #NEW_CONNECTIONS} requests, each on a new plain connection ({@code Connection: close})
     * from {@value #CLIENT_THREADS} client threads, on Jetty 12 (the river monitor's server), Tomcat 11
     * (NIO) and Undertow 2, with the tracer started with the JVM or ({@code attached}, as
     * {@code qosweaver trace PID}) loaded into it while such connections arrive, the server's
     * classes loaded and retransformed. Once the server has closed every one of them (its sockets on
     * the port, as {@code /proc/net/tcp} shows them, no longer held by a process), the period of
     * those connections has an accept, a close, a connection slice and a service for each; started
     * with the JVM, the statistics count each accepted, parsed and closed once.
     */
    @ParameterizedTest
    @ValueSource(strings = {"jetty-12", "tomcat-11", "undertow", "jetty-12 attached", "tomcat-11 attached", "undertow attached"})
    void eachOfManyNewConnectionsIsAcceptedParsedAndClosedOnce(String variant) throws Exception {
        boolean attached = variant.endsWith(" attached");
        String server = variant.split(" ")[0];
        Path ks = keyStore();
        Path out = dir.resolve(server + "-many.pftrace");
        jvms = new ChildJvms(dir);
        String classPath = switch (server) {
            case "jetty-12" -> jettyClassPath();
            case "tomcat-11" -> ChildJvms.tomcatClassPath();
            default -> ChildJvms.undertowClassPath();
        };
        String main = switch (server) {
            case "jetty-12" -> E2eServerTraceApp.class.getName();
            case "tomcat-11" -> E2eTomcatTraceApp.class.getName();
            default -> E2eUndertowTraceApp.class.getName();
        };
        ChildJvms.Child c = attached ? jvms.startWithoutAgent(classPath, main, ks.toString(), "changeit")
                : jvms.start(List.of(), "trace=" + out, classPath, main, ks.toString(), "changeit");
        int port = Integer.parseInt(awaitPorts(c).group(1));
        String path = server.equals("jetty-12") ? "/a" : server.equals("tomcat-11") ? "/ok" : "/io";
        if (attached) {
            // as in the flash-crowd case study: the server serves new connections (its classes loaded
            // and compiled) while the tracer attaches and weaves them by retransformation
            manyNewConnections(port, path, NEW_CONNECTIONS);
            java.util.concurrent.atomic.AtomicBoolean crowd = new java.util.concurrent.atomic.AtomicBoolean(true);
            CompletableFuture<Void> during = CompletableFuture.runAsync(() -> {
                while (crowd.get()) {
                    try {
                        manyNewConnections(port, path, CLIENT_THREADS);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            ChildJvms.attach(c, "trace=" + out + ",traceDuration=120s");
            await("the server level woven").atMost(60, TimeUnit.SECONDS).until(() -> c.err().contains("the server level is woven"));
            Thread.sleep(500);
            crowd.set(false);
            during.get(60, TimeUnit.SECONDS);
        }
        await("the server closed every connection before the counted ones").atMost(30, TimeUnit.SECONDS)
                .pollInterval(Duration.ofMillis(100)).until(() -> serverHeldConnections(port) == 0);
        long from = System.nanoTime(); // CLOCK_MONOTONIC, the trace's clock
        manyNewConnections(port, path, NEW_CONNECTIONS);
        await("the server closed every connection").atMost(30, TimeUnit.SECONDS).pollInterval(Duration.ofMillis(100))
                .until(() -> serverHeldConnections(port) == 0);
        long to = System.nanoTime();
        Thread.sleep(300); // the tracer drains its rings every 100 ms (and once more at the stop)
        TraceChecks t = finish(c, out);

        // the counted connections' events (attached: the crowd's before them are in the trace too)
        java.util.function.Function<String, List<TracePacket>> counted = name -> t.events.stream()
                .filter(p -> name.equals(p.getTrackEvent().getName()) && p.getTimestamp() >= from && p.getTimestamp() <= to
                        && p.getTrackEvent().getType() != TrackEvent.Type.TYPE_SLICE_END)
                .collect(Collectors.toList());
        assertThat(counted.apply("service")).as("requests served").hasSize(NEW_CONNECTIONS);
        assertThat(counted.apply("accept")).as("connections accepted").hasSize(NEW_CONNECTIONS);
        assertThat(counted.apply("close")).as("connections closed").hasSize(NEW_CONNECTIONS);
        assertThat(counted.apply("connection")).as("connection slices begun").hasSize(NEW_CONNECTIONS);
        if (attached) {
            return;
        }
        Map<Long, Integer> accepts = connsOf(t, "accept");
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(stats.getName()).isEqualTo("trace statistics");
        assertThat(number(stats, "requestsParsed")).as("requests parsed").isEqualTo(NEW_CONNECTIONS);
        assertThat(number(stats, "connectionsAccepted")).as("connections accepted").isEqualTo(NEW_CONNECTIONS);
        assertThat(number(stats, "connectionsClosed")).as("connections closed").isEqualTo(NEW_CONNECTIONS);
        assertThat(accepts.values().stream().mapToInt(Integer::intValue).sum()).as("accept instants").isEqualTo(NEW_CONNECTIONS);
        assertThat(connsOf(t, "close").keySet()).as("each accepted connection closed").containsAll(accepts.keySet());
    }

    /**
     * {@code qosweaver trace PID} twice on one JVM: the second trace finds the server level woven by
     * the first (it stays woven) and must not weave it again, or every server event would be
     * recorded twice (found as accepts in pairs at the same millisecond). Jetty 12, attached before
     * its first request: a class loaded while the first trace retransformed the loaded ones
     * ({@code HttpConnection$RequestHandler}, whose {@code headerComplete} ends a request's parsing)
     * must be woven too, or no request is counted as parsed.
     */
    @Test
    void aSecondTraceOfTheSameJvmCountsEachConnectionOnce() throws Exception {
        Path ks = keyStore();
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.startWithoutAgent(jettyClassPath(), E2eServerTraceApp.class.getName(), ks.toString(),
                "changeit");
        int port = Integer.parseInt(awaitPorts(c).group(1));
        Path first = dir.resolve("first.pftrace");
        ChildJvms.attach(c, "trace=" + first + ",traceDuration=1s");
        await("the first trace written").atMost(60, TimeUnit.SECONDS).until(() -> c.err().contains("trace written"));
        Path out = dir.resolve("second.pftrace");
        ChildJvms.attach(c, "trace=" + out + ",traceDuration=120s");
        await("the second trace's server level").atMost(60, TimeUnit.SECONDS)
                .until(() -> c.err().contains("the server level is woven already"));
        assertThat(c.err().split("the server level is woven \\(", -1)).as("weavings of the server level").hasSize(2);
        manyNewConnections(port, "/a", NEW_CONNECTIONS);
        await("the server closed every connection").atMost(30, TimeUnit.SECONDS).pollInterval(Duration.ofMillis(100))
                .until(() -> serverHeldConnections(port) == 0);
        Thread.sleep(300); // the tracer drains its rings every 100 ms (and once more at the stop)
        TraceChecks t = finish(c, out);
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(stats.getName()).isEqualTo("trace statistics");
        assertThat(number(stats, "connectionsAccepted")).as("connections accepted").isEqualTo(NEW_CONNECTIONS);
        assertThat(number(stats, "requestsParsed")).as("requests parsed").isEqualTo(NEW_CONNECTIONS);
        assertThat(number(stats, "connectionsClosed")).as("connections closed").isEqualTo(NEW_CONNECTIONS);
    }

    private static final int NEW_CONNECTIONS = 50;
    private static final int CLIENT_THREADS = 5;

    /** {@code n} GETs, each on a new connection, from {@value #CLIENT_THREADS} client threads at once. */
    private static void manyNewConnections(int port, String path, int n) throws Exception {
        java.util.concurrent.ExecutorService clients = java.util.concurrent.Executors.newFixedThreadPool(CLIENT_THREADS);
        try {
            List<java.util.concurrent.Future<?>> done = new ArrayList<>();
            for (int i = 0; i < CLIENT_THREADS; i++) {
                done.add(clients.submit(() -> {
                    for (int k = 0; k < n / CLIENT_THREADS; k++) {
                        assertThat(getOnNewConnection(port, path)).as("a response on a new connection").startsWith("HTTP/1.1 200");
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get(120, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
    }

    /** One GET on a new connection that asks the server to close it; the whole response (read to the end of the stream). */
    private static String getOnNewConnection(int port, String path) throws java.io.IOException {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
                    .getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * The connections of the server on {@code port} (local port {@code port}, not listening) whose
     * socket a process still holds (an inode): once its server closed a connection, the socket is
     * gone or an orphan (inode 0, such as in TIME_WAIT or FIN_WAIT2).
     */
    private static long serverHeldConnections(int port) throws java.io.IOException {
        long n = 0;
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            Path p = Path.of(table);
            if (!Files.exists(p)) {
                continue;
            }
            for (String line : Files.readAllLines(p)) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 10 || !f[1].contains(":")) {
                    continue;
                }
                int local;
                try {
                    local = Integer.parseInt(f[1].substring(f[1].lastIndexOf(':') + 1), 16);
                } catch (NumberFormatException e) {
                    continue; // the header
                }
                if (local == port && !f[3].equals("0A") && !f[9].equals("0")) {
                    n++;
                }
            }
        }
        return n;
    }

    /**
     * Waits for the server to close the test's idle connections on {@code ports} (its idle time-out is 1 s):
     * until no socket of them is held by a process, or for at most the 2.5 s the tests used to sleep
     * (a server that releases a socket later is then checked as before); then lets the tracer drain its
     * rings (every 100 ms).
     */
    private static void awaitIdleClosed(int... ports) throws Exception {
        long end = System.nanoTime() + 2_500_000_000L;
        Thread.sleep(900); // nothing closes before the idle time-out
        while (System.nanoTime() < end && anyHeld(ports)) {
            Thread.sleep(50);
        }
        Thread.sleep(300);
    }

    private static boolean anyHeld(int... ports) throws java.io.IOException {
        for (int p : ports) {
            if (serverHeldConnections(p) > 0) {
                return true;
            }
        }
        return false;
    }

    private static Matcher awaitPorts(ChildJvms.Child c) {
        Matcher[] m = new Matcher[1];
        await().atMost(90, TimeUnit.SECONDS).until(() -> {
            m[0] = PORTS.matcher(c.out());
            return m[0].find() || !c.process().isAlive();
        });
        assertThat(m[0].find(0)).as("stderr: %s", uncheckedErr(c)).isTrue();
        return m[0];
    }

    private static String uncheckedErr(ChildJvms.Child c) {
        try {
            return c.err();
        } catch (java.io.IOException e) {
            return e.toString();
        }
    }

    /** Stops the child (SIGTERM: its shutdown hook completes the trace) and reads the trace. */
    private static TraceChecks finish(ChildJvms.Child c, Path out) throws Exception {
        c.process().destroy();
        assertThat(c.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(out).as("the trace; stderr: %s", c.err()).exists();
        assertThat(c.err()).as("every unit wove what it matched, or nothing").doesNotContain("could not weave");
        return TraceChecks.read(out).valid();
    }

    private static void get(HttpClient client, String uri) throws Exception {
        get(client, uri, 200);
    }

    private static void get(HttpClient client, String uri, int status) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(uri).isEqualTo(status);
    }

    private static SSLContext trusting(Path ks) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (FileInputStream in = new FileInputStream(ks.toFile())) {
            store.load(in, "changeit".toCharArray());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    /**
     * On every {@code server} track: each {@code service} slice follows a {@code parsing} slice of
     * the same connection that ended before it began (no other slice between). Returns the services.
     */
    private static int checkParsingThenService(TraceChecks t) {
        return checkParsingThenService(t, Set.of());
    }

    /**
     * As above, but a service of a connection in {@code dispatched} may also begin on a thread
     * that did not parse it (a worker the request was dispatched to): those count too.
     */
    private static int checkParsingThenService(TraceChecks t, Set<Long> dispatched) {
        int services = 0;
        Map<Long, String> lastEnded = new HashMap<>();
        Map<Long, Long> lastEndedConn = new HashMap<>();
        Map<Long, List<TrackEvent>> open = new HashMap<>();
        for (TracePacket p : t.events) {
            TrackEvent e = p.getTrackEvent();
            TrackDescriptor d = t.tracks.get(e.getTrackUuid());
            if (d == null || !"server".equals(d.getName())) {
                continue;
            }
            List<TrackEvent> stack = open.computeIfAbsent(e.getTrackUuid(), k -> new ArrayList<>());
            if (e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN) {
                if (e.getName().equals("service") && !"parsing".equals(lastEnded.get(e.getTrackUuid()))
                        && dispatched.contains(number(e, "conn"))) {
                    services++;
                    assertThat(stack).as("a dispatched service nested in nothing").isEmpty();
                } else if (e.getName().equals("service")) {
                    services++;
                    assertThat(lastEnded.get(e.getTrackUuid())).as("the slice before a service").isEqualTo("parsing");
                    assertThat(number(e, "conn")).as("service and parsing of one connection")
                            .isEqualTo(lastEndedConn.get(e.getTrackUuid()));
                    assertThat(stack).as("a service nested in nothing").isEmpty();
                }
                stack.add(e);
            } else if (e.getType() == TrackEvent.Type.TYPE_SLICE_END) {
                TrackEvent b = stack.remove(stack.size() - 1);
                lastEnded.put(e.getTrackUuid(), b.getName());
                lastEndedConn.put(e.getTrackUuid(), number(b, "conn"));
            }
        }
        return services;
    }

    /**
     * A keep-alive idle slice of about IDLE_MS on a connection lane, ended by that connection's next
     * parsing; returns how many there are.
     */
    private static long checkKeepAliveIdle(TraceChecks t) {
        List<long[]> idles = new ArrayList<>(); // conn, begin, end
        Map<Long, long[]> open = new HashMap<>();
        Map<Long, List<TrackEvent>> stacks = new HashMap<>();
        for (TracePacket p : t.events) {
            TrackEvent e = p.getTrackEvent();
            TrackDescriptor d = t.tracks.get(e.getTrackUuid());
            if (d == null || !d.getName().startsWith("connections ")) {
                continue;
            }
            List<TrackEvent> stack = stacks.computeIfAbsent(e.getTrackUuid(), k -> new ArrayList<>());
            if (e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN) {
                stack.add(e);
                if (e.getName().equals("keep-alive idle")) {
                    open.put(e.getTrackUuid(), new long[] {number(e, "conn"), p.getTimestamp(), 0});
                }
            } else if (e.getType() == TrackEvent.Type.TYPE_SLICE_END) {
                TrackEvent b = stack.remove(stack.size() - 1);
                if (b.getName().equals("keep-alive idle")) {
                    long[] i = open.remove(e.getTrackUuid());
                    i[2] = p.getTimestamp();
                    idles.add(i);
                    assertThat(stack).extracting(TrackEvent::getName).as("idle inside its connection").containsExactly("connection");
                }
            }
        }
        Set<String> parsingBegins = t.events.stream().filter(p -> "parsing".equals(p.getTrackEvent().getName())
                && p.getTrackEvent().getType() == TrackEvent.Type.TYPE_SLICE_BEGIN)
                .map(p -> number(p.getTrackEvent(), "conn") + "@" + p.getTimestamp()).collect(Collectors.toSet());
        long matching = idles.stream().filter(i -> i[2] - i[1] >= (IDLE_MS - 50) * 1_000_000L && i[2] - i[1] < 5_000_000_000L
                && parsingBegins.contains(i[0] + "@" + i[2])).count();
        assertThat(matching).as("a keep-alive idle of about %d ms ended by its connection's next request: %s", IDLE_MS,
                idles.stream().map(Arrays::toString).collect(Collectors.toList())).isPositive();
        return matching;
    }

    /** Begin and end of every slice named {@code name} on {@code level} tracks, by tid. */
    private static Map<Integer, List<long[]>> sliceTimes(TraceChecks t, String level, String name) {
        Map<Integer, List<long[]>> out = new HashMap<>();
        Map<Long, List<long[]>> open = new HashMap<>();
        for (TracePacket p : t.events) {
            TrackEvent e = p.getTrackEvent();
            TrackDescriptor d = t.tracks.get(e.getTrackUuid());
            if (d == null || !level.equals(d.getName())) {
                continue;
            }
            List<long[]> stack = open.computeIfAbsent(e.getTrackUuid(), k -> new ArrayList<>());
            if (e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN) {
                stack.add(new long[] {p.getTimestamp(), name.equals(e.getName()) ? 1 : 0});
            } else if (e.getType() == TrackEvent.Type.TYPE_SLICE_END) {
                long[] b = stack.remove(stack.size() - 1);
                if (b[1] == 1) {
                    int tid = t.tracks.get(d.getParentUuid()).getThread().getTid();
                    out.computeIfAbsent(tid, k -> new ArrayList<>()).add(new long[] {b[0], p.getTimestamp()});
                }
            }
        }
        return out;
    }

    /** The connections of the instants named {@code name}, with how many there are of each. */
    private static Map<Long, Integer> connsOf(TraceChecks t, String name) {
        Map<Long, Integer> out = new HashMap<>();
        for (TrackEvent e : named(t, name)) {
            out.merge(number(e, "conn"), 1, Integer::sum);
        }
        return out;
    }

    private static List<TrackEvent> named(TraceChecks t, String name) {
        return t.events.stream().map(TracePacket::getTrackEvent).filter(e -> name.equals(e.getName())).collect(Collectors.toList());
    }

    private static String string(TrackEvent e, String name) {
        return e.getDebugAnnotationsList().stream().filter(a -> a.getName().equals(name)).map(DebugAnnotation::getStringValue)
                .findFirst().orElse(null);
    }

    private static long number(TrackEvent e, String name) {
        return e.getDebugAnnotationsList().stream().filter(a -> a.getName().equals(name)).mapToLong(DebugAnnotation::getIntValue)
                .findFirst().orElseThrow(() -> new AssertionError("no " + name + " in " + e));
    }
}
