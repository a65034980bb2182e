package io.qosweaver.bench.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.run.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI end-to-end test of {@code bench hooks} with the real river monitor and agent: one repeat of
 * the four processes, 2 s warm-ups and 3 s windows at 20 pages/s. Asserts the mechanics (every
 * version measured without errors, hooks counted, bytes recorded, every class byte-identical after
 * unweave, the report written), never a time. About a minute; skipped, with a message, when a jar
 * has not been built.
 */
class HooksSmokeTest {

    @Test
    void everyVersionIsMeasuredAndEveryClassIsByteIdenticalAfterUnweave(@TempDir Path dir) throws Exception {
        Layout layout = new Layout(Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize());
        for (Path jar : List.of(layout.riverMonitorJar(), layout.agentJar())) {
            if (!Files.isRegularFile(jar)) {
                System.err.println("SKIPPED HooksSmokeTest: " + jar + " is missing; build it with "
                        + "./mvnw -q -B -DskipTests -pl examples/river-monitor,agent -am package");
            }
            Assumptions.assumeTrue(Files.isRegularFile(jar), "jar missing: " + jar);
        }
        HooksParams p = new HooksParams(5, 20, 2, 3, 1, 0, 2, List.of("--history-hours", "1"));
        HooksResult r = Hooks.run(layout, p, true, dir, "HooksSmokeTest",
                line -> System.err.println(java.time.LocalTime.now() + " " + line));

        assertThat(r.errors()).isEmpty();
        assertThat(r.runs()).extracting(HooksResult.Run::version)
                .containsExactlyInAnyOrder("none", "execution", "all", "policy", "unwoven");
        assertThat(r.runs()).allMatch(x -> x.requests() > 0 && x.errors() == 0, "pages served, none failed");
        assertThat(r.memory()).extracting(HooksResult.Memory::version).containsExactlyInAnyOrder("execution", "all", "policy");
        HooksResult.Memory exec = r.memory().stream().filter(m -> m.version().equals("execution")).findFirst().orElseThrow();
        HooksResult.Memory all = r.memory().stream().filter(m -> m.version().equals("all")).findFirst().orElseThrow();
        assertThat(exec.executions()).isPositive();
        assertThat(exec.calls()).isZero();
        assertThat(all.calls()).isPositive();
        assertThat(all.wovenClassBytes()).isGreaterThan(all.originalClassBytes());
        assertThat(all.metaspaceFailed()).isZero();
        assertThat(r.identity()).hasSize(3).allMatch(i -> i.classesWoven() > 0 && i.identical() == i.classesWoven(),
                "every woven class byte-identical after unweave");
        assertThat(r.goals().get(2).met()).isTrue();
        // the phases after the windows: CPU per page everywhere, hooks counted per page in the hooks versions
        assertThat(r.perRequest()).extracting(HooksResult.PerRequest::version)
                .containsExactlyInAnyOrder("none", "execution", "all", "policy");
        assertThat(r.perRequest()).allMatch(x -> x.cpuMsPerRequest() != null && x.cpuMsPerRequest() > 0, "CPU per page");
        HooksResult.PerRequest execCount = r.perRequest().stream().filter(x -> x.version().equals("execution"))
                .findFirst().orElseThrow();
        HooksResult.PerRequest allCount = r.perRequest().stream().filter(x -> x.version().equals("all")).findFirst()
                .orElseThrow();
        assertThat(execCount.countRequests()).isPositive();
        assertThat(execCount.enteredPerRequest()).isPositive();
        assertThat(execCount.exitedPerRequest()).isPositive();
        assertThat(execCount.called()).isZero();
        assertThat(allCount.calledPerRequest()).isPositive();
        assertThat(r.cost()).allMatch(c -> c.hooksPerRequest() != null && c.pct() == null, "counted, not computed");
        assertThat(r.goals()).filteredOn(g -> g.goal().startsWith("computed:"))
                .allMatch(g -> g.met() == null && g.detail().contains("--hook-cost"));
        for (String f : List.of("results.json", "index.html", "RESULTS.md")) {
            assertThat(dir.resolve(f)).as(f).isNotEmptyFile();
        }
    }
}
