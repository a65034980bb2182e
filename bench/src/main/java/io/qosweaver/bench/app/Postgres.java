package io.qosweaver.bench.app;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A throw-away PostgreSQL server for one run of the river monitor: the paper's database (Kasendas kept its readings
 * in PostgreSQL), which keeps the seeded history outside the app's heap. In H2's in-memory store the history of 900
 * rivers held 3.3-3.7 GB of a 5.9 GB heap, above G1's initiating occupancy, so G1 marked back to back in every
 * version and decided the chart figures (bench/results/deadline/gc-2026-11-28/).
 *
 * <p>Started and stopped by the river monitor's own script, {@value #SCRIPT} (a data directory under {@code /tmp},
 * loopback only, fsync off; it installs PostgreSQL with apt-get when the run is root and it is missing). Two things
 * stop it: {@link #close()}, or a shutdown hook on Ctrl-C and SIGTERM, before the run returns; and, when no hook ran
 * (SIGKILL) or one did not finish, the script's watcher, a detached process that waits for this JVM's end. One server
 * serves every version and window of the run: the first app process seeds the history, each later one only tops it
 * up from the newest row it finds ({@code HistorySeeder}), so the history a chart reads is the same for all.
 */
public final class Postgres implements AutoCloseable {
    /** The script, from the project's root. */
    public static final String SCRIPT = "examples/river-monitor/scripts/postgres-cluster.sh";
    /** The script's exit code for "PostgreSQL cannot be provided on this machine". */
    static final int CANNOT = 3;

    private final Path script;
    private final String dataDir;
    private final String jdbcUrl;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Stops the server when the run is interrupted (Ctrl-C, SIGTERM), where no finally block of main runs. */
    private final Thread stopOnExit = new Thread(this::stopOnExit, "qosweaver-bench-stop-postgres");

    Postgres(Path script, String dataDir, String jdbcUrl) {
        this.script = script;
        this.dataDir = dataDir;
        this.jdbcUrl = jdbcUrl;
    }

    /** Starts a server on a free loopback port; fails with the script's own words when it cannot. */
    public static Postgres start(Path root, Progress progress) throws IOException, InterruptedException {
        Path script = root.resolve(SCRIPT);
        if (!Files.isRegularFile(script)) {
            throw new IOException("--postgres: " + script + " is missing");
        }
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        progress.update("[postgres] starting a throw-away PostgreSQL server on 127.0.0.1:" + port + " (" + SCRIPT + ")");
        Path out = Files.createTempFile("qosweaver-pg", ".out");
        Path err = Files.createTempFile("qosweaver-pg", ".err");
        try {
            // This process as the owner: the script's watcher stops the server even when no hook of ours runs.
            Process p = new ProcessBuilder("bash", script.toString(), "start", Integer.toString(port),
                    Long.toString(ProcessHandle.current().pid()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(15, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException("--postgres: " + SCRIPT + " start did not finish within 15 minutes");
            }
            Postgres pg = parse(script, p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
            Runtime.getRuntime().addShutdownHook(pg.stopOnExit);
            return pg;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The server the script's output names, or the reason it gave. */
    static Postgres parse(Path script, int exit, String stdout, String stderr) throws IOException {
        if (exit == CANNOT) {
            throw new IOException("--postgres: PostgreSQL cannot be provided on this machine: " + stderr.strip());
        }
        if (exit != 0) {
            throw new IOException("--postgres: " + SCRIPT + " start failed (exit " + exit + "): " + tail(stderr));
        }
        String dir = null;
        String url = null;
        for (String line : stdout.split("\n")) {
            if (line.startsWith("PGDIR=")) {
                dir = line.substring("PGDIR=".length()).strip();
            } else if (line.startsWith("JDBC=")) {
                url = line.substring("JDBC=".length()).strip();
            }
        }
        if (dir == null || url == null) {
            throw new IOException("--postgres: " + SCRIPT + " start printed no PGDIR= and JDBC= lines: " + tail(stdout));
        }
        // Seeding inserts millions of rows in JDBC batches: the driver sends each batch as multi-row INSERTs.
        return new Postgres(script, dir, url + (url.contains("?") ? "&" : "?") + "reWriteBatchedInserts=true");
    }

    private static String tail(String s) {
        String t = s.strip();
        return t.length() <= 2000 ? t : "..." + t.substring(t.length() - 2000);
    }

    String dataDir() {
        return dataDir;
    }

    public String jdbcUrl() {
        return jdbcUrl;
    }

    /** The river monitor's arguments that put its database on this server. */
    public List<String> appArgs() {
        return List.of("--jdbc-url", jdbcUrl);
    }

    /** Stops the server and deletes its data directory; a second call does nothing. */
    @Override
    public void close() throws IOException, InterruptedException {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException | IllegalArgumentException shuttingDownOrNeverAdded) {
            // Called from the hook itself, or on a server that parse() made without start().
        }
        stop();
    }

    private void stopOnExit() {
        System.err.println("[postgres] the run is ending: stopping the server in " + dataDir);
        stopQuietly();
    }

    private void stopQuietly() {
        try {
            close();
        } catch (IOException | InterruptedException e) {
            System.err.println("[postgres] could not stop the server in " + dataDir + ": " + e.getMessage());
        }
    }

    /**
     * Runs the script's {@code stop}. Its output goes to a file and not to this process's own streams: a run whose
     * reader is gone (a pipeline's end closed, a parent that killed it and closed its pipes) would give the script
     * SIGPIPE at its first line, before it had stopped anything.
     */
    private void stop() throws IOException, InterruptedException {
        Path err = Files.createTempFile("qosweaver-pg-stop", ".err");
        try {
            Process p = new ProcessBuilder("bash", script.toString(), "stop", dataDir)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile())
                    .start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("--postgres: " + SCRIPT + " stop " + dataDir + " did not finish within 60 s");
            }
            if (p.exitValue() != 0) {
                throw new IOException("--postgres: " + SCRIPT + " stop " + dataDir + " failed (exit " + p.exitValue()
                        + "): " + tail(Files.readString(err)));
            }
        } finally {
            Files.deleteIfExists(err);
        }
    }
}
