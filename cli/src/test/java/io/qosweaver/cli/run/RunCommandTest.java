package io.qosweaver.cli.run;

import io.qosweaver.cli.Main;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {
    private static final String VALID = "taskClasses:\n  - name: chart\n    servletPath: /chart\n"
            + "    importance: low\npolicy:\n  name: importance\n";
    @TempDir
    Path dir;
    Path policy;
    Path agent;

    @BeforeEach
    void files() throws Exception {
        policy = Files.writeString(dir.resolve("policy.yaml"), VALID);
        agent = Files.write(dir.resolve("qosweaver-agent.jar"), new byte[] {1});
    }

    @Test
    void insertsTheAgentRightAfterTheJavaExecutable() {
        List<String> out = RunCommand.rewrite(List.of("/usr/bin/java", "-Xmx1g", "-jar", "app.jar", "--port", "0"),
                agent, policy, null);
        assertThat(out).containsExactly("/usr/bin/java",
                "-javaagent:" + agent.toAbsolutePath() + "=policy=" + policy.toAbsolutePath(),
                "-Xmx1g", "-jar", "app.jar", "--port", "0");
    }

    @Test
    void addsTheMetricsPort() {
        List<String> out = RunCommand.rewrite(List.of("java", "-jar", "app.jar"), agent, policy, 9404);
        assertThat(out.get(0)).isEqualTo("java");
        assertThat(out.get(1)).endsWith("=policy=" + policy.toAbsolutePath() + ",metricsPort=9404");
        assertThat(out.subList(2, out.size())).containsExactly("-jar", "app.jar");
    }

    @Test
    void refusesWhatIsNotAJavaCommand() {
        assertThatThrownBy(() -> RunCommand.rewrite(List.of("python3", "app.py"), agent, policy, null))
                .hasMessageContaining("'python3' is not a java command");
        assertThatThrownBy(() -> RunCommand.rewrite(List.of("/opt/javascript", "x"), agent, policy, null))
                .hasMessageContaining("not a java command");
        assertThatThrownBy(() -> RunCommand.rewrite(List.of(), agent, policy, null))
                .hasMessageContaining("no command");
    }

    @Test
    void refusesAMissingPolicyOrAgent() {
        assertThatThrownBy(() -> RunCommand.rewrite(List.of("java", "-version"), agent, dir.resolve("nope.yaml"), null))
                .hasMessageContaining("policy file not found").hasMessageContaining("nope.yaml");
        assertThatThrownBy(() -> RunCommand.rewrite(List.of("java", "-version"), dir.resolve("none.jar"), policy, null))
                .hasMessageContaining("agent jar not found");
    }

    @Test
    void theCommandLineReturnsTheChildsExitCodeAndErrorsClearly() {
        PrintStream err = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true));
        try {
            int rc = Main.commandLine().execute("run", "--policy", dir.resolve("missing.yaml").toString(),
                    "--agent", agent.toString(), "--", "java", "-version");
            assertThat(rc).isEqualTo(2);
            assertThat(buf.toString()).contains("policy file not found");
        } finally {
            System.setErr(err);
        }
    }

    @Test
    void runsTheChildWithTheAgentAndReturnsItsExitCode() throws Exception {
        Path noop = noopAgentJar();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        assertThat(Main.commandLine().execute("run", "--policy", policy.toString(), "--agent", noop.toString(), "--",
                java, "-Xshare:auto", "-version")).isZero();
        assertThat(Main.commandLine().execute("run", "--policy", policy.toString(), "--agent", noop.toString(), "--",
                java, "-cp", dir.toString(), "NoSuchMainClass")).isEqualTo(1);
    }

    @Test
    void aPolicyFileTheAgentWouldRefuseIsRefusedBeforeAnyJvmStarts() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.yaml"), VALID.replace("servletPath: /chart",
                "entry: call(void a.B.c())"));
        Path marker = dir.resolve("started");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String err = stderrOf(() -> assertThat(Main.commandLine().execute("run", "--policy", broken.toString(),
                "--agent", noopAgentJar().toString(), "--", java, "-XX:+UnlockDiagnosticVMOptions",
                "-XX:LogFile=" + marker, "-XX:+LogVMOutput", "-version")).isEqualTo(2));
        assertThat(err).contains("qosweaver run: " + broken + ":3:").contains("call(...) is not allowed");
        assertThat(marker).as("no JVM was started").doesNotExist();
    }

    @Test
    void aBrokenPolicyThatFailsOpenStartsWithAWarning() throws Exception {
        Path broken = Files.writeString(dir.resolve("open.yaml"), "failOpen: true\n" + VALID + "  lowLimit: [1\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String err = stderrOf(() -> assertThat(Main.commandLine().execute("run", "--policy", broken.toString(),
                "--agent", noopAgentJar().toString(), "--", java, "-Xshare:auto", "-version")).isZero());
        assertThat(err).contains("qosweaver run: " + broken + ":").contains("YAML syntax error")
                .contains("the application starts unscheduled");
    }

    private interface Body {
        void run() throws Exception;
    }

    private static String stderrOf(Body body) throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true));
        try {
            body.run();
        } finally {
            System.setErr(err);
        }
        return buf.toString();
    }

    private Path noopAgentJar() throws Exception {
        Path jar = dir.resolve("noop-agent.jar");
        java.util.jar.Manifest m = new java.util.jar.Manifest();
        m.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().putValue("Premain-Class", NoopAgent.class.getName());
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar), m);
             java.io.InputStream in = NoopAgent.class.getResourceAsStream("NoopAgent.class")) {
            out.putNextEntry(new java.util.jar.JarEntry(NoopAgent.class.getName().replace('.', '/') + ".class"));
            in.transferTo(out);
            out.closeEntry();
        }
        return jar;
    }

    @Test
    void versionAndHelpWork() {
        assertThat(Main.commandLine().execute("--version")).isZero();
        assertThat(Main.commandLine().execute("--help")).isZero();
        assertThat(Main.commandLine().execute("bench", "flashcrowd", "--help")).isZero();
        assertThat(Main.commandLine().execute("demo", "--help")).isZero();
    }
}
