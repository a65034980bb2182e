package org.rivermonitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The monitor against a real PostgreSQL server: a throw-away cluster started by
 * scripts/postgres-cluster.sh (which installs PostgreSQL with apt-get when it is missing).
 * Skipped, with the reason on stderr, only when the script reports that PostgreSQL cannot be
 * provided here (exit code 3: not root, no apt-get, install failed).
 */
class PostgresIntegrationTest {

    private static final Path SCRIPT = Path.of("scripts/postgres-cluster.sh");
    private static String pgDir;
    private static String jdbcUrl;

    @BeforeAll
    static void startPostgres() throws Exception {
        int port = Http.freePort();
        Path out = Files.createTempFile("pg-start", ".out");
        Path err = Files.createTempFile("pg-start", ".err");
        try {
            // with this JVM as the owner: a test run that is killed leaves no server behind
            Process p = new ProcessBuilder("bash", SCRIPT.toString(), "start", String.valueOf(port),
                    String.valueOf(ProcessHandle.current().pid()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(15, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IllegalStateException("postgres-cluster.sh start timed out");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            if (p.exitValue() == 3) {
                String reason = "PostgreSQL integration test SKIPPED: " + stderr.strip();
                System.err.println(reason);
                Assumptions.abort(reason);
            }
            assertThat(p.exitValue()).as("postgres-cluster.sh start failed:\n%s", stderr).isZero();
            for (String line : stdout.split("\n")) {
                if (line.startsWith("PGDIR=")) {
                    pgDir = line.substring(6).strip();
                } else if (line.startsWith("JDBC=")) {
                    jdbcUrl = line.substring(5).strip();
                }
            }
            assertThat(jdbcUrl).as("script output: %s", stdout).isNotNull();
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @AfterAll
    static void stopPostgres() throws IOException, InterruptedException {
        if (pgDir != null) {
            Process p = new ProcessBuilder("bash", SCRIPT.toString(), "stop", pgDir)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            p.waitFor(60, TimeUnit.SECONDS);
        }
    }

    @Test
    void collectorAndChartsWorkOnPostgres() throws Exception {
        Options o = Http.options("--rivers", "3", "--history-hours", "1", "--period", "0.5", "--jdbc-url", jdbcUrl);
        long seeded;
        try (RiverMonitor app = RiverMonitor.start(o)) {
            seeded = app.database().count(1);
            assertThat(seeded).isGreaterThanOrEqualTo(7190);
            await().atMost(Duration.ofSeconds(20)).until(() -> app.collections().snapshot().size() >= 2);
            assertThat(app.collections().snapshot()).allSatisfy(r -> {
                assertThat(r.stored()).isTrue();
                assertThat(r.readings()).isEqualTo(3);
            });
            assertThat(app.database().count(1)).isGreaterThan(seeded);
            for (int hours : new int[] {3, 12}) {
                Http.Response chart = Http.get(app.url() + "/chart?river=2&hours=" + hours);
                assertThat(chart.status()).isEqualTo(200);
                assertThat(Http.isPng(chart.body())).isTrue();
            }
            assertThat(Http.get(app.url() + "/chart?river=9&hours=3").status()).isEqualTo(400);
        }
        // A restart on the same database tops the history up instead of seeding it again.
        try (RiverMonitor app = RiverMonitor.start(o)) {
            long rows = app.database().count(1);
            assertThat(rows).isGreaterThan(seeded).isLessThan(seeded + 200);
        }
    }
}
