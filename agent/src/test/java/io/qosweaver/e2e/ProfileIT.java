package io.qosweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.qosweaver.agent.PolicyFile;
import io.qosweaver.agent.ProfileLauncher;
import io.qosweaver.agent.pointcut.PointcutParser;
import io.qosweaver.e2e.profiled.TinyApp;
import io.qosweaver.pointcuts.GenerationReport;
import io.qosweaver.pointcuts.PointcutsTool;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The profiling mode end to end: the shaded agent jar under -javaagent in a child JVM, the profile
 * read back with the pointcuts module, control points generated from it and parsed by the agent.
 */
class ProfileIT {
    private static Path agentJar;
    private static String java;
    private final List<Process> started = new ArrayList<>();

    @TempDir
    Path dir;

    @BeforeAll
    static void locate() {
        agentJar = Path.of(System.getProperty("qosweaver.agentJar", "target/qosweaver-agent.jar")).toAbsolutePath();
        assertThat(agentJar).as("run 'package' first: the agent jar").exists();
        java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @AfterEach
    void stop() {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    @Test
    void launcherProfilesATinyProgramAndTheGeneratedControlPointsParse() throws Exception {
        String testClasses = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.endsWith("test-classes")).collect(Collectors.joining(File.pathSeparator));
        Path out = dir.resolve("tiny.qwp");
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        int exit = ProfileLauncher.run(agentJar, List.of("io.qosweaver.e2e.profiled"), out, List.of(),
                List.of(java, "-Xshare:off", "-XX:TieredStopAtLevel=1", "-cp", testClasses, TinyApp.class.getName()),
                new PrintStream(report, true, StandardCharsets.UTF_8));
        String text = report.toString(StandardCharsets.UTF_8);
        assertThat(exit).as(text).isZero();
        assertThat(text).contains("[qosweaver] profile " + out + ": ").contains(", 1 threads, ").contains(", complete");
        ProfileLauncher.Summary s = ProfileLauncher.summary(out);
        assertThat(s.joinPoints()).isGreaterThan(1000);
        assertThat(s.limit()).isNull();

        Path yaml = dir.resolve("cp.yaml");
        GenerationReport r = PointcutsTool.run(List.of(out), Duration.ofMillis(1), 1, yaml,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertThat(r.pointcuts()).isNotEmpty();
        List<String> cps = controlPoints(Files.readString(yaml));
        assertThat(cps).hasSize(r.pointcuts().size());
        for (String cp : cps) {
            assertThat(PointcutParser.parse(cp)).isNotNull();
            assertThat(cp).contains("withincode(").contains("io.qosweaver.e2e.profiled.TinyApp.");
        }
        // and a policy file with them loads
        PolicyFile.parse("generated.yaml", policy("execution(void io.qosweaver.e2e.profiled.TinyApp.main(..))", cps));
    }

    /**
     * The paper's profiling run (section 3.3, 5.3) on the river monitor: include org.jfree, one
     * client sending 12 h charts one after another, pointcuts at t = 10 ms, m = 1, and the
     * generated policy loads in the agent on the real application.
     */
    @Test
    void riverMonitorProfiledWithJFreeChartGivesAPolicyThatLoads() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.repoRoot", "..")).toAbsolutePath();
        Path jar = root.resolve("examples/river-monitor/target/river-monitor.jar");
        if (!Files.exists(jar)) {
            System.err.println("SKIPPED riverMonitorProfiledWithJFreeChartGivesAPolicyThatLoads: " + jar + " is absent"
                    + " (build examples/river-monitor first)");
        }
        Assumptions.assumeTrue(Files.exists(jar), "river-monitor.jar absent: " + jar);
        Path out = dir.resolve("river.qwp");
        Path err = dir.resolve("err-profile");
        Path stdout = dir.resolve("out-profile");
        Process p = launch(jar, "-javaagent:" + agentJar + "=profile=" + out + ",include=org.jfree,start=paused,metricsPort=0",
                stdout, err);
        int port = awaitLine(p, stdout, err, Pattern.compile("river-monitor listening on http://127\\.0\\.0\\.1:(\\d+)"), true);
        int control = awaitLine(p, stdout, err, Pattern.compile("profile control on http://127\\.0\\.0\\.1:(\\d+)/"), false);
        HttpClient http = HttpClient.newHttpClient();
        chart(http, port); // warm-up, not profiled
        chart(http, port);
        // one chart profiled: m = 1 then means "once per chart" (with k charts on k timelines a
        // join point that occurs once per chart selects k join points)
        assertThat(post(http, control, "/profile/start")).startsWith("recording " + out);
        chart(http, port);
        assertThat(post(http, control, "/profile/stop")).contains(" join points, ");
        p.destroy(); // the shutdown hook finds the profile already closed
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        ProfileLauncher.Summary s = ProfileLauncher.summary(out);
        assertThat(s.joinPoints()).isGreaterThan(10_000);
        assertThat(s.threads()).isEqualTo(1);
        assertThat(s.limit()).isNull();

        Path yaml = dir.resolve("river-cp.yaml");
        GenerationReport r = PointcutsTool.run(List.of(out), Duration.ofMillis(10), 1, List.of(jar), yaml, System.err);
        List<String> cps = controlPoints(Files.readString(yaml));
        assertThat(cps).isNotEmpty().allMatch(cp -> cp.contains("org.jfree."));
        Path policy = Files.writeString(dir.resolve("generated.yaml"),
                policy("execution(void org.rivermonitor.collector.Collector.collect())", cps));
        Path err2 = dir.resolve("err-policy");
        Process q = launch(jar, "-javaagent:" + agentJar + "=policy=" + policy, dir.resolve("out-policy"), err2);
        int port2 = awaitLine(q, dir.resolve("out-policy"), err2,
                Pattern.compile("river-monitor listening on http://127\\.0\\.0\\.1:(\\d+)"), true);
        assertThat(Files.readString(err2)).contains("[qosweaver] agent started: policy " + policy + ", 2 task classes, "
                + cps.size() + " control-point pointcuts");
        chart(http, port2);
        System.err.println("river monitor profile: " + s.toText(out) + "; " + r.pointcuts().size() + " pointcuts at 10 ms, m = 1");
    }

    private Process launch(Path jar, String agent, Path stdout, Path stderr) throws Exception {
        Process p = new ProcessBuilder(java, "-Xshare:off", "-Xmx512m", agent, "-jar", jar.toString(), "--port", "0",
                "--generator-port", "0", "--rivers", "2", "--period", "60s", "--history-hours", "12")
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        started.add(p);
        return p;
    }

    private static int awaitLine(Process p, Path stdout, Path stderr, Pattern line, boolean onStdout) {
        int[] port = {-1};
        await().atMost(90, TimeUnit.SECONDS).pollInterval(Duration.ofMillis(200)).until(() -> {
            Matcher m = line.matcher(Files.readString(onStdout ? stdout : stderr));
            if (m.find()) {
                port[0] = Integer.parseInt(m.group(1));
            }
            return port[0] > 0 || !p.isAlive();
        });
        assertThat(port[0]).as(() -> {
            try {
                return Files.readString(stderr);
            } catch (Exception e) {
                return e.toString();
            }
        }).isPositive();
        return port[0];
    }

    private static void chart(HttpClient http, int port) throws Exception {
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/chart?river=1&hours=12")).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(r.statusCode()).isEqualTo(200);
    }

    private static String post(HttpClient http, int port, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(60)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        return r.body();
    }

    /** The quoted items of the generated controlPoints: section. */
    static List<String> controlPoints(String yaml) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?m)^  - \"(.*)\"$").matcher(yaml);
        while (m.find()) {
            out.add(m.group(1).replace("\\\"", "\"").replace("\\\\", "\\"));
        }
        return out;
    }

    static String policy(String entry, List<String> cps) {
        StringBuilder b = new StringBuilder("taskClasses:\n  - name: collector\n    entry: " + entry
                + "\n    importance: high\n  - name: chart\n    servletPath: /chart\n    importance: low\ncontrolPoints:\n");
        for (String cp : cps) {
            b.append("  - \"").append(cp.replace("\\", "\\\\").replace("\"", "\\\"")).append("\"\n");
        }
        return b.append("policy:\n  name: importance\n  lowLimit: 1\n").toString();
    }
}
