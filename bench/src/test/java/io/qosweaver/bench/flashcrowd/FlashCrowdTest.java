package io.qosweaver.bench.flashcrowd;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.testing.TestResults;
import org.junit.jupiter.api.Test;

class FlashCrowdTest {
    static final ScenarioResult IDLE = TestResults.scenario("original", 1000, new long[] {100, 120, 90}, null);

    @Test
    void reproducedWhenIdleIsFineAndMostLoadedCollectionsMiss() {
        ScenarioResult loaded = TestResults.scenario("original", 1000, new long[] {1500, 1200, 800, 2000}, null);
        assertThat(FlashCrowd.reproduced(IDLE, loaded)).isTrue();
    }

    @Test
    void notReproducedWhenFewMissOrIdleIsAlreadySlow() {
        ScenarioResult mild = TestResults.scenario("original", 1000, new long[] {1500, 800, 800, 900}, null);
        assertThat(FlashCrowd.reproduced(IDLE, mild)).isFalse();
        ScenarioResult slowIdle = TestResults.scenario("original", 1000, new long[] {100, 700}, null);
        ScenarioResult loaded = TestResults.scenario("original", 1000, new long[] {1500, 1200, 1800}, null);
        assertThat(FlashCrowd.reproduced(slowIdle, loaded)).isFalse();
        assertThat(FlashCrowd.reproduced(null, loaded)).isFalse();
    }

    @Test
    void quickAndFullDefaultsMeasureAtLeastTenPeriods() {
        for (FlashCrowdParams p : new FlashCrowdParams[] {FlashCrowdParams.full(), FlashCrowdParams.quick()}) {
            assertThat(p.durationS()).isGreaterThanOrEqualTo(10 * p.periodS());
            assertThat(p.chartClients()).isEqualTo(40);
        }
    }
}
