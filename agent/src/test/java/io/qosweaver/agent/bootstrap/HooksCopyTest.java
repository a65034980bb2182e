package io.qosweaver.agent.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The JMH module's copy of {@link Hooks} (HooksBenchmark measures it) stays the agent's, to the byte. */
class HooksCopyTest {
    @Test
    void theJmhCopyIsIdentical() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        Path rel = Path.of("src/main/java/io/qosweaver/agent/bootstrap/Hooks.java");
        Path copy = root.resolve("jmh").resolve(rel);
        Assumptions.assumeTrue(Files.isRegularFile(copy), "no jmh module beside the agent: " + copy);
        assertThat(Files.readString(copy)).as("jmh's copy of Hooks.java: cp agent/" + rel + " jmh/" + rel)
                .isEqualTo(Files.readString(root.resolve("agent").resolve(rel)));
    }
}
