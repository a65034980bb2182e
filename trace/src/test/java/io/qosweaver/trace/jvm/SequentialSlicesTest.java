package io.qosweaver.trace.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SequentialSlicesTest {
    @Test
    void aSliceStartingBeforeThePreviousOneOnItsThreadEndedStartsAtThatEnd() {
        SequentialSlices s = new SequentialSlices();
        assertThat(s.start(7, 1_000, 2_000)).isEqualTo(1_000); // a park
        // the monitor enter that followed it, 3 µs early after the conversion
        assertThat(s.start(7, 1_997, 1_201_997)).isEqualTo(2_000);
        assertThat(s.trimmed()).isEqualTo(1);
        assertThat(s.dropped()).isZero();
    }

    @Test
    void slicesThatFollowEachOtherOrLieOnOtherThreadsAreLeftAlone() {
        SequentialSlices s = new SequentialSlices();
        assertThat(s.start(7, 1_000, 2_000)).isEqualTo(1_000);
        assertThat(s.start(8, 1_500, 2_500)).isEqualTo(1_500);
        assertThat(s.start(7, 2_000, 3_000)).isEqualTo(2_000);
        assertThat(s.trimmed()).isZero();
    }

    @Test
    void aSliceInsideThePreviousOneIsDroppedAndCounted() {
        SequentialSlices s = new SequentialSlices();
        s.start(7, 1_000, 5_000);
        assertThat(s.start(7, 2_000, 4_000)).isEqualTo(SequentialSlices.DROP);
        assertThat(s.dropped()).isEqualTo(1);
        // the previous end still holds for the next one
        assertThat(s.start(7, 4_500, 6_000)).isEqualTo(5_000);
    }

    @Test
    void threadsWhoseLastSliceEndedLongAgoAreForgotten() {
        SequentialSlices s = new SequentialSlices();
        s.start(7, 1_000, 2_000);
        s.start(8, 1_000, 9_000);
        s.forgetEndedBefore(5_000);
        assertThat(s.size()).isEqualTo(1);
        assertThat(s.start(7, 1_500, 10_000)).as("no longer trimmed").isEqualTo(1_500);
        assertThat(s.start(8, 8_000, 10_000)).isEqualTo(9_000);
    }
}
