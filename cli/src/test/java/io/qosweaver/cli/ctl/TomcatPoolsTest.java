package io.qosweaver.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.cli.CliRun;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code threadPools} aspect on Tomcat through the packaged agent, on Tomcat 9 (javax), 10.1
 * and 11 (jakarta), each from Maven Central in a child JVM of its own: an embedded Tomcat with
 * pool sizes of its own (min spare 4, max 30) runs started without any agent;
 * {@code attach} weaves a policy with a {@code threadPools} section, {@code ctl status} (text and
 * JSON) reads the new sizes back through Tomcat's own getters, a swap that changes only the sizes
 * resizes the pool, and a swap to a policy without the section gives Tomcat its own values back.
 */
class TomcatPoolsTest {
    private static final String BASE = """
            taskClasses:
              - name: none
                entry: execution(void nowhere.Missing.run())
            policy:
              name: importance
            """;
    private static final String POOLS = BASE + """
            aspects:
              threadPools:
                - server: tomcat
                  min: 2
                  max: 9
                  idleTimeout: 15s
            """;
    private static final Pattern POOL_LINE = Pattern.compile(
            "threadPool tomcat org\\.apache\\.tomcat\\.util\\.net\\.\\w+Endpoint@\\w+: ([^\\n]*)");

    @TempDir
    Path dir;
    private Process app;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }

    /** One Tomcat's jars (copied by this module's build, not on the tests' class path) and the test classes. */
    private static String classPath(String server) throws Exception {
        Path servers = Layout.find().root().resolve("cli/target/servers").resolve(server);
        assertThat(servers).as("run the cli module's build first (generate-test-resources): it copies Tomcat there")
                .isDirectory();
        Path testClasses = Path.of(demo.tomcatpools.TomcatPoolsApp.class.getProtectionDomain().getCodeSource()
                .getLocation().toURI());
        try (Stream<Path> jars = Files.list(servers)) {
            return Stream.concat(jars.filter(p -> p.toString().endsWith(".jar")).sorted(), Stream.of(testClasses))
                    .map(Path::toString).collect(Collectors.joining(File.pathSeparator));
        }
    }

    /** Tomcat started from {@code server}'s jars, its version checked; its port. */
    private int startTomcat(String server, String version) throws Exception {
        Path out = dir.resolve("tomcat.log");
        app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:off",
                "-Xmx256m", "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading", "-cp",
                classPath(server), "demo.tomcatpools.TomcatPoolsApp").redirectErrorStream(true).redirectOutput(out.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        Pattern port = Pattern.compile("PORT=(\\d+) VERSION=(\\S+)");
        while (true) {
            Matcher m = port.matcher(Files.readString(out));
            if (m.find()) {
                assertThat(m.group(2)).as("the Tomcat of " + server).startsWith(version);
                return Integer.parseInt(m.group(1));
            }
            assertThat(app.isAlive()).as("Tomcat runs; its output:%n%s", Files.readString(out)).isTrue();
            assertThat(System.nanoTime()).as("Tomcat listens within 60 s").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    /** A request (Tomcat's 404: nothing is mapped) through the connector and its pool. */
    private int get(int port) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/nothing"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private String pid() {
        return Long.toString(app.pid());
    }

    /** Requests until the status shows Tomcat's pool with {@code values}, at most 20 s; the status text. */
    private String awaitPool(int port, String values) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String text;
        do {
            assertThat(get(port)).isEqualTo(404);
            CliRun status = CliRun.of("ctl", pid(), "status");
            assertThat(status.exit()).as(status.err()).isZero();
            text = status.out();
            Matcher m = POOL_LINE.matcher(text);
            if (m.find() && m.group(1).equals(values)) {
                return text;
            }
            Thread.sleep(50);
        } while (System.nanoTime() < deadline);
        assertThat(text).as("Tomcat's pool with " + values).containsPattern(POOL_LINE.pattern());
        Matcher m = POOL_LINE.matcher(text);
        assertThat(m.find() ? m.group(1) : "").isEqualTo(values);
        return text;
    }

    private JsonNode pools() throws Exception {
        CliRun json = CliRun.of("ctl", pid(), "status", "--json");
        assertThat(json.exit()).as(json.err()).isZero();
        JsonNode pools = new ObjectMapper().readTree(json.out()).path("aspects").path("threadPools");
        assertThat(pools.size()).as(json.out()).isEqualTo(1);
        return pools.get(0);
    }

    // the same endpoint API (AbstractEndpoint's createExecutor, processSocket and pool setters) since 9.0
    @ParameterizedTest(name = "{0}")
    @CsvSource({"tomcat-9, 9.0.", "tomcat-10, 10.1.", "tomcat-11, 11.0."})
    void attachSizesTomcatsPoolAndASwapGivesItsOwnValuesBack(String server, String version) throws Exception {
        int port = startTomcat(server, version);
        assertThat(get(port)).isEqualTo(404); // the connector's code is loaded before the agent
        Path pools = Files.writeString(dir.resolve("pools.yaml"), POOLS);
        CliRun attach = CliRun.of("attach", pid(), "--policy", pools.toString());
        assertThat(attach.exit()).as(attach.err()).isZero();
        assertThat(attach.out()).containsPattern("threadPool [^\\n]*pools.yaml:8: [1-9]\\d* join points");

        awaitPool(port, "min 2, max 9, idleTimeout 15000 ms (was min 4, max 30, idleTimeout 60000 ms)");
        JsonNode pool = pools();
        assertThat(pool.path("server").asText()).isEqualTo("tomcat");
        assertThat(List.of(pool.path("min").asInt(), pool.path("max").asInt(), pool.path("idleTimeoutMs").asInt()))
                .containsExactly(2, 9, 15_000);
        JsonNode was = pool.path("was");
        assertThat(List.of(was.path("min").asInt(), was.path("max").asInt(), was.path("idleTimeoutMs").asInt()))
                .containsExactly(4, 30, 60_000);

        // new sizes only: the weaving kept, the pool resized, its own values still remembered
        Path bigger = Files.writeString(dir.resolve("bigger.yaml"), POOLS.replace("max: 9", "max: 12"));
        CliRun resize = CliRun.of("ctl", pid(), "swap", bigger.toString());
        assertThat(resize.exit()).as(resize.err()).isZero();
        assertThat(resize.out()).contains("the same join points as before");
        awaitPool(port, "min 2, max 12, idleTimeout 15000 ms (was min 4, max 30, idleTimeout 60000 ms)");

        // a policy without the section: Tomcat's own values back
        Path plain = Files.writeString(dir.resolve("plain.yaml"), BASE);
        CliRun back = CliRun.of("ctl", pid(), "swap", plain.toString());
        assertThat(back.exit()).as(back.err()).isZero();
        String restored = awaitPool(port, "min 4, max 30, idleTimeout 60000 ms");
        assertThat(restored).doesNotContain("(was");
        JsonNode own = pools();
        assertThat(List.of(own.path("min").asInt(), own.path("max").asInt(), own.path("idleTimeoutMs").asInt()))
                .containsExactly(4, 30, 60_000);
        assertThat(own.has("was")).isFalse();
        assertThat(get(port)).isEqualTo(404);
        assertThat(app.isAlive()).isTrue();
        assertThat(Files.readString(dir.resolve("tomcat.log"))).doesNotContain("[qosweaver] ERROR");
    }
}
