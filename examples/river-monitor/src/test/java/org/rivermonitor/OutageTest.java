package org.rivermonitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;
import org.rivermonitor.collector.CollectionRecord;

/**
 * A real database outage: the monitor talks to H2 over TCP, and the test stops and restarts the H2
 * TCP server underneath it.
 */
class OutageTest {

    @Test
    void databaseOutageGives503AndCollectorSurvivesAndRecovers() throws Exception {
        int dbPort = Http.freePort();
        String name = "outage" + System.nanoTime();
        // The in-memory database lives in this JVM; only the TCP server (its only way in) goes away.
        java.sql.DriverManager.getConnection("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1").close();
        Server h2 = Server.createTcpServer("-tcpPort", String.valueOf(dbPort), "-tcpAllowOthers").start();
        Options o = Http.options("--rivers", "3", "--history-hours", "0.2", "--period", "0.5",
                "--jdbc-url", "jdbc:h2:tcp://127.0.0.1:" + dbPort + "/mem:" + name);
        try (RiverMonitor app = RiverMonitor.start(o)) {
            String chart = app.url() + "/chart?river=1&hours=3";
            assertThat(Http.get(chart).status()).isEqualTo(200);

            h2.stop();
            Http.Response down = Http.get(chart);
            assertThat(down.status()).isEqualTo(503);
            assertThat(down.text()).contains("database unavailable");

            // The collector keeps collecting into memory, records that it could not store.
            long levelTs = app.levels().get(2).ts();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() ->
                    app.collections().snapshot().stream().filter(r -> !r.stored()).count() >= 2);
            assertThat(app.levels().get(2).ts()).isGreaterThan(levelTs);
            assertThat(Http.get(app.url() + "/levels").status()).isEqualTo(200);
            assertThat(Http.get(app.url() + "/status/collections").status()).isEqualTo(200);
            CollectionRecord failed = app.collections().snapshot().stream().filter(r -> !r.stored()).findFirst()
                    .orElseThrow();
            assertThat(failed.readings()).isEqualTo(3);

            h2 = Server.createTcpServer("-tcpPort", String.valueOf(dbPort), "-tcpAllowOthers").start();
            long restarted = System.currentTimeMillis();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> {
                List<CollectionRecord> all = app.collections().snapshot();
                return all.stream().anyMatch(r -> r.startMs() > restarted && r.stored());
            });
            await().atMost(Duration.ofSeconds(10)).until(() -> Http.get(chart).status() == 200);
        } finally {
            h2.stop();
        }
    }
}
