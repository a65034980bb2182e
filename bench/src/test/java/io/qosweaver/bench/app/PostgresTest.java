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

    @Test
    void aRunKilledBySigtermStopsItsServer() throws Exception {
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), PostgresChildMain.class.getName())
                .directory(Layout.find().root().toFile()).redirectErrorStream(true).start();
        String jdbc = null;
        String dir = null;
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
                }
            }
            assertThat(jdbc).as("the child's server").isNotNull();
            assertThat(dir).isNotNull();
            URI uri = URI.create(jdbc.substring("jdbc:".length()));
            child.destroy(); // SIGTERM, as a user's kill or a CI time-out sends it
            assertThat(child.waitFor(90, TimeUnit.SECONDS)).as("the child exited").isTrue();
            assertThatThrownBy(() -> {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 2000);
                }
            }).as("the server stopped with the run").isInstanceOf(IOException.class);
            assertThat(Path.of(dir)).as("its data directory deleted").doesNotExist();
        } finally {
            child.destroyForcibly();
            if (dir != null && Files.exists(Path.of(dir))) { // the hook failed: leave no server behind
                new Postgres(Layout.find().root().resolve(Postgres.SCRIPT), dir, jdbc).close();
            }
        }
    }
}
