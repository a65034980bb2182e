package io.qosweaver.bench.swap;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.run.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI end-to-end test of {@code bench swap} with the real river monitor and agent: one whole cycle
 * of changes (admission, unweave, importance, lowLimit 2, lowLimit 1) under a small flash crowd
 * (period 1 s, 20 rivers, 6 clients, a change every 2 s for 12 s). Asserts the mechanics of the
 * goals (every change succeeded and put the expected policy in force, no request lost or failed,
 * no thread left parked, the app alive), never a time. About 40 s; skipped, with a message, when a
 * jar has not been built.
 */
class SwapSmokeTest {

    @Test
    void aWholeCycleOfChangesUnderLoadLosesNothing(@TempDir Path dir) throws Exception {
        Layout layout = new Layout(Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize());
        for (Path jar : List.of(layout.riverMonitorJar(), layout.agentJar())) {
            if (!Files.isRegularFile(jar)) {
                System.err.println("SKIPPED SwapSmokeTest: " + jar + " is missing; build it with "
                        + "./mvnw -q -B -DskipTests -pl examples/river-monitor,agent -am package");
            }
            Assumptions.assumeTrue(Files.isRegularFile(jar), "jar missing: " + jar);
        }
        SwapParams p = new SwapParams(1, 20, 6, 3, 2, 2, 12, SwapParams.DEFAULT_GRACE_S,
                List.of("--history-hours", "1"));
        SwapResult r = Swap.run(layout, p, true, dir, "SwapSmokeTest", line -> System.err.println(java.time.LocalTime.now() + " " + line));

        assertThat(r.errors()).isEmpty();
        assertThat(r.steps()).hasSize(5);
        assertThat(r.steps()).as("every change answered ok and its policy in force: %s", r.steps())
                .allMatch(SwapResult.StepResult::verified);
        assertThat(r.phases()).extracting(SwapResult.PhaseResult::policy).containsExactly("importance lowLimit=1",
                "admission lowLimit=1", "none", "importance lowLimit=1", "importance lowLimit=2", "importance lowLimit=1");
        SwapResult.Accounting a = r.accounting();
        assertThat(a.sent()).isPositive();
        assertThat(a.drained()).isTrue();
        assertThat(a.lost()).as("lost: %s", a).isZero();
        assertThat(a.failed()).as("failed: %s", a.failureKinds()).isZero();
        assertThat(a.suspendedThreads()).as("the scheduler's parked threads at the end").isZero();
        assertThat(a.parkedInThreadDump()).as("parked in QoSWeaver code, by the thread dump in "
                + dir.resolve("app-threads-at-end.txt")).isZero();
        assertThat(a.appAlive()).isTrue();
        assertThat(r.phases().stream().mapToLong(ph -> ph.metrics().chartCompleted()).sum())
                .as("charts completed in the measured phases").isPositive().isLessThanOrEqualTo(a.completed());
        assertThat(r.latency().count()).isEqualTo(5);
        assertThat(r.goals()).extracting(SwapResult.Goal::met).first().isEqualTo(true);
        assertThat(r.goals().subList(1, 5)).as("none lost, failed, parked; alive").allMatch(g -> Boolean.TRUE.equals(g.met()));
        assertThat(dir.resolve("policies/river-monitor.yaml")).isNotEmptyFile();
        assertThat(dir.resolve("policies/admission.yaml")).isNotEmptyFile();
        for (String f : List.of("results.json", "index.html", "RESULTS.md", "app.log")) {
            assertThat(dir.resolve(f)).as(f).isNotEmptyFile();
        }
    }
}
