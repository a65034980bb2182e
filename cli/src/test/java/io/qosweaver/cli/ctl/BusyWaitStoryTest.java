package io.qosweaver.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.cli.CliRun;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dynamic-weaving paper's debugging story on {@code examples/busy-wait}: an idle MyServer
 * keeps a core busy; a watch woven into the running JVM shows its connection thread polling; the
 * semaphore aspect swapped in makes it block, and the server still answers.
 */
class BusyWaitStoryTest {
    private static final Path POLICIES = Path.of("..", "examples", "busy-wait", "policies");

    @TempDir
    Path dir;
    private Process app;

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }

    /** The process's CPU (user + system) over {@code ms}, in cores. */
    private double cores(long ms) throws Exception {
        long before = ticks();
        long t0 = System.nanoTime();
        Thread.sleep(ms);
        long after = ticks();
        double seconds = (System.nanoTime() - t0) / 1e9;
        return (after - before) / 100.0 / seconds; // USER_HZ is 100 on Linux
    }

    private long ticks() throws Exception {
        String[] f = Files.readString(Path.of("/proc", Long.toString(app.pid()), "stat")).replaceFirst(".*\\) ", "")
                .split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
    }

    private String echo(int port, String line) throws Exception {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
        }
    }

    @Test
    void aBusyWaitIsTracedAndFixedWhileTheServerRuns() throws Exception {
        Path jar = Path.of(org.example.myserver.MyServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        app = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:off",
                "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading", "-cp", jar.toString(),
                "org.example.myserver.MyServer", Integer.toString(port), "1")
                .redirectErrorStream(true).redirectOutput(dir.resolve("app.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!Files.readString(dir.resolve("app.log")).contains("listening")) {
            assertThat(System.nanoTime()).as("MyServer starts within 30 s").isLessThan(deadline);
            Thread.sleep(50);
        }
        assertThat(echo(port, "before")).isEqualTo("echo: before");
        double busy = cores(1000);
        assertThat(busy).as("an idle MyServer polls: its one connection thread keeps a core busy").isGreaterThan(0.5);

        String pid = Long.toString(app.pid());
        assertThat(CliRun.of("attach", pid, "--policy", POLICIES.resolve("observe.yaml").toString()).exit()).isZero();
        CliRun watch = CliRun.of("watch", pid, "execution(* org.example.myserver.MyServer.controlConnections())",
                "--duration", "1s", "--max-rate", "5");
        assertThat(watch.exit()).as(watch.err()).isZero();
        assertThat(watch.out()).contains("[connection-0]").contains("MyServer.controlConnections() = null");
        assertThat(watch.err()).containsPattern("matched [0-9]{4,}"); // thousands of empty polls a second

        CliRun fix = CliRun.of("ctl", pid, "swap", POLICIES.resolve("fix-busy-wait.yaml").toString());
        assertThat(fix.exit()).as(fix.err()).isZero();
        Thread.sleep(1500); // the thread's last poll before the swap, then at most one timed-out wait
        double fixed = cores(1000);
        assertThat(fixed).as("blocked on the semaphore: about nothing (was " + busy + " cores)").isLessThan(0.15);
        assertThat(echo(port, "after")).isEqualTo("echo: after");
        assertThat(CliRun.of("ctl", pid, "status").out()).containsPattern("semaphore connections [^\\n]*signals [1-9]");
    }
}
