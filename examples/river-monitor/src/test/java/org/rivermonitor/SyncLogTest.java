package org.rivermonitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rivermonitor.log.SyncLog;

/** {@code --sync-log}: the paper's synchronized logger, written by the collector and by every chart. */
class SyncLogTest {

    @Test
    void offByDefault() throws Exception {
        assertThat(Options.parse().syncLog).isNull();
        assertThat(Options.parse("--sync-log", "memory").syncLog).isEqualTo("memory");
        assertThat(Options.parse("--sync-log=/tmp/x.log").syncLog).isEqualTo("/tmp/x.log");
        assertThatThrownBy(() -> Options.parse("--sync-log", " ")).isInstanceOf(Options.UsageException.class);
        assertThat(Options.USAGE).contains("--sync-log FILE|memory");
        Options o = Http.options("--rivers", "2", "--history-hours", "0.2", "--period", "0.2", "--jdbc-url", Http.h2Url());
        try (RiverMonitor app = RiverMonitor.start(o)) {
            assertThat(app.syncLog()).isNull();
        }
    }

    @Test
    void theCollectorWritesOneLinePerReadingAndEveryChartOne() throws Exception {
        Options o = Http.options("--rivers", "3", "--history-hours", "0.5", "--period", "0.3", "--sync-log", "memory",
                "--jdbc-url", Http.h2Url());
        try (RiverMonitor app = RiverMonitor.start(o)) {
            assertThat(Http.get(app.url() + "/chart?river=2&hours=3").status()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(20)).until(() -> app.syncLog().collections() >= 3);
            SyncLog log = app.syncLog();
            assertThat(log.generations()).isEqualTo(1);
            String text = log.memoryText();
            assertThat(text).containsPattern("generation river=2 hours=3 points=\\d+");
            assertThat(text).containsPattern("collection river=[123] level_m=");
            // a bad request draws no chart, so it writes no line
            assertThat(Http.get(app.url() + "/chart?river=2&hours=5").status()).isEqualTo(400);
            assertThat(log.generations()).isEqualTo(1);
        }
    }

    @Test
    void aFileLogHasEveryLineOnceTheAppStops(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("logs/sync.log");
        Options o = Http.options("--rivers", "2", "--history-hours", "0.2", "--period", "0.2", "--sync-log",
                file.toString(), "--jdbc-url", Http.h2Url());
        long collections;
        try (RiverMonitor app = RiverMonitor.start(o)) {
            Http.get(app.url() + "/chart?river=1&hours=3");
            Http.get(app.url() + "/chart?river=2&hours=6");
            await().atMost(Duration.ofSeconds(20)).until(() -> app.syncLog().collections() >= 2);
            app.close(); // the collector may write more lines until then: count after it
            collections = app.syncLog().collections();
        }
        var lines = Files.readAllLines(file);
        assertThat(lines.stream().filter(l -> l.contains(" generation ")).count()).isEqualTo(2);
        assertThat(lines.stream().filter(l -> l.contains(" collection ")).count()).isEqualTo(collections);
    }

    /**
     * The shape the deadlock experiment relies on: both writers take the log's monitor, and the
     * generation line is formatted in a plain method, where a control point cannot know that its
     * caller holds a monitor.
     */
    @Test
    void theWritersAreSynchronizedAndTheirFormattingIsNot() throws Exception {
        assertThat(Modifier.isSynchronized(SyncLog.class.getMethod("writeCollection", Reading.class).getModifiers()))
                .isTrue();
        assertThat(Modifier.isSynchronized(SyncLog.class.getMethod("writeGeneration", int.class, int.class, int.class)
                .getModifiers())).isTrue();
        var format = SyncLog.class.getDeclaredMethod("formatGeneration", long.class, int.class, int.class, int.class);
        assertThat(Modifier.isSynchronized(format.getModifiers())).isFalse();
        assertThat(format.getReturnType()).isEqualTo(String.class);
    }
}
