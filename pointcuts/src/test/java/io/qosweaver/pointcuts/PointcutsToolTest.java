package io.qosweaver.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tool as the CLI runs it, on files like the agent's. */
class PointcutsToolTest {
    @TempDir
    Path dir;

    /**
     * An agent's profile records the calls made with a monitor held; reading them must keep every
     * other option (the coverage pass was once dropped here for every agent profile).
     */
    @Test
    void theOptionsSurviveTheMonitorsTheProfileRecorded() throws Exception {
        Path f = dir.resolve("agent-like.qwp");
        try (SlotProfileWriter w = SlotProfileWriter.open(f, ProfileWriter.Limits.DEFAULT, 1_000_000, 0)) {
            // 'often' in every 1 ms (10 a slot), 'rare' once in slot 0 only: m = 1 picks rare, the pass covers the rest
            for (int ms = 0; ms < 50; ms++) {
                for (int k = 0; k < 10; k++) {
                    w.joinPoint(ms * 1_000_000L + k * 50_000L, 1, "void p.Loop.run()", "void p.Loop.often()");
                }
            }
            w.joinPoint(100, 1, "void p.Loop.run()", "void p.Loop.rare()");
            w.joinPoint(200, 1, "void p.Loop.run()", "void p.Loop.locked()");
            w.meta(BinaryProfileFormat.MONITORS_RECORDED, "found when the probe was woven");
            w.meta(BinaryProfileFormat.IN_MONITOR_PREFIX + 0, "void p.Loop.run()\tvoid p.Loop.locked()");
        }
        PointcutGenerator.Options options = PointcutGenerator.Options.of(Duration.ofMillis(10), 1).withCoverAll(true);
        GenerationReport r = PointcutsTool.generate(List.of(f), options,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        assertThat(r.controlPointsYaml()).contains("call(void p.Loop.rare())").contains("call(void p.Loop.often())")
                .doesNotContain("locked()");
        assertThat(r.toJson()).contains("\"coverage_pointcuts\": 1");
    }
}
