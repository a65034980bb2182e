package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qosweaver.platform.ProcThreadStat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The threads that copy an app's output can be lowered below the harness (a server that logs every
 * request must not have its log reader preempt it on the cores it is measured on), and they still copy
 * every line after it.
 */
class AppProcessOutputReadersTest {

    /** The "app": a line on each stream every 100 ms, numbered. */
    public static final class TalkingApp {
        public static void main(String[] args) throws Exception {
            for (int i = 1; ; i++) {
                System.out.println("out " + i);
                System.err.println("err " + i);
                Thread.sleep(100);
            }
        }
    }

    @Test
    void theOutputReadersRunAtTheGivenNiceAndKeepCopyingBothStreams(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(System.getProperty("os.name").startsWith("Linux"), "per-thread nice values: Linux only");
        Path log = dir.resolve("app.log");
        try (AppProcess app = AppProcess.start(List.of(), List.of("-cp", System.getProperty("java.class.path"),
                TalkingApp.class.getName()), List.of(), log)) {
            assertThat(app.outputReadersAtNice(10)).isNull();
            int[] tids = app.outputReaderTids();
            assertThat(tids).hasSize(2).doesNotContain(-1);
            assertThat(tids[0]).isNotEqualTo(tids[1]);
            for (int tid : tids) {
                assertThat(ProcThreadStat.nice(tid)).as("reader " + tid).isEqualTo(10);
            }
            int before = Files.readAllLines(log).size();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                List<String> lines = Files.readAllLines(log);
                assertThat(lines.size()).isGreaterThan(before + 4);
                assertThat(String.join("\n", lines)).contains("out 5").contains("err 5");
            });
        }
    }
}
