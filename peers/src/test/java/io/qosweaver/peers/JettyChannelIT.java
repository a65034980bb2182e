package io.qosweaver.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end on Jetty 9.4 (the jars the build copied to target/servers/jetty-9.4): an application served by a
 * core handler with no servlet context, as Apache Tika server is, in a child JVM under the shaded peers agent.
 * concurrency-limits must refuse at {@code Server.handle(HttpChannel)}; jetty-qos must say it cannot be had.
 */
class JettyChannelIT {
    private static final Pattern PORT = Pattern.compile("PORT=(\\d+) VERSION=(\\S+)");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static Path peersJar;
    private static String serverJars;
    private final List<Process> started = new ArrayList<>();

    @TempDir
    static Path classes;

    @TempDir
    Path dir;

    @BeforeAll
    static void compileTheApp() throws IOException {
        peersJar = Path.of(System.getProperty("qosweaver.peersJar", "target/qosweaver-peers-agent.jar")).toAbsolutePath();
        assertThat(peersJar).as("run 'package' first: the peers agent jar").exists();
        Path jars = Path.of(System.getProperty("qosweaver.servers", "target/servers")).resolve("jetty-9.4");
        assertThat(jars).as("copied by the build (pre-integration-test)").isDirectory();
        try (var files = Files.list(jars)) {
            serverJars = files.map(Path::toString).sorted().collect(Collectors.joining(File.pathSeparator));
        }
        Path source = classes.resolve("Jetty94App.java");
        try (InputStream in = JettyChannelIT.class.getResourceAsStream("/jetty94/Jetty94App.java")) {
            Files.copy(in, source);
        }
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-cp", serverJars, "-d", classes.toString(),
                source.toString());
        assertThat(rc).as("javac of the Jetty 9.4 app").isZero();
    }

    @AfterEach
    void stop() {
        started.forEach(Process::destroyForcibly);
    }

    private record Child(Process process, Path out, Path err, int port) {
        String stderr() throws IOException {
            return Files.readString(err);
        }
    }

    private Child launch(String agentArgs) throws Exception {
        Path out = dir.resolve("stdout-" + started.size());
        Path err = dir.resolve("stderr-" + started.size());
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
                "-XX:TieredStopAtLevel=1", "-javaagent:" + peersJar + "=" + agentArgs, "-cp",
                serverJars + File.pathSeparator + classes, "Jetty94App")
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        started.add(p);
        await().atMost(60, TimeUnit.SECONDS).until(() -> PORT.matcher(Files.readString(out)).find() || !p.isAlive());
        assertThat(p.isAlive()).as(Files.readString(err)).isTrue();
        Matcher m = PORT.matcher(Files.readString(out));
        assertThat(m.find()).isTrue();
        assertThat(m.group(2)).startsWith("9.4.");
        return new Child(p, out, err, Integer.parseInt(m.group(1)));
    }

    private static HttpResponse<String> get(Child c, String path) throws Exception {
        return HTTP.send(request(c, path), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest request(Child c, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + c.port() + path)).timeout(Duration.ofSeconds(30))
                .build();
    }

    @Test
    void concurrencyLimitsRefusesAtTheServersEntryWithNoServletContext() throws Exception {
        Child c = launch("peer=concurrency-limits,lowPath=/hold,limit=fixed:1");
        assertThat(c.stderr()).contains("qosweaver-peers: concurrency-limits installed on Jetty Server.handle(HttpChannel)"
                + " (Jetty 9.4 to 11: every request, before the first handler, by its request path; lowPath=/hold,"
                + " lowShare=0.1, limit=fixed:1, 429 when over)");
        CompletableFuture<HttpResponse<String>> held = HTTP.sendAsync(request(c, "/hold"),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(30, TimeUnit.SECONDS).until(() -> Files.readString(c.out()).contains("HELD"));
        // the one token is taken: a second /hold is refused before the handler, another path may borrow
        HttpResponse<String> refused = get(c, "/hold");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).isEqualTo("Concurrency limit exceeded");
        assertThat(Files.readString(c.out()).split("HELD", -1)).as("the refused one never reached the handler")
                .hasSize(2);
        assertThat(get(c, "/other").body()).isEqualTo("ok /other");
        assertThat(get(c, "/release").statusCode()).isEqualTo(200);
        assertThat(held.get(30, TimeUnit.SECONDS).body()).isEqualTo("ok /hold");
        // the token came back when Server.handle returned
        CompletableFuture<HttpResponse<String>> again = HTTP.sendAsync(request(c, "/hold"),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(30, TimeUnit.SECONDS).until(() -> Files.readString(c.out()).split("HELD", -1).length == 3);
        get(c, "/release");
        assertThat(again.get(30, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        assertThat(c.stderr()).doesNotContain("qosweaver-peers: error");
    }

    @Test
    void jettyQosSaysItNeedsJetty12AndLeavesTheServerAlone() throws Exception {
        Child c = launch("peer=jetty-qos,lowPath=/hold,maxRequests=1");
        assertThat(c.stderr()).contains("qosweaver-peers: error: jetty-qos needs Jetty 12's QoSHandler; this server is"
                + " Jetty 9.4 to 11 (Server.handle(HttpChannel)), which has none: nothing installed")
                .doesNotContain(" installed on ");
        assertThat(get(c, "/other").body()).isEqualTo("ok /other");
    }
}
