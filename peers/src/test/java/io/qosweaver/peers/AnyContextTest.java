package io.qosweaver.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code anyContext=true}: an app that routes every request through a filter of its own at /* and maps no
 * servlet (Apache Jena Fuseki's FusekiFilter) gets the peer, and concurrency-limits partitions its requests
 * by their path although no servlet path is set.
 */
class AnyContextTest {
    private Server server;
    private final Semaphore heavyRelease = new Semaphore(0);
    private final AtomicInteger heavyIn = new AtomicInteger();

    @BeforeEach
    void reset() {
        Installer.reset();
    }

    @AfterEach
    void stop() throws Exception {
        heavyRelease.release(100);
        if (server != null) {
            server.stop();
        }
        Installer.reset();
    }

    /** The app's own router: /ds/analytics waits for the test, everything else answers at once. */
    private ServletContextHandler filterOnlyContext() {
        ServletContextHandler c = new ServletContextHandler();
        c.setContextPath("/");
        Filter router = (ServletRequest req, ServletResponse resp, FilterChain chain) -> {
            if (((HttpServletRequest) req).getRequestURI().startsWith("/ds/analytics")) {
                heavyIn.incrementAndGet();
                heavyRelease.acquireUninterruptibly();
            }
            resp.getWriter().print("ok");
        };
        c.addFilter(new FilterHolder(router), "/*", EnumSet.of(DispatcherType.REQUEST));
        return c;
    }

    @Test
    void withoutAnyContextAFilterOnlyAppIsLeftAlone() {
        ServletContextHandler c = filterOnlyContext();
        assertThat(Installer.install(PeerArgs.parse("peer=jetty-qos,lowPath=/ds/analytics"), new Server(), c)).isNull();
    }

    @Test
    void jettyQosWrapsAFilterOnlyApp() {
        ServletContextHandler c = filterOnlyContext();
        Installer.Installation done = Installer.install(
                PeerArgs.parse("peer=jetty-qos,lowPath=/ds/analytics,maxRequests=2,anyContext=true"), new Server(), c);
        assertThat(done).isNotNull();
        assertThat(((QoSHandler) done.handler()).getHandler()).isSameAs(c);
        assertThat(done.line()).contains("mapping \"(any path: anyContext=true)\"").contains("lowPath=/ds/analytics");
    }

    @Test
    void concurrencyLimitsPartitionsByTheRequestPathWhenNoServletMatches() throws Exception {
        ServletContextHandler c = filterOnlyContext();
        Installer.Installation done = Installer.install(PeerArgs.parse(
                "peer=concurrency-limits,lowPath=/ds/analytics,limit=fixed:4,lowShare=0.25,anyContext=true"),
                new Server(), c);
        assertThat(done).isNotNull();
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(done.handler());
        server.start();
        HttpClient http = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + connector.getLocalPort();
        List<CompletableFuture<HttpResponse<String>>> heavy = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            heavy.add(http.sendAsync(HttpRequest.newBuilder(URI.create(base + "/ds/analytics?q=" + i)).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        await().atMost(10, TimeUnit.SECONDS).until(() -> heavyIn.get() == 4);
        HttpResponse<String> fifth = http.send(HttpRequest.newBuilder(URI.create(base + "/ds/analytics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(fifth.statusCode()).as("the heavy partition is over its share").isEqualTo(429);
        // had the path been empty (no servlet path), every request would be in one partition, the limit of 4
        // in use, and the light request refused too
        HttpResponse<String> light = http.send(HttpRequest.newBuilder(URI.create(base + "/ds/query")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(light.statusCode()).isEqualTo(200);
        heavyRelease.release(4);
        for (CompletableFuture<HttpResponse<String>> h : heavy) {
            assertThat(h.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
    }
}
