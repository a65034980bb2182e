package io.qosweaver.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.scheduler.Policies;
import io.qosweaver.simulator.report.TableReport;
import io.qosweaver.simulator.stats.Result;
import io.qosweaver.simulator.stats.Workload;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The simulator: deterministic, every policy in the table, and the paper's ordering (5.2). */
class SimulatorTest {
    private static final Workload SMALL = new Workload(2, 1000, 300, 20, 200, 1000, 20);

    @Test
    void isDeterministicAndCoversEveryRegisteredPolicy() {
        List<Result> a = Simulator.runAll(SMALL);
        List<Result> b = Simulator.runAll(SMALL);
        assertThat(a).isEqualTo(b);
        assertThat(a).extracting(Result::version)
                .contains("original", "java-priority[TPP=1]").containsAll(Policies.builtInNames());
        assertThat(a).extracting(Result::version).as("other CPU models only where they differ")
                .doesNotContain("importance[TPP=1]", "original[TPP=1]");
        String table = TableReport.render(SMALL, a);
        assertThat(table).contains("version", "misses", "importance", "admission")
                .contains("note: java-priority: policy java-priority: Java thread priorities are NOT effective here");
    }

    @Test
    void importanceMeetsEveryDeadlineWhereOriginalAndAdmissionDoNot() {
        Map<String, Result> r = Simulator.runAll(SMALL).stream()
                .collect(Collectors.toMap(Result::version, Function.identity()));
        assertThat(r.get("importance").deadlineMisses()).isZero();
        assertThat(r.get("importance").highMaxMs()).isLessThan(400);
        assertThat(r.get("original").deadlineMisses()).isPositive();
        // admission never stops a running request: the high task waits for the running ones to drain
        assertThat(r.get("admission").highMeanMs()).isGreaterThan(2 * r.get("importance").highMeanMs());
        assertThat(r.get("admission").suspensionMeanMs()).isGreaterThan(10 * r.get("importance").suspensionMeanMs());
        // HotSpot's default ignores Java priorities: the same as no policy at all
        assertThat(r.get("java-priority").highMeanMs()).isEqualTo(r.get("original").highMeanMs());
        assertThat(r.get("java-priority[TPP=1]").highMeanMs()).isLessThan(r.get("original").highMeanMs());
        // Linux priorities reach the model's OS: the collection is faster than without a policy
        assertThat(r.get("linux-priority").highMeanMs()).isLessThan(r.get("original").highMeanMs());
        // nothing is ever suspended by the priority policies
        assertThat(r.get("linux-priority").lowSuspendedSeconds()).isZero();
        assertThat(r.get("original").lowPerSecond()).isGreaterThan(0);
    }

    @Test
    void anUnknownVersionIsRefusedNamingTheKnownOnes() {
        assertThatThrownBy(() -> Simulator.run("fastest", SMALL, CpuModel.HOTSPOT_DEFAULT))
                .hasMessageContaining("unknown version 'fastest'").hasMessageContaining("importance");
    }
}
