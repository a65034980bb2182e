package io.qosweaver.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.mixed.Mixed;
import io.qosweaver.bench.mixed.MixedApp;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.cli.CliRun;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime workflow on an application nobody here wrote: Apache Jena Fuseki (its server jar from
 * Maven Central, Jetty 12 inside, requests routed by a servlet filter), started without the agent.
 * {@code attach} with the committed hand-written policy, analytics scheduled under load (the
 * policy suspends them), {@code swap} to the generated policy (other join points: a re-weave), a
 * swap that adds the {@code threadPools} aspect (Jetty's pool inside Fuseki resized, then restored
 * by the next swap), {@code set}, {@code watch} of Fuseki's query execution, {@code unweave}; every
 * request answered throughout.
 */
class RuntimeOnFusekiTest {
    private static final int HEAVY_CLIENTS = 6;

    @TempDir
    Path dir;
    private Process app;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final MixedApp fuseki = MixedApp.named("fuseki");
    private URI base;

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }

    private String pid() {
        return Long.toString(app.pid());
    }

    private String log() throws Exception {
        return Files.readString(dir.resolve("fuseki.log"));
    }

    private int get(String uri) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private String light(int i) {
        return fuseki.lightTarget(base).replace("{i}", Integer.toString(i));
    }

    /** Heavy clients in closed loops and a light request every 50 ms for {@code millis}; every answer must be 200. */
    private void load(long millis) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(HEAVY_CLIENTS + 1);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        AtomicInteger heavy = new AtomicInteger();
        List<Future<List<Integer>>> clients = new ArrayList<>();
        try {
            for (int c = 0; c < HEAVY_CLIENTS; c++) {
                clients.add(pool.submit(() -> {
                    List<Integer> codes = new ArrayList<>();
                    while (System.nanoTime() - end < 0) {
                        codes.add(get(fuseki.heavyTarget(base)));
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
    }

    @Test
    void attachSwapSetWatchAndUnweaveOnALiveFuseki() throws Exception {
        Layout layout = Layout.find();
        Path jar = Mixed.fetch(layout.root(), fuseki, Progress.stderr());
        fuseki.prepare(layout.root(), dir);
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading", "-jar", jar.toString()));
        cmd.addAll(fuseki.appArgs(port));
        app = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("fuseki.log").toFile()).start();
        base = URI.create("http://127.0.0.1:" + port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (true) {
            try {
                if (get(base + fuseki.readyPath()) == 200) {
                    break;
                }
            } catch (java.io.IOException e) {
                // not up yet
            }
            assertThat(app.isAlive()).as("Fuseki runs; its log:%n%s", log()).isTrue();
            assertThat(System.nanoTime()).as("Fuseki answers within 180 s").isLessThan(deadline);
            Thread.sleep(250);
        }
        assertThat(get(fuseki.heavyTarget(base))).isEqualTo(200); // the code to weave is loaded before the agent
        assertThat(get(light(1))).isEqualTo(200);

        Path policies = layout.root().resolve("examples/third-party/fuseki/policies");
        CliRun attach = CliRun.of("attach", pid(), "--policy", policies.resolve("handwritten.yaml").toString());
        assertThat(attach.exit()).as(attach.err() + log()).isZero();
        assertThat(attach.out()).contains("task classes: lookup analytics").containsPattern("request [^\\n]*: [1-9]\\d* join points")
                .containsPattern("controlPoint [^\\n]*: [1-9]\\d* join points");

        load(4_000);
        CliRun status = CliRun.of("ctl", pid(), "status");
        assertThat(status.exit()).as(status.err()).isZero();
        Matcher m = Pattern.compile("scheduler: (\\d+) control points, (\\d+) suspensions").matcher(status.out());
        assertThat(m.find()).as(status.out()).isTrue();
        assertThat(Long.parseLong(m.group(1))).as("control points reached by the aggregates").isPositive();
        assertThat(Long.parseLong(m.group(2))).as("aggregates suspended: %d clients, lowCap 1x", HEAVY_CLIENTS)
                .isPositive();

        CliRun swap = CliRun.of("ctl", pid(), "swap", policies.resolve("generated.yaml").toString());
        assertThat(swap.exit()).as(swap.err() + log()).isZero();
        assertThat(swap.out()).contains("swapped to " + policies.resolve("generated.yaml"));
        load(2_000);

        // the server's own pool (Jetty 12.1's QueuedThreadPool inside Fuseki), resized by a swap and restored by the next
        Path pools = Files.writeString(dir.resolve("pools.yaml"), Files.readString(policies.resolve("generated.yaml"))
                + "aspects:\n  threadPools:\n    - {server: jetty, min: 3, max: 24, idleTimeout: 20s}\n");
        CliRun poolSwap = CliRun.of("ctl", pid(), "swap", pools.toString());
        assertThat(poolSwap.exit()).as(poolSwap.err() + log()).isZero();
        load(1_000);
        String withPools = CliRun.of("ctl", pid(), "status").out();
        Matcher pool = Pattern.compile("threadPool jetty org\\.eclipse\\.jetty\\.util\\.thread\\.QueuedThreadPool@\\w+: "
                + "min 3, max 24, idleTimeout 20000 ms \\(was min (\\d+), max (\\d+), idleTimeout (\\d+) ms\\)")
                .matcher(withPools);
        assertThat(pool.find()).as(withPools).isTrue();
        String was = "min " + pool.group(1) + ", max " + pool.group(2) + ", idleTimeout " + pool.group(3) + " ms";
        CliRun back = CliRun.of("ctl", pid(), "swap", policies.resolve("generated.yaml").toString());
        assertThat(back.exit()).as(back.err() + log()).isZero();
        assertThat(CliRun.of("ctl", pid(), "status").out()).as("Fuseki's own pool settings restored")
                .containsPattern("threadPool jetty [^\\n]*: " + Pattern.quote(was) + "\\R");

        CliRun set = CliRun.of("ctl", pid(), "set", "policy.lowCap=1");
        assertThat(set.exit()).as(set.err()).isZero();
        assertThat(CliRun.of("ctl", pid(), "status").out()).containsPattern("policy: importance \\{[^}]*lowCap=1[,}]");

        CompletableFuture<CliRun> watch = CompletableFuture.supplyAsync(() -> CliRun.of("watch", pid(),
                "execution(* org.apache.jena.fuseki.servlets.SPARQLQueryProcessor.executeQuery(..))", "--duration", "4s"));
        long watchEnd = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
        for (int i = 0; System.nanoTime() - watchEnd < 0; i++) {
            assertThat(get(light(i))).isEqualTo(200);
            Thread.sleep(100);
        }
        CliRun watched = watch.get(60, TimeUnit.SECONDS);
        assertThat(watched.exit()).as(watched.err()).isZero();
        assertThat(watched.out()).contains("SPARQLQueryProcessor.executeQuery(");

        CliRun unweave = CliRun.of("ctl", pid(), "unweave");
        assertThat(unweave.exit()).as(unweave.err() + log()).isZero();
        assertThat(CliRun.of("ctl", pid(), "status").out()).contains("policy: none in force");
        load(1_000);
        assertThat(app.isAlive()).isTrue();
        assertThat(log()).doesNotContain("[qosweaver] ERROR");
    }
}
