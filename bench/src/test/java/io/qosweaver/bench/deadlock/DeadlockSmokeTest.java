package io.qosweaver.bench.deadlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Versions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI end-to-end test of {@code bench deadlock} with the real river monitor (with its synchronized
 * logger) and agent: the importance policy deadlocks, is detected and killed, and the deadlock-aware
 * policy does not deadlock and leaves nothing suspended. The policies have the logger's control
 * point only ({@code src/test/resources/deadlock/}): every chart thread told to yield then parks
 * inside the logger's monitor, so the deadlock comes at the first collection instead of by chance
 * as with the generated control points, and a small run (period 1 s, 20 rivers, 12 clients, 10 s)
 * decides. The limit is 10 periods: with no other control point, deadlock-aware's collections stall
 * 200-400 ms per chart thread caught in the logger, and must not be taken for a deadlock. About a
 * minute; skipped, with a message, when a jar has not been built.
 */
class DeadlockSmokeTest {

    @Test
    void importanceDeadlocksAndDeadlockAwareDoesNot(@TempDir Path dir) throws Exception {
        Layout layout = new Layout(Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize());
        for (Path jar : List.of(layout.riverMonitorJar(), layout.agentJar())) {
            if (!Files.isRegularFile(jar)) {
                System.err.println("SKIPPED DeadlockSmokeTest: " + jar + " is missing; build it with "
                        + "./mvnw -q -B -DskipTests -pl examples/river-monitor,agent -am package");
            }
            Assumptions.assumeTrue(Files.isRegularFile(jar), "jar missing: " + jar);
        }
        List<DeadlockVersions.Version> versions = List.of(
                version(DeadlockVersions.IMPORTANCE, "importance"),
                version(DeadlockVersions.DEADLOCK_AWARE, "deadlock-aware"));
        FlashCrowdParams p = new FlashCrowdParams(1, 20, 12, 3, 0, 0, 2, 10, List.of("--history-hours", "1"));
        DeadlockResult r = Deadlock.runVersions(layout, p, 3, 10, true, versions, dir, "DeadlockSmokeTest", Progress.NONE);

        assertThat(r.errors()).isEmpty();
        DeadlockResult.VersionResult imp = r.versions().get(DeadlockVersions.IMPORTANCE);
        assertThat(imp.deadlocked()).as("importance deadlocked").isTrue();
        assertThat(imp.deadlockEvidence()).as("the thread dump's evidence")
                .anyMatch(e -> e.startsWith("collector thread:") && e.contains("SyncLog.writeCollection"))
                .anyMatch(e -> e.startsWith("holds the logger's monitor:"));
        DeadlockResult.VersionResult da = r.versions().get(DeadlockVersions.DEADLOCK_AWARE);
        assertThat(da.deadlocked()).as("deadlock-aware deadlocked; evidence: " + da.deadlockEvidence()).isFalse();
        assertThat(da.permanentSuspension()).isFalse();
        assertThat(da.collectionCount()).isPositive();
        assertThat(da.runOnEpisodes()).as("waits that ran on").isPositive();
        assertThat(r.goals().get(0).met()).isTrue();
        assertThat(r.goals().get(1).met()).isTrue();
        for (String f : List.of("results.json", "index.html", "RESULTS.md")) {
            assertThat(dir.resolve(f)).as(f).isNotEmptyFile();
        }
    }

    private static DeadlockVersions.Version version(String name, String policy) {
        return new DeadlockVersions.Version(name, new Versions.Version(name, "logger-only " + policy, List.of(),
                "bench/src/test/resources/deadlock/logger-only-" + policy + ".yaml", null), true);
    }
}
