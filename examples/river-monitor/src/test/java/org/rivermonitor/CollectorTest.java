package org.rivermonitor;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rivermonitor.collector.CollectionLog;
import org.rivermonitor.collector.CollectionRecord;
import org.rivermonitor.collector.Collector;
import org.rivermonitor.collector.LatestLevels;
import org.rivermonitor.db.Database;
import org.rivermonitor.generator.GeneratorServer;

class CollectorTest {

    private Database db;
    private final List<River> rivers = River.all(3, 42);
    private final LatestLevels levels = new LatestLevels(3);
    private final CollectionLog log = new CollectionLog(1000);

    @BeforeEach
    void openDb() throws Exception {
        db = new Database(Http.h2Url(), null, null, 2);
        db.createSchema();
    }

    @AfterEach
    void closeDb() {
        db.close();
    }

    @Test
    void collectionFetchesEveryRiverAndStoresIt() throws Exception {
        try (GeneratorServer g = new GeneratorServer("127.0.0.1", 0, 42, 3).start()) {
            Collector c = new Collector(rivers, g.url(), db, levels, log, Duration.ofSeconds(10));
            c.collect();
            c.collect();
            List<CollectionRecord> records = log.snapshot();
            assertThat(records).hasSize(2);
            CollectionRecord r = records.get(0);
            assertThat(r.readings()).isEqualTo(3);
            assertThat(r.errors()).isZero();
            assertThat(r.stored()).isTrue();
            assertThat(r.missedDeadline()).isFalse();
            assertThat(r.periodMs()).isEqualTo(10_000);
            assertThat(r.startMs()).isCloseTo(System.currentTimeMillis(), org.assertj.core.data.Offset.offset(10_000L));
            assertThat(db.countAll()).isEqualTo(6);
            assertThat(levels.snapshot()).extracting(Reading::riverId).containsExactly(1, 2, 3);
        }
    }

    @Test
    void slowCollectionMissesItsDeadlineAndCarriesOn() throws Exception {
        // A sensor service that takes 120 ms per reading: 3 rivers take > 300 ms, the period is 200 ms.
        Server slow = new Server();
        ServerConnector connector = new ServerConnector(slow);
        connector.setHost("127.0.0.1");
        slow.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.addServlet(new ServletHolder(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                try {
                    Thread.sleep(120);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                resp.setContentType("application/json");
                resp.getWriter().write("{\"river\":1,\"ts\":" + System.currentTimeMillis() + ",\"level_m\":1.5}");
            }
        }), "/sensors/*");
        slow.setHandler(context);
        slow.start();
        try {
            Collector c = new Collector(rivers, "http://127.0.0.1:" + connector.getLocalPort(), db, levels, log,
                    Duration.ofMillis(200));
            c.collect();
            CollectionRecord r = log.snapshot().get(0);
            assertThat(r.durationMs()).isGreaterThan(200);
            assertThat(r.missedDeadline()).isTrue();
            assertThat(r.readings()).isEqualTo(3);
            assertThat(db.countAll()).isEqualTo(3);
        } finally {
            slow.stop();
        }
    }

    @Test
    void unreachableGeneratorIsLoggedAndCounted() throws Exception {
        Collector c = new Collector(rivers, "http://127.0.0.1:" + Http.freePort(), db, levels, log,
                Duration.ofSeconds(5));
        c.collect();
        CollectionRecord r = log.snapshot().get(0);
        assertThat(r.readings()).isZero();
        assertThat(r.errors()).isEqualTo(3);
        assertThat(levels.snapshot()).isEmpty();
    }

    @Test
    void partialFailuresKeepTheOtherReadings() throws Exception {
        // The generator knows only 2 of the 3 rivers.
        try (GeneratorServer g = new GeneratorServer("127.0.0.1", 0, 42, 2).start()) {
            Collector c = new Collector(rivers, g.url(), db, levels, log, Duration.ofSeconds(5));
            c.collect();
            CollectionRecord r = log.snapshot().get(0);
            assertThat(r.readings()).isEqualTo(2);
            assertThat(r.errors()).isEqualTo(1);
            assertThat(db.countAll()).isEqualTo(2);
        }
    }

    @Test
    void aCollectionThatStartsAfterItsSlotRecordsHowLateItIs() throws Exception {
        try (GeneratorServer g = new GeneratorServer("127.0.0.1", 0, 42, 3).start()) {
            Collector c = new Collector(rivers, g.url(), db, levels, log, Duration.ofSeconds(1));
            c.collect(); // no schedule known: never late
            // Slots at now-2.5 s, now-1.5 s, now-0.5 s and now+0.5 s: the first three are owed.
            long now = System.nanoTime();
            c.scheduledFrom(now - 2_500_000_000L);
            c.collect();
            c.collect();
            List<CollectionRecord> rs = log.snapshot();
            assertThat(rs).hasSize(3);
            assertThat(rs.get(0).lateMs()).isZero();
            assertThat(rs.get(1).lateMs()).isBetween(2_500L, 2_500L + 5_000);
            // The second owed slot was due a period later, so it is a period less late.
            assertThat(rs.get(2).lateMs()).isBetween(rs.get(1).lateMs() - 1_000, rs.get(1).lateMs() - 1_000 + 5_000)
                    .isLessThan(rs.get(1).lateMs());
            assertThat(rs.get(1).missedDeadline()).isFalse(); // its duration was within the period
        }
    }

    @Test
    void aCollectionAheadOfItsSlotIsNotLate() throws Exception {
        try (GeneratorServer g = new GeneratorServer("127.0.0.1", 0, 42, 3).start()) {
            Collector c = new Collector(rivers, g.url(), db, levels, log, Duration.ofSeconds(10));
            c.scheduledFrom(System.nanoTime() + 5_000_000_000L);
            c.collect();
            assertThat(log.snapshot().get(0).lateMs()).isZero();
        }
    }

    @Test
    void logIsBounded() {
        CollectionLog small = new CollectionLog(3);
        for (int i = 0; i < 5; i++) {
            small.add(new CollectionRecord(i, 1, 1, 0, true, false, 10));
        }
        assertThat(small.snapshot()).extracting(CollectionRecord::startMs).containsExactly(2L, 3L, 4L);
    }
}
