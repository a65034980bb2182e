package io.qosweaver.bench.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The profile's slowdown: median recorded chart time over median chart time without the agent. */
class ChartProfilerTest {
    private static ChartProfiler.Recorded recorded(double ms) {
        return new ChartProfiler.Recorded(Path.of("chart.qwp"), 1000, 1, ms);
    }

    @Test
    void slowdownIsMedianOverMedian() {
        ChartProfiler.Profiled p = new ChartProfiler.Profiled(List.of(recorded(3000), recorded(2000), recorded(9000)),
                List.of(150.0, 100.0, 90.0, 400.0, 110.0));
        // medians 3000 and 110: one slow outlier on either side does not move it
        assertThat(p.slowdown()).isCloseTo(3000 / 110.0, org.assertj.core.data.Offset.offset(1e-9));
        ChartProfiler.Profiled even = new ChartProfiler.Profiled(List.of(recorded(2000), recorded(4000)),
                List.of(100.0, 200.0));
        assertThat(even.slowdown()).isCloseTo(3000 / 150.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void slowdownIsNaNWithoutUnprofiledCharts() {
        assertThat(new ChartProfiler.Profiled(List.of(recorded(3000)), List.of()).slowdown()).isNaN();
    }
}
