package io.qosweaver.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: the shaded peers agent jar with -javaagent on the real river monitor jar in a child JVM. The
 * monitor's process runs two Jetty servers (the monitor and the sensor generator); the peer must go on the
 * monitor only.
 */
class PeersIT {
    private static final Pattern LISTENING = Pattern.compile("river-monitor listening on http://127\\.0\\.0\\.1:(\\d+)");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static Path peersJar;
    private static Path riverMonitorJar;
    private final List<Process> started = new ArrayList<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void locate() {
        peersJar = Path.of(System.getProperty("qosweaver.peersJar", "target/qosweaver-peers-agent.jar"))
                .toAbsolutePath();
        assertThat(peersJar).as("run 'package' first: the peers agent jar").exists();
        Path root = Path.of(System.getProperty("qosweaver.repoRoot", "..")).toAbsolutePath();
        riverMonitorJar = root.resolve("examples/river-monitor/target/river-monitor.jar");
    }

    @AfterEach
    void stop() {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    private record Child(Process process, Path stdout, Path stderr) {
        String out() throws IOException {
            return Files.readString(stdout);
        }

        String err() throws IOException {
            return Files.readString(stderr);
        }
    }

    private Child launch(String agentArgs) throws IOException {
        Path out = dir.resolve("stdout-" + started.size());
        Path err = dir.resolve("stderr-" + started.size());
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xshare:off", "-Xmx256m", "-XX:TieredStopAtLevel=1", "-Djava.awt.headless=true",
                "-javaagent:" + peersJar + "=" + agentArgs, "-jar", riverMonitorJar.toString(),
                "--port", "0", "--generator-port", "0", "--rivers", "4", "--period", "1s", "--history-hours", "3")
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        started.add(p);
        return new Child(p, out, err);
    }

    private static void assumeRiverMonitor() {
        if (!Files.isRegularFile(riverMonitorJar)) {
            System.err.println("SKIPPED: " + riverMonitorJar + " is absent (build examples/river-monitor first)");
        }
        Assumptions.assumeTrue(Files.isRegularFile(riverMonitorJar), "river-monitor.jar absent: " + riverMonitorJar);
    }

    /** Starts the monitor with the peer, checks the install line, and serves a chart and the levels page. */
    private void runsWithPeer(String agentArgs, String installed) throws Exception {
        assumeRiverMonitor();
        Child c = launch(agentArgs);
        await().atMost(45, TimeUnit.SECONDS).pollInterval(Duration.ofMillis(200))
                .until(() -> LISTENING.matcher(c.out()).find() || !c.process().isAlive());
        assertThat(c.process().isAlive()).as(c.err()).isTrue();
        Matcher m = LISTENING.matcher(c.out());
        assertThat(m.find()).isTrue();
        int port = Integer.parseInt(m.group(1));

        HttpResponse<byte[]> chart = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/chart?river=1&hours=3")).timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(chart.statusCode()).isEqualTo(200);
        assertThat(chart.headers().firstValue("Content-Type")).hasValue("image/png");
        assertThat(chart.body()).startsWith(0x89, 'P', 'N', 'G');
        HttpResponse<String> levels = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/levels")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(levels.statusCode()).isEqualTo(200);

        String err = c.err();
        List<String> ours = err.lines().filter(l -> l.startsWith("qosweaver-peers: ")).toList();
        List<String> installs = ours.stream().filter(l -> l.contains(" installed on ")).toList();
        assertThat(installs).as(err).hasSize(1);
        assertThat(installs.get(0)).startsWith(installed);
        // the generator's server (created first) is left alone, with one note
        assertThat(ours).as(err).hasSize(2);
        assertThat(ours.get(0)).startsWith("qosweaver-peers: note: ServletContextHandler \"/\" [/sensors/*] has no"
                + " servlet mapping for lowPath=/chart");
        assertThat(err).doesNotContain("qosweaver-peers: error").doesNotContain("SLF4J");
    }

    @Test
    void jettyQosOnTheRiverMonitor() throws Exception {
        runsWithPeer("peer=jetty-qos", "qosweaver-peers: jetty-qos installed on ServletContextHandler \"/\" mapping"
                + " \"/chart\" (lowPath=/chart priority 0, others 1, maxRequests=100 [Jetty default: maxThreads 200"
                + " / 2], maxSuspendMs=0 [Jetty default: wait forever]");
    }

    @Test
    void concurrencyLimitsOnTheRiverMonitor() throws Exception {
        runsWithPeer("peer=concurrency-limits", "qosweaver-peers: concurrency-limits installed on"
                + " ServletContextHandler \"/\" mapping \"/chart\" (lowPath=/chart, lowShare=0.1, limit=vegas"
                + " [library default: VegasLimit, initial 20, max 1000], 429 when over)");
    }

    @Test
    void badArgumentsExitOneWithOneLine() throws Exception {
        assumeRiverMonitor();
        Child c = launch("peer=concurrency-limits,limit=fixed:many");
        assertThat(c.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(c.process().exitValue()).as("a clean exit status, not the JVM's abort").isEqualTo(1);
        assertThat(c.err()).isEqualTo("qosweaver-peers: error: limit=fixed:N: not a whole number: 'many'; "
                + PeerArgs.USAGE + System.lineSeparator());
        assertThat(c.out()).isEmpty();
    }

    /** The JVM appends -javaagent jars to the system class path: nothing in it may use a third-party name. */
    @Test
    void agentJarHoldsOnlyOurPackages() throws Exception {
        List<String> foreign = new ArrayList<>();
        try (JarFile jar = new JarFile(peersJar.toFile())) {
            jar.stream().map(JarEntry::getName)
                    .filter(n -> (n.endsWith(".class") && !n.startsWith("io/qosweaver/peers/"))
                            || n.startsWith("META-INF/versions/") || n.startsWith("META-INF/services/"))
                    .forEach(foreign::add);
            assertThat(jar.getManifest().getMainAttributes().getValue("Premain-Class"))
                    .isEqualTo(PeersAgent.class.getName());
            assertThat(jar.getEntry("io/qosweaver/peers/shaded/com/netflix/concurrency/limits/Limiter.class"))
                    .isNotNull();
            assertThat(jar.getEntry("io/qosweaver/peers/shaded/net/bytebuddy/asm/Advice.class")).isNotNull();
            assertThat(jar.getEntry("org/slf4j/Logger.class")).as("slf4j comes from the application").isNull();
        }
        assertThat(foreign).as("unrelocated entries in the agent jar").isEmpty();
    }
}
