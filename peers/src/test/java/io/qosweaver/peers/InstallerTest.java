package io.qosweaver.peers;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServlet;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which setHandler calls get a peer, and what the hook prints. */
class InstallerTest {

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private PrintStream realErr;

    @BeforeEach
    void captureStderr() {
        Installer.reset();
        realErr = System.err;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(realErr);
        Installer.reset();
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private static ServletContextHandler context(String contextPath, String... specs) {
        ServletContextHandler c = new ServletContextHandler();
        c.setContextPath(contextPath);
        for (String spec : specs) {
            c.addServlet(new ServletHolder(new HttpServlet() {
                private static final long serialVersionUID = 1L;
            }), spec);
        }
        return c;
    }

    @Test
    void generatorLikeServerIsLeftAloneWithOneNote() {
        PeerArgs args = PeerArgs.parse("peer=jetty-qos");
        ServletContextHandler sensors = context("/", "/sensors/*");
        assertThat(Installer.onSetHandler(args, new Server(), sensors)).isSameAs(sensors);
        ServletContextHandler other = context("/", "/*", "/charts", "/chart.png");
        assertThat(Installer.onSetHandler(args, new Server(), other)).isSameAs(other);
        assertThat(err()).isEqualTo("qosweaver-peers: note: ServletContextHandler \"/\" [/sensors/*] has no servlet mapping for"
                + " lowPath=/chart: that server is left alone (jetty-qos goes on the first one that has)"
                + System.lineSeparator());
    }

    @Test
    void onlyServersAreConsidered() {
        PeerArgs args = PeerArgs.parse("peer=jetty-qos");
        ServletContextHandler app = context("/", "/chart");
        assertThat(Installer.onSetHandler(args, new QoSHandler(), app)).isSameAs(app);
        assertThat(Installer.onSetHandler(args, new Server(), "not a handler")).isEqualTo("not a handler");
        assertThat(err()).isEmpty();
    }

    @Test
    void installsOnceOnTheServerWhoseContextMapsLowPath() {
        PeerArgs args = PeerArgs.parse("peer=jetty-qos,maxRequests=3");
        ServletContextHandler app = context("/", "/chart", "/levels");
        Server server = new Server();
        Object replaced = Installer.onSetHandler(args, server, app);
        assertThat(replaced).isInstanceOf(JettyQoS.PriorityQoSHandler.class);
        assertThat(((QoSHandler) replaced).getHandler()).isSameAs(app);
        assertThat(err()).isEqualTo("qosweaver-peers: jetty-qos installed on ServletContextHandler \"/\" mapping"
                + " \"/chart\" (lowPath=/chart priority 0, others 1, maxRequests=3, maxSuspendMs=0"
                + " [Jetty default: wait forever], maxSuspended=1024 [Jetty default, then 503])"
                + System.lineSeparator());
        // the same context again (the application calling setHandler twice): nothing more
        assertThat(Installer.onSetHandler(args, server, app)).isSameAs(app);
        // a server without /chart after the install: no note either
        ServletContextHandler sensors = context("/", "/sensors/*");
        assertThat(Installer.onSetHandler(args, new Server(), sensors)).isSameAs(sensors);
        assertThat(err().lines()).hasSize(1);
    }

    @Test
    void findsTheContextInsideAContainerAndUnderAContextPath() {
        PeerArgs args = PeerArgs.parse("peer=jetty-qos");
        ServletContextHandler sensors = context("/gen", "/sensors/*");
        ServletContextHandler app = context("/app", "/chart/*");
        ContextHandlerCollection both = new ContextHandlerCollection(sensors, app);
        Installer.Installation done = Installer.install(args, new Server(), both);
        assertThat(done).isNotNull();
        assertThat(((QoSHandler) done.handler()).getHandler()).isSameAs(both);
        assertThat(done.line()).startsWith("qosweaver-peers: jetty-qos installed on ServletContextHandler \"/app\""
                + " mapping \"/chart/*\" (lowPath=/app/chart priority 0");
    }

    @Test
    void concurrencyLimitsAddsItsFilterToTheContext() {
        PeerArgs args = PeerArgs.parse("peer=concurrency-limits,limit=fixed:7");
        ServletContextHandler app = context("/", "/chart");
        assertThat(Installer.onSetHandler(args, new Server(), app)).isSameAs(app);
        assertThat(app.getServletHandler().getFilter(ConcurrencyLimitFilter.FILTER_NAME)).isNotNull();
        assertThat(app.getServletHandler().getFilterMappings()[0].getPathSpecs()).containsExactly("/*");
        assertThat(err()).isEqualTo("qosweaver-peers: concurrency-limits installed on ServletContextHandler \"/\""
                + " mapping \"/chart\" (lowPath=/chart, lowShare=0.1, limit=fixed:7, 429 when over)"
                + System.lineSeparator());
    }

    @Test
    void mappingMatchesExactOrPrefixSpecsOnly() {
        assertThat(Installer.mappingFor(context("/", "/chart"), "/chart")).isEqualTo("/chart");
        assertThat(Installer.mappingFor(context("/", "/chart/*"), "/chart")).isEqualTo("/chart/*");
        assertThat(Installer.mappingFor(context("/", "/a/*"), "/a/chart")).isEqualTo("/a/*");
        assertThat(Installer.mappingFor(context("/", "/*", "/", "/charts", "*.png"), "/chart")).isNull();
        assertThat(Installer.mappingFor(new ServletContextHandler(), "/chart")).isNull();
    }
}
