package io.qosweaver.cli.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.cli.CliRun;
import io.qosweaver.trace.TraceChecks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perfetto.protos.TrackDescriptorOuterClass.TrackDescriptor;

/** {@code qosweaver trace PID}: the tracer loaded into a JVM started without any agent. */
class TraceAttachTest {
    @TempDir
    Path dir;
    private Process app;

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }

    @Test
    void tracesARunningJvmForItsDurationAndLeavesItRunning() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path classes = Path.of(demo.workserver.WorkServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading", "-cp", classes.toString(),
                "demo.workserver.WorkServer", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(dir.resolve("app.log").toFile()).start();
        Thread.sleep(500);
        Path out = dir.resolve("attached.pftrace");
        CliRun run = CliRun.of("trace", Long.toString(app.pid()), "--duration", "2s", "--out", out.toString());
        assertThat(run.exit()).as(run.err() + Files.readString(dir.resolve("app.log"))).isZero();
        assertThat(run.err()).contains("open it in ui.perfetto.dev");
        assertThat(app.isAlive()).isTrue();
        TraceChecks t = TraceChecks.read(out).valid();
        assertThat(t.tracks.values()).filteredOn(TrackDescriptor::hasThread).extracting(d -> d.getThread().getThreadName())
                .contains("HTTP-Dispatcher");
        assertThat(t.tracks.values()).extracting(TrackDescriptor::getName).contains("OS state", "JVM");
        assertThat(t.tracks.values()).filteredOn(TrackDescriptor::hasProcess).singleElement()
                .satisfies(d -> assertThat(d.getProcess().getPid()).isEqualTo((int) app.pid()));
    }
}
