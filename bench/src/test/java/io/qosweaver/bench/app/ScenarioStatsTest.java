package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.testing.TestResults;
import org.junit.jupiter.api.Test;

class ScenarioStatsTest {
    @Test
    void collectionStatisticsAndSuspensionMetrics() {
        ScenarioResult r = TestResults.scenario("qosweaver", 1000, new long[] {100, 300, 1200, 400}, 0.002);
        assertThat(r.collectionCount()).isEqualTo(4);
        assertThat(r.missedCount()).isEqualTo(1);
        assertThat(r.deadlineMissRatio()).isEqualTo(0.25);
        assertThat(r.collectionTimeMeanMs()).isEqualTo(500.0);
        assertThat(r.collectionTimeMaxMs()).isEqualTo(1200.0);
        // population standard deviation of 100, 300, 1200, 400
        assertThat(r.collectionTimeStddevMs()).isCloseTo(418.33, org.assertj.core.data.Offset.offset(0.01));
        assertThat(r.chartP99Ms()).isEqualTo(900.0);
        assertThat(r.chartThroughputPerS()).isEqualTo(10.0);
        assertThat(r.suspensionTimeP50Ms()).isEqualTo(2.0);
        assertThat(r.suspensionTimeP99Ms()).isEqualTo(4.0);
        assertThat(r.suspensionCount()).isEqualTo(4L);
        assertThat(r.suspensionTimeMeanMs()).isEqualTo(5.0);
    }

    @Test
    void noCollectionsMeansNoRatio() {
        ScenarioResult r = TestResults.scenario("original", 1000, new long[0], null);
        assertThat(r.deadlineMissRatio()).isNull();
        assertThat(r.collectionTimeMeanMs()).isNull();
        assertThat(r.suspensionTimeP50Ms()).isNull();
    }
}
