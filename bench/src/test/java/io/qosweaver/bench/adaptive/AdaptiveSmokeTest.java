package io.qosweaver.bench.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.run.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI smoke test of {@code bench adaptive} with the real river monitor and agent: the two probes and
 * one given target, each in its own process; and the same plus the baseline, a second target, a
 * change of target and the probe again in one shared process, with the run with collection in a
 * process of its own (it has one in both modes, so it runs only here). Tiny (20 rivers, 6 chart and
 * 20 up-to-date clients, 1 s warm-ups and charts alone for 1 s, 4 s windows, 6 s with collection;
 * 45 and 75 s on 2 cores). The
 * window with collection keeps its 6 s (three periods: a collection must start in it); the others
 * need only a few per-second samples after the 2 s settling. Asserts on structure and on what the agent must show:
 * the fixed limits, and an adaptive limit within its bounds; never on throughput. Skipped, with a
 * message, when a jar has not been built.
 */
class AdaptiveSmokeTest {

    @Test
    void probesAndATargetEachInItsOwnProcess(@TempDir Path dir) throws Exception {
        AdaptiveResult r = run(dir, false);
        assertThat(dir.resolve("app-limit-4.log")).content().contains("[qosweaver]").doesNotContain("shared");
        assertThat(dir.resolve("app-session.log")).doesNotExist();
        assertThat(r.runs()).containsOnlyKeys("limit-4", "limit-1", "target-100");
    }

    @Test
    void probesAndATargetShareOneProcessSwappedBetweenRunsAndTheCollectionGetsItsOwn(@TempDir Path dir)
            throws Exception {
        AdaptiveResult r = run(dir, true);
        String pid = null;
        // the baseline between the probes and the targets: unwoven, then woven again by a target's swap; a change
        // of target from the middle one (here the higher) to the lowest, set in the running policy
        assertThat(r.runs()).containsOnlyKeys("limit-4", "limit-1", "original", "target-100", "target-150",
                "collector-150", "step-150-to-100", "limit-4-again");
        assertThat(r.runs().get("original").lowLimitMax()).as("no scheduler, no limit exported").isNull();
        assertThat(r.runs().get("limit-4-again").lowLimitMax()).isEqualTo(4.0);
        AdaptiveResult.Run step = r.runs().get("step-150-to-100");
        assertThat(step.error()).isNull();
        assertThat(step.target()).isEqualTo(100.0);
        assertThat(step.lowLimitMin()).isBetween(1.0, 4.0);
        assertThat(dir.resolve("policies/step-150-to-100.yaml")).content().contains("target: 150");
        assertThat(r.goals()).anyMatch(g -> g.goal().startsWith("settles within 3 s after a change of target"));
        for (String run : List.of("limit-4", "limit-1", "original", "target-100", "target-150", "step-150-to-100",
                "limit-4-again")) {
            String line = Files.readString(dir.resolve("app-" + run + ".log"));
            assertThat(line).contains("in the shared app process", "app-session.log",
                    run.equals("original") ? "unwoven" : "swapped to policies/" + run + ".yaml");
            String p = line.replaceAll("(?s).*\\(pid (\\d+)\\).*", "$1");
            assertThat(pid == null || pid.equals(p)).as("one pid for every run: %s", line).isTrue();
            pid = p;
        }
        assertThat(dir.resolve("app-session.log")).content().contains("[qosweaver]");
        assertThat(dir.resolve("app-collector-150.log")).content().doesNotContain("in the shared app process");
        assertThat(r.runs().get("collector-150").collections()).as("a 2 s period collects in a 6 s window").isPositive();
        assertThat(r.parameters()).containsEntry("one_process", true);
    }

    private static AdaptiveResult run(Path dir, boolean oneProcess) throws Exception {
        Layout layout = new Layout(Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize());
        for (Path jar : List.of(layout.riverMonitorJar(), layout.agentJar())) {
            if (!Files.isRegularFile(jar)) {
                System.err.println("SKIPPED AdaptiveSmokeTest: " + jar + " is missing; build it with "
                        + "./mvnw -q -B -DskipTests -pl examples/river-monitor,agent -am package");
            }
            Assumptions.assumeTrue(Files.isRegularFile(jar), "jar missing: " + jar);
        }
        // one process: with the baseline (the app unwoven in it) and the lower probe again at the end
        AdaptiveParams p = new AdaptiveParams(20, 3, 1, 6, 20, 1, 1, 4, 2, 2, 6, 1, 4, 15, List.of(), 150, oneProcess,
                oneProcess, 0, java.util.Map.of(), oneProcess);
        List<Double> targets = oneProcess ? List.of(100.0, 150.0) : List.of(100.0);
        AdaptiveResult r = Adaptive.run(layout, p, targets, true, dir, "AdaptiveSmokeTest", Progress.NONE);

        assertThat(r.errors()).isEmpty();
        assertThat(r.runs().get("limit-4").lowLimitMax()).as("the agent exports the fixed limit").isEqualTo(4.0);
        assertThat(r.runs().get("limit-1").lowLimitMax()).isEqualTo(1.0);
        AdaptiveResult.Run t = r.runs().get("target-100");
        assertThat(t.middlePerS()).isPositive();
        assertThat(t.lowLimitMin()).isBetween(1.0, 4.0);
        assertThat(t.lowLimitMax()).isBetween(1.0, 4.0);
        assertThat(t.series()).as("one point a second of the window").hasSize((int) p.windowS());
        assertThat(r.feasible().low()).isPositive();
        for (String f : List.of("results.json", "index.html", "RESULTS.md", "target-100.png",
                "policies/target-100.yaml")) {
            assertThat(dir.resolve(f)).as(f).isNotEmptyFile();
        }
        return r;
    }
}
