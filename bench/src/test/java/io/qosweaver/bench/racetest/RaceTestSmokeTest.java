package io.qosweaver.bench.racetest;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.racetest.RaceTestResult.PartitionRow;
import io.qosweaver.bench.run.Layout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI test of {@code bench racetest --quick --sections partitioning} with the real agent: every
 * managed run found the scheduler through the Java API, the shares of a core's time under MTR-LS
 * come in the order of the fractions, the baselines ran, and the report is written. Behaviour only, never a time or
 * a throughput. About a minute; skipped, with a message, when the agent jar is missing.
 */
class RaceTestSmokeTest {

    @Test
    void partitioningQuickRunsOrderTheSharesAndWriteTheReport(@TempDir Path dir) throws Exception {
        Layout layout = new Layout(Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize());
        if (!Files.isRegularFile(layout.agentJar())) {
            System.err.println("SKIPPED RaceTestSmokeTest: " + layout.agentJar() + " is missing; build it with "
                    + "./mvnw -q -B -DskipTests -pl agent -am package");
        }
        Assumptions.assumeTrue(Files.isRegularFile(layout.agentJar()), "agent jar missing");
        // --quick's partitioning runs, 3 s each after a 1 s warm-up instead of 5 s after 2 s: the shares
        // compared are CPU time over the measured seconds, ordered within each run, not a rate
        RaceTestParams params = new RaceTestParams(3, 1, RaceTestParams.quick().fairnessDurationS(), List.of("partitioning"));
        RaceTestResult r = RaceTest.run(layout, params, true, dir,
                "RaceTestSmokeTest", line -> System.err.println(java.time.LocalTime.now() + " " + line));

        assertThat(r.errors()).isEmpty();
        assertThat(r.capacityLoopsPerS()).isPositive();
        assertThat(r.runs()).filteredOn(x -> x.version().equals(RaceTestPlan.MTR_LS)).isNotEmpty()
                .allMatch(RaceTestResult.RunResult::scheduled);
        assertThat(r.runs()).filteredOn(x -> !x.version().equals(RaceTestPlan.MTR_LS))
                .noneMatch(RaceTestResult.RunResult::scheduled);
        Map<String, List<PartitionRow>> managed = r.partitioning().stream()
                .filter(p -> p.version().equals(RaceTestPlan.MTR_LS))
                .collect(Collectors.groupingBy(PartitionRow::config));
        assertThat(managed).containsKeys("70/20", "50/30/10", "three in a 40% group, one at 50%");
        for (List<PartitionRow> rows : managed.values()) {
            for (PartitionRow a : rows) {
                for (PartitionRow b : rows) {
                    if (a.fraction() >= 2 * b.fraction()) {
                        // CPU time, what the scheduler hands out (work per CPU second varies with the host)
                        assertThat(a.cpuShare()).as("%s asks twice %s or more: it gets more time", a, b)
                                .isGreaterThan(b.cpuShare());
                    }
                }
            }
        }
        assertThat(r.partitioning()).filteredOn(p -> p.version().equals(RaceTestPlan.NICE))
                .as("nice baselines ran").isNotEmpty();
        assertThat(r.goals()).extracting(RaceTestResult.Goal::goal).contains("every reservation met");
        assertThat(r.goals()).filteredOn(g -> g.goal().equals("every reservation met")).singleElement()
                .extracting(RaceTestResult.Goal::met).isNotNull();
        for (String f : List.of("results.json", "index.html", "RESULTS.md")) {
            assertThat(dir.resolve(f)).as(f).isNotEmptyFile();
        }
        assertThat(Files.readString(dir.resolve("RESULTS.md"))).contains("Table 4").contains("70/20");
    }
}
