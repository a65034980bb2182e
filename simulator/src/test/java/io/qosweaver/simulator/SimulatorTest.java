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
import org.assertj.core.data.Percentage;
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

    /**
     * MTR-LS on the river monitor's classes: without fractions, importance high is urgent (pinned at
     * the front of the service list, the paper's ClockHandler) and the charts share a normal
     * priority's fraction, so the collection takes a slot whenever it runs and meets every deadline;
     * the charts keep the other slot, less the reserved share's turns. The chart class, at 1.5 %,
     * uses its quantum many times over per sample: a decision that moved it to the rear again and
     * again through the mechanism woke chart threads only to flag them again, and those ran to
     * their next control point beside the collection (450 ms before the fix, 300 ms after).
     */
    @Test
    void mtrLsPinsTheUrgentCollectionAtTheFront() {
        Result mtr = Simulator.run("mtr-ls", SMALL, CpuModel.HOTSPOT_DEFAULT);
        Result original = Simulator.run("original", SMALL, CpuModel.HOTSPOT_DEFAULT);
        assertThat(mtr.deadlineMisses()).isZero();
        assertThat(mtr.highMaxMs()).as("a core of its own: no thread left running beside it").isLessThan(305);
        assertThat(original.deadlineMisses()).isPositive();
        assertThat(mtr.lowPerSecond()).as("the charts go on beside it").isGreaterThan(1);
        assertThat(mtr.lowSuspendedSeconds()).as("P = 2 slots for 20 chart clients: most wait").isPositive();
    }

    /**
     * Paper 5.4: with the logger, the original aspect deadlocked; the deadlock-aware one did not, at
     * the price of a longer collection. Here a chart suspended inside the lock holds the collector
     * until the one running chart slot has rotated to it (seconds); with time-outs it lets the lock
     * go after a wait without progress.
     */
    @Test
    void aChartSuspendedWithTheLockHoldsTheCollectorHostageForSecondsUnlessWaitsTimeOut() {
        Workload w = Workload.deadlock();
        Result importance = Simulator.run("importance", w, CpuModel.HOTSPOT_DEFAULT);
        Result aware = Simulator.run("deadlock-aware", w, CpuModel.HOTSPOT_DEFAULT);
        assertThat(importance.highLockWaitMaxMs()).as("the collector waits seconds for the lock").isGreaterThan(3_000);
        assertThat(importance.deadlineMisses()).isGreaterThanOrEqualTo(importance.periods() / 2);
        assertThat(aware.deadlineMisses()).isZero();
        assertThat(aware.highMeanMs()).isLessThan(importance.highMeanMs() / 2);
        assertThat(aware.highLockWaitMaxMs()).isLessThan(importance.highLockWaitMaxMs());
        // without a lock the two are the same: progress points keep every wait from timing out
        Result plain = Simulator.run("deadlock-aware", SMALL, CpuModel.HOTSPOT_DEFAULT);
        Result imp = Simulator.run("importance", SMALL, CpuModel.HOTSPOT_DEFAULT);
        assertThat(plain.deadlineMisses()).isZero();
        assertThat(plain.highMeanMs()).isEqualTo(imp.highMeanMs());
        assertThat(plain.lowPerSecond()).isEqualTo(imp.lowPerSecond());
    }

    @Test
    void withoutProgressPointsWaitsRunOnAndTheCollectionIsSlower() {
        Workload none = new Workload(2, 1000, 300, 20, 200, 1000, 20, 0, 0, 0, 0);
        Result blind = Simulator.run("deadlock-aware", none, CpuModel.HOTSPOT_DEFAULT);
        Result seeing = Simulator.run("deadlock-aware", SMALL, CpuModel.HOTSPOT_DEFAULT);
        assertThat(blind.highMeanMs()).as("charts run on after each 200 ms wait: the collection is slower")
                .isGreaterThan(seeing.highMeanMs() * 1.1);
    }

    /** Paper 5.5 (Fig. 25-26): the middle class's throughput held near its target by the low limit. */
    @Test
    void theAdaptivePolicyHoldsTheMiddleThroughputNearItsTargetByTheLowLimit() {
        Workload w = Workload.adaptive();
        Result original = Simulator.run("original", w, CpuModel.HOTSPOT_DEFAULT);
        assertThat(original.middlePerSecond()).as("20 middle and 20 low threads share 2 cores")
                .isCloseTo(500, Percentage.withPercentage(2));
        double previousLimit = Double.MAX_VALUE;
        for (int target : new int[] {650, 700, 800, 900}) {
            Result r = Simulator.run("adaptive", w, CpuModel.HOTSPOT_DEFAULT,
                    Map.of("target", Integer.toString(target), "lowMax", "20", "lowInitial", "6"));
            assertThat(r.middlePerSecond()).as("target %d", target).isCloseTo(target, Percentage.withPercentage(2));
            assertThat(r.lowLimitMean()).as("target %d: a higher target, fewer low threads", target)
                    .isLessThan(previousLimit).isBetween(1.0, 20.0);
            previousLimit = r.lowLimitMean();
            assertThat(r.deadlineMisses()).isZero();
        }
        Result bounded = Simulator.run("adaptive", w, CpuModel.HOTSPOT_DEFAULT, Map.of("target", "300", "lowMax", "6"));
        assertThat(bounded.lowLimitMean()).as("an unreachably low target: the upper bound")
                .isCloseTo(6.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void duringACollectionTheMiddleClassIsCappedAndPaced() {
        Workload w = Workload.adaptive();
        Result r = Simulator.run("adaptive", w, CpuModel.HOTSPOT_DEFAULT, Map.of("target", "800"));
        // at most middleCap (15) threads, each pausing 100 ms after its wait: at most about 150 pages/s
        assertThat(r.middleDuringHighPerSecond()).isLessThan(155);
        Result loose = Simulator.run("adaptive", w, CpuModel.HOTSPOT_DEFAULT, Map.of("target", "800",
                "middleCap", "20", "middlePacing", "0ms"));
        assertThat(loose.middleDuringHighPerSecond()).isGreaterThan(4 * r.middleDuringHighPerSecond());
        assertThat(loose.highMeanMs()).as("uncapped middle threads slow the collection").isGreaterThan(2 * r.highMeanMs());
    }

    @Test
    void anUnknownVersionIsRefusedNamingTheKnownOnes() {
        assertThatThrownBy(() -> Simulator.run("fastest", SMALL, CpuModel.HOTSPOT_DEFAULT))
                .hasMessageContaining("unknown version 'fastest'").hasMessageContaining("importance");
    }
}
