package io.qosweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java API under the real agent, in child JVMs: two API scopes at 70 % and 20 % on one managed
 * core (P = 1, reserved 5 %) get CPU time near 0.7 / 0.9 of what the two use, whether the agent
 * starts first ({@code -javaagent}) or is attached after the application used the API; the
 * agent's /metrics carries both shares.
 */
class ApiSharesIT {
    private static final Pattern RESULT =
            Pattern.compile("SCHEDULED=(\\w+) BIG_CPU_MS=(\\d+) SMALL_CPU_MS=(\\d+) WALL_MS=(\\d+)");
    private static final Pattern METRICS_PORT =
            Pattern.compile("\\[qosweaver] metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics");

    @TempDir
    Path dir;
    private ChildJvms jvms;
    private final List<Process> attached = new ArrayList<>();

    @AfterEach
    void stop() {
        if (jvms != null) {
            jvms.stopAll();
        }
        attached.forEach(Process::destroyForcibly);
    }

    private Path policy() throws Exception {
        // The policy file names one class (a file needs one); the API's shares come on top of it.
        return Files.writeString(dir.resolve("api.yaml"), """
                taskClasses:
                  - name: unused
                    entry: execution(void io.qosweaver.e2e.E2eApiShareApp.never())
                    fraction: 0.05
                policy:
                  name: mtr-ls
                  cores: 1
                """);
    }

    /** The test classes and the API: nothing of the scheduler on the application's class path. */
    private static String classPath() {
        return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.endsWith("test-classes") || e.contains("qosweaver-api") || e.endsWith("api/target/classes"))
                .collect(Collectors.joining(File.pathSeparator));
    }

    @Test
    void twoApiScopesAt70And20PercentUnderTheAgentGetThatRatio() throws Exception {
        jvms = new ChildJvms(dir);
        ChildJvms.Child c = jvms.start(List.of(), "policy=" + policy() + ",metricsPort=0", classPath(),
                E2eApiShareApp.class.getName(), "4000");
        String out = awaitResult(c.process(), c.stdout());
        check(out, c.err());
        int port = c.port(METRICS_PORT, c.err());
        assertThat(port).as(c.err()).isPositive();
        assertThat(ChildJvms.get(port, "/metrics"))
                .contains("qosweaver_share_fraction{entity=\"big\",task_class=\"api\",kind=\"fraction\"} 0.700000\n")
                .contains("qosweaver_share_fraction{entity=\"small\",task_class=\"api\",kind=\"fraction\"} 0.200000\n");
    }

    @Test
    void anAgentAttachedAfterTheApplicationUsedTheApiSchedulesItsShares() throws Exception {
        Path stdout = dir.resolve("out-attach"), stderr = dir.resolve("err-attach");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xshare:off", "-Xmx256m", "-Djdk.attach.allowAttachSelf=true",
                "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading", "-cp", classPath(),
                E2eApiShareApp.class.getName(), "4000", ChildJvms.agentJar().toString(), "policy=" + policy())
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        attached.add(p);
        String out = awaitResult(p, stdout);
        assertThat(out).contains("BEFORE scheduled=false");
        check(out, Files.readString(stderr));
    }

    private static String awaitResult(Process p, Path stdout) throws Exception {
        await().atMost(90, TimeUnit.SECONDS).until(() -> RESULT.matcher(Files.readString(stdout)).find() || !p.isAlive());
        return Files.readString(stdout);
    }

    private static void check(String out, String err) {
        Matcher m = RESULT.matcher(out);
        assertThat(m.find()).as("stdout: %s%nstderr: %s", out, err).isTrue();
        assertThat(m.group(1)).as("the API found the scheduler").isEqualTo("true");
        long big = Long.parseLong(m.group(2)), small = Long.parseLong(m.group(3)), wall = Long.parseLong(m.group(4));
        double ratio = (double) big / (big + small);
        System.out.printf("API shares under the agent: big %d ms, small %d ms of CPU in %d ms: big/(big+small) %.3f,"
                + " shares of the core %.3f and %.3f%n", big, small, wall, ratio, big / (double) wall, small / (double) wall);
        assertThat(ratio).as("0.7 / (0.7 + 0.2)").isCloseTo(0.7 / 0.9, within(0.08));
        assertThat(big + small).as("P = 1: at most one core between them").isLessThanOrEqualTo(wall * 105 / 100);
    }
}
