package io.qosweaver.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.mixed.Mixed;
import io.qosweaver.bench.mixed.MixedApp;
import io.qosweaver.bench.run.Layout;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Apache Jena Fuseki (its server jar from Maven Central, Jetty 12 inside) started without any
 * agent in a child JVM that allows attaching, for the runtime tests; and its load: heavy
 * aggregates and light lookups, every answer 200.
 *
 * <p>Each test starts its own: a JVM takes the agent once and in one mode (a second attach and a
 * profiling agent's policy commands are refused, and the tests check both), so {@code
 * RuntimeOnFusekiTest} and {@code ProfileOnFusekiTest} cannot share one process. Starting the second
 * Fuseki while the first test runs was measured on 2 cores and gained nothing reliable: the start
 * and the tests' loads are both CPU-bound (the overlapped start took 46 s instead of 16 s).
 */
final class LiveFuseki implements AutoCloseable {
    static final int HEAVY_CLIENTS = 6;

    final Layout layout = Layout.find();
    final MixedApp app = MixedApp.named("fuseki");
    private final Path dir;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private Process process;
    private URI base;

    private LiveFuseki(Path dir) {
        this.dir = dir;
    }

    /** Fuseki up and answering, with its query code loaded (one aggregate and one lookup answered). */
    static LiveFuseki start(Path dir) throws Exception {
        LiveFuseki f = new LiveFuseki(dir);
        try {
            f.launch();
        } catch (Exception | AssertionError e) {
            f.close();
            throw e;
        }
        return f;
    }

    private void launch() throws Exception {
        long t0 = System.nanoTime();
        Path jar = Mixed.fetch(layout.root(), app, Progress.stderr());
        app.prepare(layout.root(), dir);
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading", "-jar", jar.toString()));
        cmd.addAll(app.appArgs(port));
        process = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("fuseki.log").toFile()).start();
        base = URI.create("http://127.0.0.1:" + port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (true) {
            try {
                if (get(base + app.readyPath()) == 200) {
                    break;
                }
            } catch (java.io.IOException e) {
                // not up yet
            }
            assertThat(process.isAlive()).as("Fuseki runs; its log:%n%s", log()).isTrue();
            assertThat(System.nanoTime()).as("Fuseki answers within 180 s").isLessThan(deadline);
            Thread.sleep(250);
        }
        assertThat(get(heavy())).isEqualTo(200); // the code to weave is loaded before the agent
        assertThat(get(light(1))).isEqualTo(200);
        // the fixture's cost, in the tests' output (what sharing or overlapping starts would save)
        System.err.printf("[fuseki] %s answering after %.1f s%n", dir.getFileName(), (System.nanoTime() - t0) / 1e9);
    }

    @Override
    public void close() throws Exception {
        if (process != null) {
            process.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }

    boolean alive() {
        return process.isAlive();
    }

    String pid() {
        return Long.toString(process.pid());
    }

    String log() throws Exception {
        return Files.readString(dir.resolve("fuseki.log"));
    }

    int get(String uri) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    String heavy() {
        return app.heavyTarget(base);
    }

    String light(int i) {
        return app.lightTarget(base).replace("{i}", Integer.toString(i));
    }

    /**
     * Heavy clients in closed loops and a light request every 50 ms for {@code millis}; every answer
     * must be 200.
     *
     * @return the aggregates answered (at least one)
     */
    int load(long millis) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(HEAVY_CLIENTS + 1);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        AtomicInteger heavy = new AtomicInteger();
        List<Future<List<Integer>>> clients = new ArrayList<>();
        try {
            for (int c = 0; c < HEAVY_CLIENTS; c++) {
                clients.add(pool.submit(() -> {
                    List<Integer> codes = new ArrayList<>();
                    while (System.nanoTime() - end < 0) {
                        codes.add(get(heavy()));
                        heavy.incrementAndGet();
                    }
                    return codes;
                }));
            }
            clients.add(pool.submit(() -> {
                List<Integer> codes = new ArrayList<>();
                for (int i = 0; System.nanoTime() - end < 0; i++) {
                    codes.add(get(light(i)));
                    Thread.sleep(50);
                }
                return codes;
            }));
            for (Future<List<Integer>> f : clients) {
                assertThat(f.get(120, TimeUnit.SECONDS)).as("answers").isNotEmpty().containsOnly(200);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(heavy.get()).as("aggregates answered").isPositive();
        return heavy.get();
    }
}
