package io.qosweaver.cli.ctl;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.cli.CliRun;
import io.qosweaver.platform.testing.Jdks;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code qosweaver attach} and {@code ctl} from this JVM (JDK 17) into an application on JDK 21 or
 * later, where the JVM warns about agents loaded into a running JVM: the policy is woven and
 * schedules, the warning is what the agent README says, and {@code -XX:+EnableDynamicAgentLoading}
 * silences it. Skipped, visibly, where no JDK 21+ is installed.
 */
class AttachOnNewerJdkTest {
    static final String DYNAMIC_WARNING = "WARNING: A Java agent has been loaded dynamically";
    private static final String LOW = """
            taskClasses:
              - name: work
                entry: execution(long demo.workserver.WorkServer.work(int))
                importance: low
            controlPoints:
              - call(long demo.workserver.WorkServer.step(int)) && withincode(long demo.workserver.WorkServer.work(int))
            policy:
              name: importance
              lowLimit: 1
            """;

    @TempDir
    Path dir;
    private Path java;
    private Process app;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void newerJdk() {
        Optional<Path> j = Jdks.atLeast(21);
        Assumptions.assumeTrue(j.isPresent(), Jdks.NONE_21);
        java = j.get();
    }

    @AfterEach
    void stop() throws Exception {
        if (app != null) {
            app.destroyForcibly().waitFor(20, TimeUnit.SECONDS);
        }
    }

    private int startApp(String... jvmFlags) throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path classes = Path.of(demo.workserver.WorkServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xshare:off"));
        cmd.addAll(List.of(jvmFlags));
        cmd.addAll(List.of("-cp", classes.toString(), "demo.workserver.WorkServer", Integer.toString(port)));
        app = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve("app.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                get(port);
                return port;
            } catch (java.io.IOException e) {
                assertThat(System.nanoTime()).as("the app answers within 30 s").isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    private void get(int port) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
    }

    private String appLog() throws Exception {
        return Files.readString(dir.resolve("app.log"));
    }

    @Test
    void attachWeavesAndSchedulesAJdk21PlusApplicationWhichWarnsOfTheDynamicAgent() throws Exception {
        int port = startApp();
        get(port);
        Path policy = Files.writeString(dir.resolve("low.yaml"), LOW);
        CliRun attach = CliRun.of("attach", Long.toString(app.pid()), "--policy", policy.toString());
        assertThat(attach.exit()).as(attach.err() + appLog()).isZero();
        get(port); // a request that starts after the attach is scheduled
        CliRun status = CliRun.of("ctl", Long.toString(app.pid()), "status");
        assertThat(status.exit()).as(status.err()).isZero();
        assertThat(status.out()).contains("policy: importance {lowLimit=1}")
                .containsPattern("controlPoint [^\\n]*: 1 join points")
                .containsPattern("scheduler: [1-9][0-9]* control points");
        assertThat(appLog()).contains(DYNAMIC_WARNING).contains("-XX:+EnableDynamicAgentLoading")
                .doesNotContain("terminally deprecated method in sun.misc.Unsafe");

        CliRun unweave = CliRun.of("ctl", Long.toString(app.pid()), "unweave");
        assertThat(unweave.exit()).as(unweave.err() + appLog()).isZero();
        get(port);
        assertThat(app.isAlive()).isTrue();
    }

    @Test
    void enableDynamicAgentLoadingSilencesTheWarningOnJdk21Plus() throws Exception {
        int port = startApp("-XX:+EnableDynamicAgentLoading");
        Path policy = Files.writeString(dir.resolve("low.yaml"), LOW);
        CliRun attach = CliRun.of("attach", Long.toString(app.pid()), "--policy", policy.toString());
        assertThat(attach.exit()).as(attach.err() + appLog()).isZero();
        get(port);
        assertThat(CliRun.of("ctl", Long.toString(app.pid()), "status").out())
                .containsPattern("scheduler: [1-9][0-9]* control points");
        assertThat(appLog()).doesNotContain(DYNAMIC_WARNING);
    }
}
