package org.rivermonitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rivermonitor.chart.WaterLevelChart;

/** The whole application in-process (generator, H2, web server, collector every 0.5 s). */
class RiverMonitorTest {

    private static RiverMonitor app;
    private static String base;
    private static final ObjectMapper JSON = new ObjectMapper();

    @BeforeAll
    static void start() throws Exception {
        Options o = Http.options("--rivers", "4", "--history-hours", "0.5", "--period", "0.5",
                "--jdbc-url", Http.h2Url());
        app = RiverMonitor.start(o);
        base = app.url();
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @Test
    void listeningLineHasBothUrls() {
        assertThat(app.listeningLine()).matches(
                "river-monitor listening on http://127\\.0\\.0\\.1:\\d+ \\(generator http://127\\.0\\.0\\.1:\\d+\\)");
        assertThat(app.port()).isPositive();
    }

    @Test
    void historyIsSeeded() throws Exception {
        // 0.5 h at 0.5 s = 3600 rows per river before the first collection.
        assertThat(app.database().count(1)).isGreaterThanOrEqualTo(3590);
        assertThat(app.levels().snapshot()).hasSize(4);
    }

    @Test
    void chartIsAPng() throws Exception {
        for (int hours : new int[] {3, 6, 12, 24}) {
            Http.Response r = Http.get(base + "/chart?river=2&hours=" + hours);
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.contentType()).isEqualTo("image/png");
            assertThat(Http.isPng(r.body())).isTrue();
            assertThat(r.body().length).isGreaterThan(10_000);
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(r.body()));
            assertThat(image.getWidth()).isEqualTo(WaterLevelChart.WIDTH);
            assertThat(image.getHeight()).isEqualTo(WaterLevelChart.HEIGHT);
        }
    }

    @Test
    void chartRejectsBadInput() throws Exception {
        assertBadRequest("/chart?hours=3", "river");
        assertBadRequest("/chart?river=5&hours=3", "unknown river");
        assertBadRequest("/chart?river=0&hours=3", "unknown river");
        assertBadRequest("/chart?river=abc&hours=3", "unknown river");
        assertBadRequest("/chart?river=1", "hours");
        assertBadRequest("/chart?river=1&hours=7", "bad 'hours'");
        assertBadRequest("/chart?river=1&hours=x", "bad 'hours'");
    }

    private static void assertBadRequest(String path, String message) throws Exception {
        Http.Response r = Http.get(base + path);
        assertThat(r.status()).as(path).isEqualTo(400);
        assertThat(r.text()).as(path).contains(message);
    }

    @Test
    void levelsPageListsEveryRiver() throws Exception {
        Http.Response r = Http.get(base + "/levels");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.contentType()).startsWith("text/html");
        for (River river : app.rivers()) {
            assertThat(r.text()).contains(river.name()).contains("chart?river=" + river.id() + "&amp;hours=12");
        }
        assertThat(r.text()).contains("<table").contains("levels.png");
    }

    @Test
    void levelsImageIsAPng() throws Exception {
        Http.Response r = Http.get(base + "/levels.png");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.contentType()).isEqualTo("image/png");
        assertThat(Http.isPng(r.body())).isTrue();
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(r.body()));
        assertThat(image.getHeight()).isPositive();
    }

    @Test
    void indexLinksThePages() throws Exception {
        Http.Response r = Http.get(base + "/");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.text()).contains("levels").contains("chart?");
    }

    @Test
    void collectorRunsAndIsReported() throws Exception {
        long rowsBefore = app.database().count(3);
        long tsBefore = app.levels().get(3).ts();
        long testStart = System.currentTimeMillis();
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(200))
                .until(() -> app.collections().snapshot().stream().filter(c -> c.startMs() > testStart).count() >= 2
                        && app.collections().snapshot().size() >= 3); // a loaded machine may be slow to start
        assertThat(app.database().count(3)).isGreaterThan(rowsBefore);
        assertThat(app.levels().get(3).ts()).isGreaterThan(tsBefore);

        Http.Response r = Http.get(base + "/status/collections");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.contentType()).startsWith("application/json");
        JsonNode json = JSON.readTree(r.body());
        assertThat(json.get("period_ms").asLong()).isEqualTo(500);
        assertThat(json.get("rivers").asInt()).isEqualTo(4);
        JsonNode collections = json.get("collections");
        assertThat(collections.isArray()).isTrue();
        assertThat(collections.size()).isGreaterThanOrEqualTo(3).isEqualTo(json.get("count").asInt());
        long prevStart = 0;
        for (JsonNode c : collections) {
            assertThat(c.get("start_ms").asLong()).isGreaterThan(System.currentTimeMillis() - 60_000)
                    .isGreaterThanOrEqualTo(prevStart);
            prevStart = c.get("start_ms").asLong();
            assertThat(c.get("duration_ms").isIntegralNumber()).isTrue();
            assertThat(c.get("readings").asInt()).isEqualTo(4);
            assertThat(c.get("errors").asInt()).isZero();
            assertThat(c.get("stored").asBoolean()).isTrue();
            assertThat(c.get("missed_deadline").asBoolean()).isEqualTo(c.get("duration_ms").asLong() > 500);
            assertThat(c.get("period_ms").asLong()).isEqualTo(500);
            assertThat(c.get("late_ms").isIntegralNumber()).isTrue();
            assertThat(c.get("late_ms").asLong()).isNotNegative();
        }
        // The timer's own schedule: 4-river collections keep up, so the latest started within its slot.
        assertThat(collections.get(collections.size() - 1).get("late_ms").asLong()).isLessThan(500);
        long last = collections.get(collections.size() - 1).get("start_ms").asLong();
        JsonNode since = JSON.readTree(Http.get(base + "/status/collections?since=" + last).body());
        assertThat(since.get("collections").size()).isGreaterThanOrEqualTo(1);
        assertThat(since.get("collections").get(0).get("start_ms").asLong()).isGreaterThanOrEqualTo(last);
        assertThat(Http.get(base + "/status/collections?since=x").status()).isEqualTo(400);
    }
}
