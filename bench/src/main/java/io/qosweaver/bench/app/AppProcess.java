package io.qosweaver.bench.app;

import io.qosweaver.platform.LinuxThreads;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The river monitor (or any app that keeps its contract) as a child JVM: started with the
 * given JVM flags, its stdout and stderr copied to a log file, considered ready when it prints
 * {@code ... listening on http://HOST:PORT ...}. If the QoSWeaver agent prints
 * {@code [qosweaver] metrics on URL}, that URL is kept for scraping.
 *
 * <p>A child outlives nothing: when the harness's JVM ends (an experiment interrupted with
 * Ctrl-C, or killed with SIGTERM), a shutdown hook stops every child still running, so that no
 * app is left loading the machine that the next run measures on.
 */
public final class AppProcess implements AutoCloseable {
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(AppProcess::stopAll, "qosweaver-bench-stop-children"));
    }

    static final Pattern READY = Pattern.compile("(?<!generator )listening on (http://[^\\s()]+)");
    static final Pattern METRICS = Pattern.compile("\\[qosweaver\\] metrics on (http://\\S+)");

    private final Process process;
    private final CompletableFuture<URI> ready = new CompletableFuture<>();
    private volatile URI metrics;
    private final Deque<String> tail = new ArrayDeque<>();
    /** The first line that looks like an error (an exception or an ERROR/SEVERE log line), or null. */
    private String firstError;
    /** Every line the agent printed ({@code [qosweaver] ...}); few, so all are kept. */
    private final List<String> agentLines = new ArrayList<>();
    private final BufferedWriter log;
    /** When the app last printed a line (its start until then); guarded by this. */
    private long lastOutputNanos = System.nanoTime();
    /** The kernel thread ids of the two threads that read the app's output, once they run (-1: unknown). */
    private final int[] readerTids = {-1, -1};
    private final CountDownLatch readersStarted = new CountDownLatch(2);

    private AppProcess(Process process, Path logFile) throws IOException {
        this.process = process;
        Files.createDirectories(logFile.toAbsolutePath().getParent());
        this.log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8);
        pump(process.getInputStream(), "out", 0);
        pump(process.getErrorStream(), "err", 1);
        process.onExit().thenRun(() -> ready.completeExceptionally(
                new IOException("the app exited with code " + process.exitValue() + " before it was ready; last lines:\n"
                        + tail())));
    }

    /**
     * Starts {@code java <jvmArgs> <appCommand> <appArgs>} where {@code appCommand} is e.g.
     * {@code -jar river-monitor.jar} or {@code -cp CP MainClass}.
     */
    public static AppProcess start(List<String> jvmArgs, List<String> appCommand, List<String> appArgs, Path logFile)
            throws IOException {
        return start(jvmArgs, appCommand, appArgs, logFile, null);
    }

    /**
     * As {@link #start(List, List, List, Path)}, in the working directory {@code workDir} (null: this
     * JVM's): third-party servers write their state (Fuseki's {@code run/}) where they are started.
     */
    public static AppProcess start(List<String> jvmArgs, List<String> appCommand, List<String> appArgs, Path logFile,
            Path workDir) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable());
        cmd.addAll(jvmArgs);
        cmd.addAll(appCommand);
        cmd.addAll(appArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (workDir != null) {
            pb.directory(workDir.toFile());
        }
        Process p = pb.start();
        LIVE.add(p);
        p.onExit().thenRun(() -> LIVE.remove(p));
        AppProcess app = new AppProcess(p, logFile);
        app.logLine("cmd", String.join(" ", cmd));
        return app;
    }

    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private void pump(InputStream in, String stream, int index) {
        Thread t = new Thread(() -> {
            readerTids[index] = LinuxThreads.currentTid();
            readersStarted.countDown();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    logLine(stream, line);
                    Matcher m = READY.matcher(line);
                    if (!ready.isDone() && m.find()) {
                        ready.complete(URI.create(stripSlash(m.group(1))));
                    }
                    Matcher mm = METRICS.matcher(line);
                    if (mm.find()) {
                        metrics = URI.create(mm.group(1));
                    }
                }
            } catch (IOException ignored) {
                // the process went away
            }
        }, "app-" + stream);
        t.setDaemon(true);
        t.start();
    }

    /**
     * Lowers the two threads that copy the app's output to its log to {@code nice}: a server that
     * logs every request wakes them once a request, and at the harness's nice 0 they would preempt
     * the app's own threads on the cores the measurement shares with it (a measurement's artifact,
     * not the app's: in production its log goes to a file or a collector elsewhere). Lowering needs
     * no privilege; the pipe is still drained (a few lines a request take microseconds).
     *
     * @return null when done, else why not (not Linux, no native access, or the kernel refused), for
     *     the caller to report: the measurement is then as before, not broken
     */
    public String outputReadersAtNice(int nice) throws InterruptedException {
        if (!readersStarted.await(5, TimeUnit.SECONDS)) {
            return "the output readers did not start in 5 s";
        }
        for (int tid : readerTids) {
            String why = OsNice.set(tid, nice);
            if (why != null) {
                return "the output reader " + tid + ": " + why;
            }
        }
        return null;
    }

    /** The output readers' kernel thread ids (-1 until each runs, or where they cannot be known). */
    int[] outputReaderTids() {
        return readerTids.clone();
    }

    private static String stripSlash(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    static final Pattern ERROR_LINE = Pattern.compile("Exception|\\bERROR\\b|\\bSEVERE\\b|^Error:");

    private synchronized void logLine(String stream, String line) {
        if (!stream.equals("cmd")) {
            lastOutputNanos = System.nanoTime();
        }
        if (firstError == null && !stream.equals("cmd") && ERROR_LINE.matcher(line).find()) {
            firstError = line;
        }
        if (line.contains("[qosweaver]") && agentLines.size() < 10_000) {
            agentLines.add(line);
            notifyAll();
        }
        tail.addLast(line);
        if (tail.size() > 40) {
            tail.removeFirst();
        }
        try {
            log.write(stream);
            log.write(": ");
            log.write(line);
            log.newLine();
            log.flush();
        } catch (IOException ignored) {
            // a log we cannot write is not worth failing the experiment for
        }
    }

    /** The app's first error line so far (an exception, an ERROR or SEVERE log line), or null. */
    public synchronized String firstError() {
        return firstError;
    }

    /**
     * For servers that print no ready line: polls {@code probe} with GET until it answers 2xx.
     * Fails at once when the app exits, naming its first error line, and after {@code timeout}.
     */
    public void awaitHttp(URI probe, Duration timeout) throws IOException, InterruptedException {
        java.net.http.HttpClient client = java.net.http.HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(2)).build();
        java.net.http.HttpRequest req = java.net.http.HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(5))
                .GET().build();
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IOException("the app exited with code " + process.exitValue() + " before " + probe
                        + " answered; its first error: " + (firstError() != null ? firstError() : "(none)")
                        + "; last lines:\n" + tail());
            }
            try {
                int status = client.send(req, java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status / 100 == 2) {
                    return;
                }
                last = "status " + status;
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(250);
        }
        throw new IOException(probe + " did not answer 2xx within " + timeout.toSeconds() + " s (last: " + last
                + "); the app's first error: " + (firstError() != null ? firstError() : "(none)") + "; last lines:\n"
                + tail());
    }

    public synchronized String tail() {
        return String.join("\n", tail);
    }

    /**
     * Waits for the ready line as long as the app keeps talking: fails once it has printed nothing
     * for {@code quiet} (since its start or its last line). Why not a fixed deadline: a start that
     * says what it does (the river monitor seeding 24 h of history into PostgreSQL for minutes) is
     * not a hang, and a fixed one killed such a start halfway; a silent one is reported with its
     * threads.
     *
     * @return the base URI of the app, e.g. {@code http://127.0.0.1:43123}
     */
    public URI awaitReady(Duration quiet) throws IOException, InterruptedException {
        while (true) {
            long silentNanos;
            synchronized (this) {
                silentNanos = System.nanoTime() - lastOutputNanos;
            }
            long left = quiet.toNanos() - silentNanos;
            if (left <= 0 && !ready.isDone()) {
                throw new IOException("the app printed no 'listening on http://...' line within " + quiet.toSeconds()
                        + " s of its last output; " + dumpThreadsIntoLog() + "; last lines:\n" + tail());
            }
            try {
                return ready.get(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 1000)),
                        TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // look again: the app may have printed something meanwhile
            } catch (ExecutionException e) {
                throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
            }
        }
    }

    /**
     * A start that hangs says nothing in its output: its threads do. Appends {@code jcmd Thread.print}
     * of the (still running) app to its log, each line as {@code threads: ...}, and says what it did
     * and where the main thread was.
     */
    private String dumpThreadsIntoLog() throws InterruptedException {
        if (!process.isAlive()) {
            return "the app is gone, no thread dump";
        }
        String dump;
        try {
            Path file = Files.createTempFile("qosweaver-app-threads", ".txt");
            try {
                dump = ThreadDump.take(process.pid(), file);
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            dump = null;
        }
        if (dump == null) {
            return "no thread dump could be taken (jcmd)";
        }
        synchronized (this) {
            try {
                for (String line : dump.split("\n")) {
                    log.write("threads: ");
                    log.write(line);
                    log.newLine();
                }
                log.flush();
            } catch (IOException ignored) {
                // as in logLine
            }
        }
        String main = mainThread(dump);
        return "its threads are in the app's log (\"threads:\" lines)"
                + (main == null ? "" : "; its main thread:\n" + main);
    }

    /** The dump's {@code "main"} thread, at most its first 12 lines; null when it has none. */
    static String mainThread(String dump) {
        int at = dump.indexOf("\n\"main\"");
        if (at < 0) {
            return null;
        }
        String[] lines = dump.substring(at + 1).split("\n");
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < lines.length && i < 12 && !(i > 0 && lines[i].isBlank()); i++) {
            b.append(i == 0 ? "" : "\n").append(lines[i]);
        }
        return b.toString();
    }

    /** The agent's metrics endpoint, waited for up to {@code timeout}; null when none was announced. */
    public URI metrics(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (metrics == null && System.nanoTime() < deadline && process.isAlive()) {
            Thread.sleep(50);
        }
        return metrics;
    }

    /**
     * Waits for a line of the agent's ({@code [qosweaver] ...}, printed at any time since start)
     * that {@code p} finds; its first group, or null after {@code timeout} or when the app exited.
     */
    public synchronized String agentLine(Pattern p, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        while (true) {
            for (; seen < agentLines.size(); seen++) {
                Matcher m = p.matcher(agentLines.get(seen));
                if (m.find()) {
                    return m.groupCount() > 0 ? m.group(1) : m.group();
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || !process.isAlive()) {
                return null;
            }
            wait(Math.max(1, Math.min(200, left / 1_000_000)));
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** Every child still running: SIGTERM, then a kill after 5 s. */
    private static void stopAll() {
        for (Process p : LIVE) {
            p.destroy();
        }
        for (Process p : LIVE) {
            try {
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
            }
        }
    }

    /** SIGTERM (shutdown hooks run), then a kill after 10 s. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            try {
                log.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
