package io.qosweaver.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class SamplesTest {
    @Test
    void anEmptySampleHasNoFiguresRatherThanZeros() {
        Samples s = Samples.of(List.of());
        assertThat(s.count()).isZero();
        assertThat(s.mean()).isNull();
        assertThat(s.max()).isNull();
        assertThat(s.stddev()).isNull();
        assertThat(s.quantile(0.99)).isNull();
    }

    @Test
    void meanMaxAndPopulationStddevOfUnsortedValues() {
        Samples s = Samples.of(9, 2, 4, 4, 4, 5, 5, 7);
        assertThat(s.count()).isEqualTo(8);
        assertThat(s.mean()).isEqualTo(5.0);
        assertThat(s.max()).isEqualTo(9.0);
        assertThat(s.stddev()).isCloseTo(2.0, Offset.offset(1e-12)); // population, not n - 1
    }

    @Test
    void nearestRankQuantilesNeverInterpolateBelowTheLargestWithFewValues() {
        Samples s = Samples.of(List.of(30.0, 10.0, 20.0));
        assertThat(s.quantile(0.99)).isEqualTo(30.0);
        assertThat(s.quantile(0.5)).isEqualTo(20.0);
        assertThat(s.quantile(0)).isEqualTo(10.0);
        Samples even = Samples.of(1, 2, 3, 4);
        assertThat(even.quantile(0.5)).as("the lower of the two middle values").isEqualTo(2.0);
        assertThat(even.quantile(0.9)).isEqualTo(4.0);
    }

    @Test
    void aQuantileOutsideZeroToOneIsRefused() {
        assertThatThrownBy(() -> Samples.of(1).quantile(99)).hasMessageContaining("[0, 1]");
    }

    @Test
    void theCallersArrayIsNotSorted() {
        double[] v = {3, 1, 2};
        Samples.of(v);
        assertThat(v).containsExactly(3, 1, 2);
    }
}
