package io.qosweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.platform.testing.Jdks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a user sees when a JVM starts with the agent: the agent's own line, the JVM's class-sharing
 * warning once (one append to the bootstrap class path), and on JDK 21+ no warning about
 * {@code sun.misc.Unsafe}; a misspelt argument is named. Class data sharing stays on (the default),
 * unlike in the other end-to-end tests.
 */
class AgentStartIT {
    static final String SHARING = "Sharing is only supported for boot loader classes";
    @TempDir
    Path dir;

    private record Run(int exit, String out, String err) {}

    private static final String IMPORTANCE = """
            taskClasses:
              - name: main
                entry: execution(void io.qosweaver.e2e.StartMain.run())
                importance: high
            policy:
              name: importance
            """;

    private Run start(String java, String agentArgs, String... mainArgs) throws IOException, InterruptedException {
        return startWithPolicy(IMPORTANCE, java, agentArgs, mainArgs);
    }

    private Run startWithPolicy(String policyText, String java, String agentArgs, String... mainArgs)
            throws IOException, InterruptedException {
        Path policy = Files.writeString(dir.resolve("p.yaml"), policyText);
        Path out = dir.resolve("out.txt"), err = dir.resolve("err.txt");
        List<String> cmd = new ArrayList<>(List.of(java,
                "-javaagent:" + ChildJvms.agentJar() + "=" + agentArgs.replace("POLICY", policy.toString()),
                "-cp", Path.of("target", "test-classes").toAbsolutePath().toString(), StartMain.class.getName()));
        cmd.addAll(List.of(mainArgs));
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("the JVM ended").isTrue();
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    private static int count(String text, String what) {
        return text.split(Pattern.quote(what), -1).length - 1;
    }

    private static void assertCleanStart(Run r) {
        assertThat(r.exit()).as("exit; stderr:%n%s", r.err()).isZero();
        assertThat(r.out()).contains("STARTED");
        assertThat(r.err()).contains("[qosweaver] agent started: policy");
        assertThat(count(r.err(), SHARING)).as("class-sharing warnings (one append); stderr:%n%s", r.err())
                .isLessThanOrEqualTo(1);
        assertThat(r.err()).as("stderr").doesNotContain("sun.misc.Unsafe").doesNotContain("terminally deprecated");
    }

    @Test
    void onThisJdkTheJvmWarnsOnceAndTheAgentStarts() throws Exception {
        assertCleanStart(start(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "policy=POLICY"));
    }

    @Test
    void onJdk21OrNewerNothingWarnsAboutUnsafe() throws Exception {
        Optional<Path> java = Jdks.atLeast(21);
        Assumptions.assumeTrue(java.isPresent(), Jdks.NONE_21);
        assertCleanStart(start(java.get().toString(), "policy=POLICY"));
    }

    /**
     * JDK 24 and later warn when code in an unnamed module calls native code without
     * {@code --enable-native-access} (JEP 472), and the swap rehearsal raises its thread's priority
     * through JNA: without the check in {@code WeavingPriority} every JVM started with the agent
     * printed four lines of warning.
     */
    @Test
    void onJdk24OrNewerTheSwapRehearsalCallsNoNativeCodeThatWarns() throws Exception {
        Optional<Path> java = Jdks.atLeast(24);
        Assumptions.assumeTrue(java.isPresent(), "SKIPPED: no JDK 24+ found (set JAVA21_HOME to one)");
        Run r = start(java.get().toString(), "policy=POLICY,debug=true", "3000");
        assertCleanStart(r);
        assertThat(r.err()).as("the rehearsal ran in the JVM's lifetime").contains("swap rehearsed");
        assertThat(r.err()).doesNotContain("restricted method").doesNotContain("--enable-native-access=ALL-UNNAMED to avoid");
    }

    /**
     * A policy with a tick (MTR-LS) asks at install whether handed-off threads can be placed on a
     * CPU: the answer must not load JNA on JDK 24+ without native access (placement is optional).
     */
    @Test
    void onJdk24OrNewerAPolicyWithATickCallsNoNativeCodeThatWarns() throws Exception {
        Optional<Path> java = Jdks.atLeast(24);
        Assumptions.assumeTrue(java.isPresent(), "SKIPPED: no JDK 24+ found (set JAVA21_HOME to one)");
        Run r = startWithPolicy("""
                taskClasses:
                  - name: main
                    entry: execution(void io.qosweaver.e2e.StartMain.run())
                    fraction: 0.5
                policy:
                  name: mtr-ls
                """, java.get().toString(), "policy=POLICY");
        assertThat(r.exit()).as("exit; stderr:%n%s", r.err()).isZero();
        assertThat(r.err()).contains("[qosweaver] agent started: policy");
        assertThat(r.err()).doesNotContain("restricted method").doesNotContain("--enable-native-access=ALL-UNNAMED to avoid");
    }

    @Test
    void aMisspeltArgumentIsNamedAndTheJvmExitsCleanly() throws Exception {
        Run r = start(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "polcy=POLICY");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("[qosweaver] ERROR unknown agent argument 'polcy' (did you mean policy?)")
                .doesNotContain("missing agent argument").doesNotContain("FATAL ERROR");
        assertThat(r.out()).doesNotContain("STARTED");
    }
}
