package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A very short run of the runner with the real river monitor jar: period 1 s, 5 rivers, 3 h of
 * history, 5 s under 4 chart clients. Skipped, with a message, when the jar has not been built.
 */
class RealRiverMonitorSmokeTest {

    @Test
    void theRealRiverMonitorRunsUnderTheRunner(@TempDir Path dir) throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        Path jar = root.resolve("examples/river-monitor/target/river-monitor.jar");
        if (!Files.isRegularFile(jar)) {
            System.err.println("SKIPPED RealRiverMonitorSmokeTest: " + jar + " is missing; build it with "
                    + "./mvnw -q -B -DskipTests -pl examples/river-monitor package");
        }
        Assumptions.assumeTrue(Files.isRegularFile(jar), "river-monitor jar missing: " + jar);
        FlashCrowdConfig c = new FlashCrowdConfig("original", 1, 5, 2, 3, 2, 2, 1, 5, List.of("-Xmx256m"),
                List.of("-jar", jar.toString()), List.of("--history-hours", "3"), dir.resolve("app.log"));
        RunResult r = new RiverMonitorRunner(Progress.NONE).run(c);
        assertThat(r.idle().collectionCount()).isPositive();
        assertThat(r.overloaded().collectionCount()).isPositive();
        assertThat(r.overloaded().collections()).allSatisfy(x -> assertThat(x.durationMs()).isNotNull());
        // a chart may take longer than this short window on a busy machine: only the light class must complete
        assertThat(r.overloaded().load()).extracting(l -> l.name()).containsExactly("chart", "levels");
        assertThat(r.overloaded().levelsThroughputPerS()).isPositive();
        assertThat(r.overloaded().levelsP99Ms()).isNotNull();
        assertThat(r.overloaded().suspensionTimeP50Ms()).as("no agent, no suspension metrics").isNull();
    }
}
