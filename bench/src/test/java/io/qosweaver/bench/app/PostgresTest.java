package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.run.Layout;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The run's throw-away PostgreSQL server: the script's answers read, and one real server started and stopped. */
class PostgresTest {
    @TempDir
    Path tmp;

    @Test
    void theScriptsLinesGiveTheServerAndBatchedInsertsAreRewritten() throws IOException {
        Postgres pg = Postgres.parse(tmp, 0, "installing\nPGDIR=/tmp/river-pg.abc\nJDBC=jdbc:postgresql://127.0.0.1:5"
                + "433/river?user=postgres\n", "");
        assertThat(pg.jdbcUrl()).isEqualTo("jdbc:postgresql://127.0.0.1:5433/river?user=postgres"
                + "&reWriteBatchedInserts=true");
        assertThat(pg.appArgs()).containsExactly("--jdbc-url", pg.jdbcUrl());
        assertThat(Postgres.parse(tmp, 0, "PGDIR=/d\nJDBC=jdbc:postgresql://h/db\n", "").jdbcUrl())
                .isEqualTo("jdbc:postgresql://h/db?reWriteBatchedInserts=true");
    }

    @Test
    void aMachineWithoutPostgresAndAFailedStartAreSaidInTheScriptsOwnWords() {
        assertThatThrownBy(() -> Postgres.parse(tmp, Postgres.CANNOT, "", "CANNOT: PostgreSQL is not installed and we "
                + "are not root\n")).hasMessage("--postgres: PostgreSQL cannot be provided on this machine: CANNOT: "
                + "PostgreSQL is not installed and we are not root");
        assertThatThrownBy(() -> Postgres.parse(tmp, 1, "", "initdb: error: directory exists"))
                .hasMessageContaining("start failed (exit 1): initdb: error: directory exists");
        assertThatThrownBy(() -> Postgres.parse(tmp, 0, "PGDIR=/d\n", "")).hasMessageContaining("no PGDIR= and JDBC=");
    }

    @Test
    void aStopThatFailsSaysWhyInTheScriptsWords() throws IOException {
        Path script = Files.writeString(tmp.resolve("failing.sh"), "echo \"pg_ctl: no server running\" >&2; exit 4\n");
        Postgres pg = new Postgres(script, tmp.resolve("nowhere").toString(), "jdbc:postgresql://127.0.0.1:1/river");
        assertThatThrownBy(pg::close).isInstanceOf(IOException.class)
                .hasMessageContaining("stop " + tmp.resolve("nowhere") + " failed (exit 4): pg_ctl: no server running");
    }

    @Test
    void aMissingScriptIsNamed() {
        assertThatThrownBy(() -> Postgres.start(tmp, line -> { })).hasMessageContaining(Postgres.SCRIPT + " is missing");
    }

    @Test
    void aRealServerAcceptsConnectionsOnItsPortUntilItIsClosedAndLeavesNoDataBehind() throws Exception {
        List<String> progress = new ArrayList<>();
        Postgres pg;
        try {
            pg = Postgres.start(Layout.find().root(), progress::add);
        } catch (IOException e) {
            Assumptions.assumeFalse(e.getMessage().contains("cannot be provided"), "SKIPPED: " + e.getMessage());
            throw e;
        }
        URI uri = URI.create(pg.jdbcUrl().substring("jdbc:".length()));
        try (pg) {
            assertThat(progress).singleElement().asString().contains("starting a throw-away PostgreSQL server");
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 5000);
                assertThat(s.isConnected()).isTrue();
            }
        }
        assertThatThrownBy(() -> {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2000);
            }
        }).as("stopped").isInstanceOf(IOException.class);
        assertThat(Path.of(pg.dataDir())).as("the data directory deleted").doesNotExist();
        pg.close(); // a second close does nothing
    }

    /**
     * Null when nothing listens at the server's address any more; else what answered, for the failure's message.
     * A connection whose local port is the port connected to is the kernel joining the socket to itself (a TCP
     * self-connect, possible when nothing listens on a port of the ephemeral range, which the server's port is):
     * nothing listens then either.
     */
    private static String whatAnswers(URI uri, String dir) throws IOException, InterruptedException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2000);
            if (s.getLocalPort() == uri.getPort()) {
                return null;
            }
            Process ps = new ProcessBuilder("sh", "-c", "ps -eo pid,args | grep -F " + dir + " | grep -v grep")
                    .redirectErrorStream(true).start();
            String procs = new String(ps.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            ps.waitFor(10, TimeUnit.SECONDS);
            return "a connection from local port " + s.getLocalPort() + "; processes naming " + dir + ": "
                    + (procs.isEmpty() ? "none" : procs);
        } catch (java.net.ConnectException | java.net.SocketTimeoutException refused) {
            return null;
        }
    }

    /**
     * Null once nothing answers at the server's address and its directory is gone, within the time given; else
     * what still answers or remains. The run's own hook stops the server before the run exits; the script's watcher
     * takes up to a second to see the run gone, then as long as a stop takes.
     */
    private static String awaitStopped(URI uri, String dir, long seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            String answers = whatAnswers(uri, dir);
            String left = answers != null ? answers : Files.exists(Path.of(dir)) ? "its data directory " + dir : null;
            if (left == null || System.nanoTime() > deadline) {
                return left;
            }
            Thread.sleep(200);
        }
    }

    @Test
    void aRunKilledBySigtermStopsItsServerAndSaysSo() throws Exception {
        killedRunLeavesNoServer(Kill.SIGTERM);
    }

    @Test
    void aRunKilledBySigtermWhoseOutputIsGoneStillStopsItsServer() throws Exception {
        killedRunLeavesNoServer(Kill.SIGTERM_OUTPUT_CLOSED);
    }

    @Test
    void aRunKilledBySigkillHasItsServerStoppedByTheScriptsWatcher() throws Exception {
        killedRunLeavesNoServer(Kill.SIGKILL);
    }

    private enum Kill {
        /** A user's {@code kill}: the run's output is still read. */
        SIGTERM,
        /**
         * SIGTERM with the run's output closed (Process.destroy closes the parent's ends, as a pipeline whose reader
         * ended does): the hook and its stop script then meet a broken pipe at their first line.
         */
        SIGTERM_OUTPUT_CLOSED,
        /** No hook runs: only the script's watcher can stop the server. */
        SIGKILL
    }

    private void killedRunLeavesNoServer(Kill kill) throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), PostgresChildMain.class.getName())
                .directory(Layout.find().root().toFile()).redirectErrorStream(true).start();
        String jdbc = null;
        String dir = null;
        String signals = null;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line; dir == null && (line = out.readLine()) != null; ) {
                Assumptions.assumeFalse(line.startsWith("FAILED") && line.contains("cannot be provided"),
                        "SKIPPED: " + line);
                assertThat(line).doesNotStartWith("FAILED");
                if (line.startsWith("JDBC=")) {
                    jdbc = line.substring("JDBC=".length());
                } else if (line.startsWith("DIR=")) {
                    dir = line.substring("DIR=".length());
                } else if (line.startsWith("SIGNALS=")) {
                    signals = line.substring("SIGNALS=".length());
                }
            }
            assertThat(jdbc).as("the child's server").isNotNull();
            assertThat(dir).isNotNull();
            URI uri = URI.create(jdbc.substring("jdbc:".length()));
            assertThat(whatAnswers(uri, dir)).as("the child's server runs").isNotNull();
            switch (kill) {
                case SIGTERM -> assertThat(child.toHandle().destroy()).as("SIGTERM sent").isTrue();
                case SIGTERM_OUTPUT_CLOSED -> child.destroy();
                case SIGKILL -> child.destroyForcibly();
            }
            assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("the child exited").isTrue();
            if (kill != Kill.SIGKILL) { // the hook stops the server before the run exits
                StringBuilder said = new StringBuilder();
                while (kill == Kill.SIGTERM && out.ready()) { // what the run wrote after DIR=, without waiting for more
                    said.append((char) out.read());
                }
                assertThat(whatAnswers(uri, dir)).as("the server stopped with the run (exit %d, signals %s), which "
                        + "said after DIR=: %s", child.exitValue(), signals, said).isNull();
                if (kill == Kill.SIGTERM) {
                    assertThat(said.toString()).contains("[postgres] the run is ending: stopping the server in " + dir);
                }
            }
            assertThat(awaitStopped(uri, dir, 30)).as("the server stopped and its directory deleted").isNull();
        } finally {
            child.destroyForcibly();
            if (dir != null && Files.exists(Path.of(dir))) { // nothing stopped it: leave no server behind
                new Postgres(Layout.find().root().resolve(Postgres.SCRIPT), dir, jdbc).close();
            }
        }
    }
}
