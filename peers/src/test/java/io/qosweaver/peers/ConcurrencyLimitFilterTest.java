package io.qosweaver.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The concurrency-limits peer on a real Jetty 12 ee10 server, installed by the installer (no agent). */
class ConcurrencyLimitFilterTest {

    private TestApp app;
    private Installer.Installation installation;

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.close();
        }
    }

    private ConcurrencyLimitFilter start(String args) throws Exception {
        app = new TestApp();
        Installer.Installation done = Installer.install(PeerArgs.parse(args), app.server, app.context);
        installation = done;
        assertThat(done).isNotNull();
        assertThat(done.handler()).as("augmented in place, not wrapped").isSameAs(app.context);
        assertThat(done.line()).startsWith("qosweaver-peers: concurrency-limits installed on ServletContextHandler"
                + " \"/\" mapping \"/chart\" (lowPath=/chart, lowShare=");
        app.start(done.handler());
        FilterHolder holder = app.context.getServletHandler().getFilter(ConcurrencyLimitFilter.FILTER_NAME);
        assertThat(holder).isNotNull();
        return (ConcurrencyLimitFilter) holder.getFilter();
    }

    @Test
    void chartBeyondItsShareGets429WhileFastGoesThrough() throws Exception {
        // limit 4: the /chart partition is guaranteed ceil(4 * 0.25) = 1, the others ceil(4 * 0.75) = 3;
        // a partition may borrow beyond its share while the whole limit is not in use
        ConcurrencyLimitFilter filter = start("peer=concurrency-limits,limit=fixed:4,lowShare=0.25");
        assertThat(filter.limit()).isEqualTo(4);
        List<CompletableFuture<HttpResponse<String>>> charts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            charts.add(app.get("/chart"));
        }
        await().atMost(10, TimeUnit.SECONDS).until(() -> app.count("chart") == 4);
        assertThat(filter.inflight()).isEqualTo(4);

        HttpResponse<String> rejected = app.getNow("/chart");
        assertThat(rejected.statusCode()).isEqualTo(429);
        assertThat(rejected.body()).isEqualTo("Concurrency limit exceeded");
        assertThat(app.count("chart")).as("the rejected request never reached the servlet").isEqualTo(4);
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> fast = app.getNow("/fast");
            assertThat(fast.statusCode()).as("the other partition's share").isEqualTo(200);
            assertThat(fast.body()).isEqualTo("fast");
        }

        app.chartRelease.release(4);
        for (CompletableFuture<HttpResponse<String>> c : charts) {
            assertThat(c.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
        await().atMost(5, TimeUnit.SECONDS).until(() -> filter.inflight() == 0);
        app.chartRelease.release();
        assertThat(app.getNow("/chart").statusCode()).isEqualTo(200);
    }

    @Test
    void switchedOffNoRequestIsRefusedOrCountedAndSwitchedOnTheLimitHoldsAgain(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("switch");
        ConcurrencyLimitFilter filter = start("peer=concurrency-limits,limit=fixed:1,switchFile=" + file);
        Files.writeString(file, "off");
        installation.peerSwitch().poll();
        List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
        held.add(app.get("/chart"));
        held.add(app.get("/chart"));
        await().atMost(10, TimeUnit.SECONDS).until(() -> app.count("chart") == 2);
        assertThat(filter.inflight()).as("no token taken while off: two charts past a limit of 1").isZero();
        app.chartRelease.release(2);
        for (CompletableFuture<HttpResponse<String>> c : held) {
            assertThat(c.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }

        Files.writeString(file, "on");
        installation.peerSwitch().poll();
        CompletableFuture<HttpResponse<String>> one = app.get("/chart");
        await().atMost(10, TimeUnit.SECONDS).until(() -> app.count("chart") == 3);
        assertThat(filter.inflight()).isEqualTo(1);
        assertThat(app.getNow("/chart").statusCode()).as("on again: a second chart over the limit of 1")
                .isEqualTo(429);
        app.chartRelease.release();
        assertThat(one.get(10, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(installation.line()).endsWith(", switchFile=" + file + ")");
    }

    @Test
    void exceptionsReleaseTheTokenAndPropagate() throws Exception {
        ConcurrencyLimitFilter filter = start("peer=concurrency-limits,limit=fixed:1");
        for (int i = 0; i < 3; i++) {
            assertThat(app.getNow("/boom").statusCode()).as("the servlet's exception still reaches Jetty")
                    .isEqualTo(500);
        }
        assertThat(app.count("boom")).isEqualTo(3);
        assertThat(filter.inflight()).isZero();
        assertThat(app.getNow("/fast").statusCode()).isEqualTo(200);
    }

    @Test
    void defaultLimitIsTheLibrarysVegas() throws Exception {
        ConcurrencyLimitFilter filter = start("peer=concurrency-limits");
        assertThat(filter.describe()).isEqualTo("lowPath=/chart, lowShare=0.1,"
                + " limit=vegas [library default: VegasLimit, initial 20, max 1000], 429 when over");
        assertThat(filter.limit()).as("VegasLimit's initial limit").isEqualTo(20);
        assertThat(app.getNow("/fast").body()).isEqualTo("fast");
        app.chartRelease.release();
        assertThat(app.getNow("/chart").body()).isEqualTo("chart");
    }
}
