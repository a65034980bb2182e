package io.qosweaver.bench.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.run.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI end-to-end test of {@code bench tracing} in a tiny form (one repeat of every configuration,
 * 0.5 s warm-ups, 1.5 s windows) with the real river monitor and agent. Asserts the mechanics (every
 * configuration ran and is in the results, the traced ones wrote a trace, the report exists), never a
 * time: none of that depends on how long the load runs (a trace is written when the process stops,
 * a window may see no chart complete), so the windows are as short as the process starts allow.
 * About 45 s; skipped, with a message, when a jar has not been built.
 */
class TracingSmokeTest {

    @Test
    void everyConfigurationRunsAndIsReported(@TempDir Path dir) throws Exception {
        Layout layout = new Layout(Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize());
        for (Path jar : List.of(layout.riverMonitorJar(), layout.agentJar())) {
            if (!Files.isRegularFile(jar)) {
                System.err.println("SKIPPED TracingSmokeTest: " + jar + " is missing; build it with "
                        + "./mvnw -q -B -DskipTests -pl examples/river-monitor,agent -am package");
            }
            Assumptions.assumeTrue(Files.isRegularFile(jar), "jar missing: " + jar);
        }
        List<String> configs = new ArrayList<>(TracingConfig.names());
        if (!tracefsUsable()) { // the agent refuses traceOs=tracefs there, with its reason
            System.err.println("TracingSmokeTest: configuration os-tracefs left out: tracefs is not usable here "
                    + "(not root, or not mounted at /sys/kernel/tracing or /sys/kernel/debug/tracing)");
            configs.remove("os-tracefs");
        }
        TracingParams p = new TracingParams(3, 2, 3, 0.5, 1.5, 1, 100, configs, List.of("--history-hours", "3"));
        TracingResult r = Tracing.run(layout, p, true, dir, "TracingSmokeTest",
                line -> System.err.println(java.time.LocalTime.now() + " " + line));

        assertThat(r.errors()).isEmpty();
        assertThat(r.runs()).extracting(TracingResult.Run::config).containsExactlyInAnyOrderElementsOf(configs);
        assertThat(r.configs()).extracting(TracingResult.ConfigSummary::config).containsExactlyElementsOf(configs);
        for (TracingResult.Run run : r.runs()) {
            // a cold chart can take seconds on a loaded machine: a window may see none complete
            assertThat(run.requests()).as(run.config() + " charts").isNotNegative();
            assertThat(run.errors()).as(run.config() + " failed charts").isZero();
            if (run.config().equals("off")) {
                assertThat(run.traceBytes()).isNull();
            } else {
                assertThat(run.traceBytes()).as(run.config() + " wrote a trace").isPositive();
            }
        }
        assertThat(r.configs()).allMatch(c -> c.runs() == 1, "one run each");
        assertThat(r.goals()).hasSize(1);
        assertThat(r.thesis()).isNotEmpty();
        for (String f : List.of("results.json", "index.html", "RESULTS.md")) {
            assertThat(dir.resolve(f)).as(f).isNotEmptyFile();
        }
    }

    /** As the trace module decides (root, and tracefs mounted where it looks). */
    private static boolean tracefsUsable() {
        boolean root = "root".equals(System.getProperty("user.name"));
        return root && (Files.isDirectory(Path.of("/sys/kernel/tracing/events/sched"))
                || Files.isDirectory(Path.of("/sys/kernel/debug/tracing/events/sched")));
    }
}
