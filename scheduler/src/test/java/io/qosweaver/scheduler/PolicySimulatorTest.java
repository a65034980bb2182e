package io.qosweaver.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The simulator: deterministic, every policy in the table, and the paper's ordering (5.2). */
class PolicySimulatorTest {
    private static final PolicySimulator.Workload SMALL = new PolicySimulator.Workload(2, 1000, 300, 20, 200, 1000, 20);

    @Test
    void isDeterministicAndCoversEveryPolicy() {
        List<PolicySimulator.Result> a = PolicySimulator.runAll(SMALL);
        List<PolicySimulator.Result> b = PolicySimulator.runAll(SMALL);
        assertThat(a).isEqualTo(b);
        assertThat(a).extracting(PolicySimulator.Result::version)
                .contains("original", "java-priority[TPP=1]").containsAll(Policies.builtInNames());
        String table = PolicySimulator.table(SMALL, a);
        assertThat(table).contains("version", "misses", "importance", "admission");
    }

    @Test
    void importanceMeetsEveryDeadlineWhereOriginalAndAdmissionDoNot() {
        Map<String, PolicySimulator.Result> r = PolicySimulator.runAll(SMALL).stream()
                .collect(Collectors.toMap(PolicySimulator.Result::version, Function.identity()));
        assertThat(r.get("importance").deadlineMisses()).isZero();
        assertThat(r.get("importance").highMaxMs()).isLessThan(400);
        assertThat(r.get("original").deadlineMisses()).isPositive();
        // admission never stops a running request: the high task waits for the running ones to drain
        assertThat(r.get("admission").highMeanMs()).isGreaterThan(2 * r.get("importance").highMeanMs());
        assertThat(r.get("admission").suspensionMeanMs()).isGreaterThan(10 * r.get("importance").suspensionMeanMs());
        // HotSpot's default ignores Java priorities: the same as no policy at all
        assertThat(r.get("java-priority").highMeanMs()).isEqualTo(r.get("original").highMeanMs());
        // nothing is ever suspended by the priority policies
        assertThat(r.get("linux-priority").lowSuspendedSeconds()).isZero();
        assertThat(r.get("original").lowPerSecond()).isGreaterThan(0);
    }
}
