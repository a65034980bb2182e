package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An interrupted harness leaves no app running: the app of a SIGTERMed harness JVM goes with it. */
class AppProcessShutdownTest {

    /** The "app": says it is ready, then sleeps until killed. */
    public static final class SleepingApp {
        public static void main(String[] args) throws Exception {
            System.out.println("sleeper listening on http://127.0.0.1:1");
            System.out.flush();
            Thread.sleep(600_000);
        }
    }

    /** The "harness": starts the app through AppProcess, prints its pid, and waits. */
    public static final class Harness {
        public static void main(String[] args) throws Exception {
            AppProcess app = AppProcess.start(List.of(), List.of("-cp", System.getProperty("java.class.path"),
                    SleepingApp.class.getName()), List.of(), Path.of(args[0]));
            app.awaitReady(java.time.Duration.ofSeconds(30));
            System.out.println("APP_PID=" + app.pid());
            System.out.flush();
            Thread.sleep(600_000);
        }
    }

    @TempDir
    Path dir;

    @Test
    void theAppOfAHarnessEndedBySigtermIsStopped() throws Exception {
        Process harness = new ProcessBuilder(AppProcess.javaExecutable(), "-cp", System.getProperty("java.class.path"),
                Harness.class.getName(), dir.resolve("app.log").toString()).redirectErrorStream(true).start();
        long pid = -1;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(harness.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("APP_PID=")) {
                    pid = Long.parseLong(line.substring("APP_PID=".length()));
                    break;
                }
            }
            assertThat(pid).as("the harness started its app").isPositive();
            Optional<ProcessHandle> app = ProcessHandle.of(pid);
            assertThat(app).isPresent();
            assertThat(app.get().isAlive()).isTrue();

            harness.destroy(); // SIGTERM, as Ctrl-C or a kill would
            assertThat(harness.waitFor(30, TimeUnit.SECONDS)).isTrue();
            app.get().onExit().get(30, TimeUnit.SECONDS);
            assertThat(app.get().isAlive()).as("the app outlived its harness").isFalse();
        } finally {
            harness.destroyForcibly();
            if (pid > 0) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
        }
    }
}
