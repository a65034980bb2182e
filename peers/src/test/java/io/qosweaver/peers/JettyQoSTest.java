package io.qosweaver.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.handler.QoSHandler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jetty-qos peer on a real Jetty 12 ee10 server, installed by the installer (no agent). */
class JettyQoSTest {

    private TestApp app;
    private Installer.Installation installation;

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.close();
        }
    }

    private QoSHandler start(String args) throws Exception {
        app = new TestApp();
        Installer.Installation done = Installer.install(PeerArgs.parse(args), app.server, app.context);
        installation = done;
        assertThat(done).isNotNull();
        assertThat(done.line()).startsWith("qosweaver-peers: jetty-qos installed on ServletContextHandler \"/\""
                + " mapping \"/chart\" (lowPath=/chart");
        assertThat(done.handler()).isInstanceOf(QoSHandler.class);
        app.start(done.handler());
        return (QoSHandler) done.handler();
    }

    @Test
    void capsConcurrencyAndResumesFastBeforeChart() throws Exception {
        QoSHandler qos = start("peer=jetty-qos,maxRequests=2");
        assertThat(qos.getMaxRequestCount()).isEqualTo(2);
        List<CompletableFuture<HttpResponse<String>>> charts = new ArrayList<>();
        charts.add(app.get("/chart"));
        charts.add(app.get("/chart"));
        await().atMost(10, TimeUnit.SECONDS).until(() -> app.count("chart") == 2);
        // two more charts, then a fast one: all three wait, holding no thread
        charts.add(app.get("/chart"));
        charts.add(app.get("/chart"));
        await().atMost(10, TimeUnit.SECONDS).until(() -> qos.getSuspendedRequestCount() == 2);
        CompletableFuture<HttpResponse<String>> fast = app.get("/fast");
        await().atMost(10, TimeUnit.SECONDS).until(() -> qos.getSuspendedRequestCount() == 3);
        Thread.sleep(200);
        assertThat(app.entered).containsExactly("chart", "chart");

        // one chart completes: the fast request, although it arrived last, goes first
        app.chartRelease.release();
        assertThat(fast.get(10, TimeUnit.SECONDS).body()).isEqualTo("fast");
        // the fast request's completion frees its slot in turn: the next waiting chart goes
        await().atMost(10, TimeUnit.SECONDS).until(() -> app.entered.size() == 4);
        assertThat(app.entered).containsExactly("chart", "chart", "fast", "chart");
        app.chartRelease.release(3);
        for (CompletableFuture<HttpResponse<String>> c : charts) {
            assertThat(c.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(app.maxRunning.get()).isEqualTo(2);
        assertThat(qos.getSuspendedRequestCount()).isZero();
    }

    @Test
    void maxSuspendAnswers503ToRequestsWaitingTooLong() throws Exception {
        QoSHandler qos = start("peer=jetty-qos,maxRequests=1,maxSuspendMs=300");
        assertThat(qos.getMaxSuspend()).isEqualTo(Duration.ofMillis(300));
        CompletableFuture<HttpResponse<String>> chart = app.get("/chart");
        await().atMost(10, TimeUnit.SECONDS).until(() -> app.count("chart") == 1);
        HttpResponse<String> fast = app.getNow("/fast");
        assertThat(fast.statusCode()).isEqualTo(503);
        app.chartRelease.release();
        assertThat(chart.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(app.getNow("/fast").statusCode()).isEqualTo(200);
    }

    @Test
    void switchedOffEveryRequestGoesStraightToTheAppAndSwitchedOnTheCapHoldsAgain(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("switch");
        QoSHandler qos = start("peer=jetty-qos,maxRequests=1,switchFile=" + file);
        Installer.Installation done = installation;
        Files.writeString(file, "off");
        done.peerSwitch().poll();
        List<CompletableFuture<HttpResponse<String>>> charts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            charts.add(app.get("/chart"));
        }
        await().atMost(10, TimeUnit.SECONDS).until(() -> app.count("chart") == 3);
        assertThat(qos.getSuspendedRequestCount()).as("none held back while off").isZero();
        app.chartRelease.release(3);
        for (CompletableFuture<HttpResponse<String>> c : charts) {
            assertThat(c.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }

        Files.writeString(file, "on");
        done.peerSwitch().poll();
        charts.clear();
        charts.add(app.get("/chart"));
        await().atMost(10, TimeUnit.SECONDS).until(() -> app.count("chart") == 4);
        charts.add(app.get("/chart"));
        await().atMost(10, TimeUnit.SECONDS).until(() -> qos.getSuspendedRequestCount() == 1);
        assertThat(app.count("chart")).as("on again: the second waits").isEqualTo(4);
        app.chartRelease.release(2);
        for (CompletableFuture<HttpResponse<String>> c : charts) {
            assertThat(c.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        assertThat(done.line()).endsWith(", switchFile=" + file + ")");
    }

    @Test
    void defaultsAreJettysOwn() throws Exception {
        app = new TestApp();
        Installer.Installation done = Installer.install(PeerArgs.parse("peer=jetty-qos"), app.server, app.context);
        // QoSHandler 12.0.16: maxRequestCount 0 = half the server pool's maxThreads (QueuedThreadPool: 200),
        // maxSuspend ZERO = wait forever, maxSuspendedRequestCount 1024
        assertThat(done.line()).endsWith("(lowPath=/chart priority 0, others 1, maxRequests=100 [Jetty default:"
                + " maxThreads 200 / 2], maxSuspendMs=0 [Jetty default: wait forever], maxSuspended=1024"
                + " [Jetty default, then 503])");
        app.start(done.handler());
        QoSHandler qos = (QoSHandler) done.handler();
        assertThat(qos.getMaxRequestCount()).isEqualTo(100);
        assertThat(qos.getMaxSuspend()).isEqualTo(Duration.ZERO);
        assertThat(qos.getMaxSuspendedRequestCount()).isEqualTo(1024);
        assertThat(app.getNow("/fast").body()).isEqualTo("fast");
        app.chartRelease.release();
        assertThat(app.getNow("/chart").body()).isEqualTo("chart");
    }
}
