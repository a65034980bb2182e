package io.qosweaver.bench.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The log axes of the pointcuts plots start a decade under their smallest value, not at 1e-4. */
class PointcutsReportTest {
    @Test
    void logAxisFloorIsTheHighestPowerOfTenBelowTheSmallestValue() {
        assertThat(PointcutsReport.logFloor(0.0063)).isCloseTo(0.001, within(1e-12));
        assertThat(PointcutsReport.logFloor(15.6)).isCloseTo(10.0, within(1e-9));
        // an exact power of ten gets the decade below it, so that its bar has a height
        assertThat(PointcutsReport.logFloor(100)).isCloseTo(10.0, within(1e-9));
        assertThat(PointcutsReport.logFloor(8.06)).isCloseTo(1.0, within(1e-9));
        assertThat(PointcutsReport.logFloor(Double.POSITIVE_INFINITY)).isEqualTo(1e-4);
        assertThat(PointcutsReport.logFloor(0)).isEqualTo(1e-4);
    }
}
