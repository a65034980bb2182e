package io.qosweaver.scheduler;


import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import io.qosweaver.scheduler.core.VirtualThreadAllocationMain;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Virtual threads need JDK 21+, while this module is Java 17 bytecode: launch a child JVM on a
 * JDK 21+ found via JAVA21_HOME, JAVA_HOME or /usr/lib/jvm/*, and skip visibly when none exists.
 */
class VirtualThreadTest {

    static Optional<Path> findJdk21() {
        List<Path> candidates = new ArrayList<>();
        for (String env : new String[] {"JAVA21_HOME", "JAVA_HOME"}) {
            String v = System.getenv(env);
            if (v != null && !v.isBlank()) {
                candidates.add(Path.of(v));
            }
        }
        candidates.add(Path.of(System.getProperty("java.home")));
        Path jvms = Path.of("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> s = Files.list(jvms)) {
                s.sorted().forEach(candidates::add);
            } catch (Exception ignored) {
                // no candidates from there
            }
        }
        Pattern version = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);
        for (Path home : candidates) {
            Path release = home.resolve("release");
            Path java = home.resolve("bin").resolve("java");
            try {
                Matcher m = version.matcher(Files.readString(release));
                if (m.find() && Integer.parseInt(m.group(1)) >= 21 && Files.isExecutable(java)) {
                    return Optional.of(java);
                }
            } catch (Exception ignored) {
                // not a JDK
            }
        }
        return Optional.empty();
    }

    @Test
    void virtualThreadsAreSuspendedAndReleased() throws Exception {
        runOnJdk21(VirtualThreadMain.class.getName(), "OK virtual threads");
    }

    /** Fails without the pool: a thread local per virtual thread allocates a map, an entry and a record. */
    @Test
    void aVirtualThreadPerRequestAllocatesNothingForItsScope() throws Exception {
        runOnJdk21(VirtualThreadAllocationMain.class.getName(), "OK virtual-thread allocation");
    }

    private static void runOnJdk21(String main, String ok) throws Exception {
        Optional<Path> java = findJdk21();
        Assumptions.assumeTrue(java.isPresent(),
                "SKIPPED: no JDK 21+ found (set JAVA21_HOME); virtual-thread support is untested here");
        Process p = new ProcessBuilder(java.get().toString(), "-Xmx256m", "-Dqosweaver.jmx=false",
                "-cp", System.getProperty("java.class.path"), main)
                .redirectErrorStream(true)
                .start();
        boolean finished = p.waitFor(120, TimeUnit.SECONDS);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!finished) {
            p.destroyForcibly();
        }
        assertThat(finished).as("child JVM finished; output:%n%s", out).isTrue();
        assertThat(p.exitValue()).as("exit code; output:%n%s", out).isZero();
        assertThat(out).contains(ok);
        System.out.println(out.trim() + " (" + java.get() + ")");
    }
}
