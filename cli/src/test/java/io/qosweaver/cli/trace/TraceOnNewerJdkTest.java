package io.qosweaver.cli.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.run.Layout;
import io.qosweaver.cli.CliRun;
import io.qosweaver.platform.testing.Jdks;
import io.qosweaver.trace.TraceChecks;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perfetto.protos.TrackDescriptorOuterClass.TrackDescriptor;

/**
 * {@code qosweaver trace} on an application running on JDK 21 or later, started under the tracer
 * and attached: the JVM level (JFR streamed in process) and the OS level are in the trace, joined
 * to the application's threads. Skipped, visibly, where no JDK 21+ is installed.
 */
class TraceOnNewerJdkTest {
    @TempDir
    Path dir;
    private Path java;
    private Process app;
    private int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void newerJdk() throws Exception {
        Optional<Path> j = Jdks.atLeast(21);
        Assumptions.assumeTrue(j.isPresent(), Jdks.NONE_21);
        java = j.get();
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
    }

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }

    private List<String> workServer() throws Exception {
        Path classes = Path.of(demo.workserver.WorkServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return List.of(java.toString(), "-XX:+EnableDynamicAgentLoading", "-cp", classes.toString(),
                "demo.workserver.WorkServer", Integer.toString(port));
    }

    /** Requests until {@code until} is true, at least one answered; fails after 60 s. */
    private void requestUntil(java.util.function.BooleanSupplier until) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        int ok = 0;
        while (ok == 0 || !until.getAsBoolean()) {
            assertThat(System.nanoTime()).as("within 60 s; app log:\n" + Files.readString(dir.resolve("app.log")))
                    .isLessThan(deadline);
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                        .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(200);
                ok++;
            } catch (java.io.IOException e) {
                Thread.sleep(100); // not up yet
            }
        }
    }

    private static void jvmAndOsLevelsOnTheServersThreads(TraceChecks t, long pid) {
        assertThat(t.tracks.values()).extracting(TrackDescriptor::getName).contains("OS state", "JVM");
        assertThat(t.tracks.values()).filteredOn(TrackDescriptor::hasThread)
                .extracting(d -> d.getThread().getThreadName()).contains("HTTP-Dispatcher");
        assertThat(t.tracks.values()).filteredOn(TrackDescriptor::hasProcess).singleElement()
                .satisfies(d -> assertThat(d.getProcess().getPid()).isEqualTo((int) pid));
    }

    @Test
    void startedUnderTheTracerOnJdk21Plus() throws Exception {
        Layout layout = Layout.find();
        assertThat(layout.agentJar()).as("build it: ./mvnw -pl agent -am package").isRegularFile();
        Path out = dir.resolve("started.pftrace");
        List<String> cmd = TraceCommand.rewrite(workServer(), layout.agentJar(),
                TraceCommand.options(out, "3s", null, null, null, true), null);
        app = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("app.log").toFile()).start();
        requestUntil(() -> Files.isRegularFile(out));
        requestUntil(() -> {
            try {
                return Files.readString(dir.resolve("app.log")).contains("trace written");
            } catch (java.io.IOException e) {
                return false;
            }
        });
        assertThat(Files.readString(dir.resolve("app.log"))).doesNotContain("Exception");
        jvmAndOsLevelsOnTheServersThreads(TraceChecks.read(out).valid(), app.pid());
    }

    @Test
    void attachedToARunningJdk21PlusJvm() throws Exception {
        app = new ProcessBuilder(workServer()).redirectErrorStream(true).redirectOutput(dir.resolve("app.log").toFile())
                .start();
        requestUntil(() -> true);
        Path out = dir.resolve("attached.pftrace");
        CliRun run = CliRun.of("trace", Long.toString(app.pid()), "--duration", "2s", "--out", out.toString());
        assertThat(run.exit()).as(run.err() + Files.readString(dir.resolve("app.log"))).isZero();
        assertThat(app.isAlive()).isTrue();
        jvmAndOsLevelsOnTheServersThreads(TraceChecks.read(out).valid(), app.pid());
    }
}
