package io.qosweaver.trace.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClockOffsetTest {
    @Test
    void aReadingDelayedByAPreemptionDoesNotShiftTheOffset() {
        ClockOffset o = new ClockOffset(0);
        assertThat(o.add(1_000_000)).isEqualTo(1_000_000);
        // committed 5 ms after nanoTime was read: 5 ms short of the true offset
        assertThat(o.add(-4_000_000)).isEqualTo(1_000_000);
        assertThat(o.get()).isEqualTo(1_000_000);
    }

    @Test
    void theOffsetFollowsADriftOnceOldReadingsLeaveTheWindow() {
        ClockOffset o = new ClockOffset(0);
        o.add(1_000);
        for (int i = 0; i < ClockOffset.WINDOW - 1; i++) {
            assertThat(o.add(900)).isEqualTo(1_000);
        }
        assertThat(o.add(900)).as("the 1 000 reading has left the window").isEqualTo(900);
        assertThat(o.add(950)).isEqualTo(950);
    }

    @Test
    void theInitialEstimateHoldsUntilTheFirstReading() {
        assertThat(new ClockOffset(42).get()).isEqualTo(42);
    }
}
