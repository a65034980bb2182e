package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An app that hangs before it is ready is reported with where it hangs, not only with its silent output. */
class AppProcessStartTest {

    /** The "app": prints a line, then hangs in a method whose name the error must carry. */
    public static final class HangingApp {
        public static void main(String[] args) throws Exception {
            System.out.println("starting");
            System.out.flush();
            hangsBeforeItIsReady();
        }

        static void hangsBeforeItIsReady() throws InterruptedException {
            Thread.sleep(600_000);
        }
    }

    @Test
    void aStartThatTimesOutNamesWhereTheMainThreadWasAndLogsEveryThread(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("app.log");
        try (AppProcess app = AppProcess.start(List.of(), List.of("-cp", System.getProperty("java.class.path"),
                HangingApp.class.getName()), List.of(), log)) {
            assertThatThrownBy(() -> app.awaitReady(Duration.ofSeconds(3)))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("no 'listening on http://...' line within 3 s")
                    .hasMessageContaining("its main thread:")
                    .hasMessageContaining("HangingApp.hangsBeforeItIsReady")
                    .hasMessageEndingWith("starting");
            String logged = Files.readString(log);
            assertThat(logged).contains("threads: \"main\"").contains("threads: \"Reference Handler\"");
        }
    }

    /** The "app": says what it does every 300 ms for 2.4 s (a long seeding), then is ready. */
    public static final class SlowButTalkingApp {
        public static void main(String[] args) throws Exception {
            for (int i = 1; i <= 8; i++) {
                System.out.println("seeding history: " + i + " of 8");
                System.out.flush();
                Thread.sleep(300);
            }
            System.out.println("river-monitor listening on http://127.0.0.1:1");
            System.out.flush();
            Thread.sleep(600_000);
        }
    }

    @Test
    void aStartThatKeepsPrintingIsWaitedForPastTheQuietTime(@TempDir Path dir) throws Exception {
        try (AppProcess app = AppProcess.start(List.of(), List.of("-cp", System.getProperty("java.class.path"),
                SlowButTalkingApp.class.getName()), List.of(), dir.resolve("app.log"))) {
            long t0 = System.nanoTime();
            assertThat(app.awaitReady(Duration.ofSeconds(1))).hasToString("http://127.0.0.1:1");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("longer than the quiet time")
                    .isGreaterThan(Duration.ofMillis(1500));
        }
    }

    @Test
    void theMainThreadIsCutFromADumpAtItsEndOrItsTwelfthLine() {
        String dump = "Full thread dump\n\n\"main\" #1 prio=5\n   java.lang.Thread.State: TIMED_WAITING\n"
                + "\tat a.B.c(B.java:1)\n\n\"Reference Handler\" #2\n";
        assertThat(AppProcess.mainThread(dump))
                .isEqualTo("\"main\" #1 prio=5\n   java.lang.Thread.State: TIMED_WAITING\n\tat a.B.c(B.java:1)");
        StringBuilder deep = new StringBuilder("x\n\"main\" #1\n");
        for (int i = 0; i < 30; i++) {
            deep.append("\tat f").append(i).append('\n');
        }
        assertThat(AppProcess.mainThread(deep.toString()).split("\n")).hasSize(12);
        assertThat(AppProcess.mainThread("\"worker\" #3\n")).isNull();
    }
}
