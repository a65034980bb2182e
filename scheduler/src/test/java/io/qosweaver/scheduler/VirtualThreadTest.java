package io.qosweaver.scheduler;


import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import io.qosweaver.platform.testing.Jdks;
import io.qosweaver.scheduler.core.VirtualThreadAllocationMain;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Virtual threads need JDK 21+, while this module is Java 17 bytecode: launch a child JVM on a
 * JDK 21+ found via JAVA21_HOME, JAVA_HOME or /usr/lib/jvm/*, and skip visibly when none exists.
 */
class VirtualThreadTest {

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
        Optional<Path> java = Jdks.atLeast(21);
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
