package io.qosweaver.bench.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qosweaver.bench.app.PrometheusScrape;
import org.junit.jupiter.api.Test;

class IntervalStatsTest {
    /** The agent's histogram text for the chart class with these cumulative bucket counts (le in ms). */
    private static PrometheusScrape scrape(long count, double sumS, double squaresS2, double[][] buckets) {
        StringBuilder b = new StringBuilder("# TYPE qosweaver_control_point_interval_seconds histogram\n");
        for (double[] x : buckets) {
            b.append("qosweaver_control_point_interval_seconds_bucket{task_class=\"chart\",le=\"")
                    .append(String.format(java.util.Locale.ROOT, "%.9f", x[0] / 1e3)).append("\"} ").append((long) x[1])
                    .append('\n');
        }
        b.append("qosweaver_control_point_interval_seconds_bucket{task_class=\"chart\",le=\"+Inf\"} ").append(count)
                .append('\n');
        b.append("qosweaver_control_point_interval_seconds_sum{task_class=\"chart\"} ").append(sumS).append('\n');
        b.append("qosweaver_control_point_interval_seconds_count{task_class=\"chart\"} ").append(count).append('\n');
        b.append("qosweaver_control_point_interval_seconds_squares{task_class=\"chart\"} ").append(squaresS2).append('\n');
        // another class must not leak in
        b.append("qosweaver_control_point_interval_seconds_count{task_class=\"collector\"} 999\n");
        return PrometheusScrape.parse(b.toString());
    }

    @Test
    void theWindowIsTheDifferenceOfTwoScrapes() {
        // before: 10 intervals of 1 ms; after: 10 more of 3 ms
        PrometheusScrape before = scrape(10, 0.010, 10e-6, new double[][] {{1, 10}, {1.5, 10}, {2, 10}, {3, 10}, {5, 10}});
        PrometheusScrape after = scrape(20, 0.040, 100e-6, new double[][] {{1, 10}, {1.5, 10}, {2, 10}, {3, 20}, {5, 20}});
        IntervalStats s = IntervalStats.between(before, after, "chart");
        assertThat(s.count()).isEqualTo(10);
        assertThat(s.meanMs()).isCloseTo(3.0, within(1e-9));
        assertThat(s.sdMs()).isCloseTo(0.0, within(1e-3));
        // the median falls in (2, 3] ms: geometric interpolation at half the bucket
        assertThat(s.p50Ms()).isCloseTo(2 * Math.sqrt(1.5), within(1e-6));
        assertThat(s.p99Ms()).isBetween(2.0, 3.0);
    }

    @Test
    void spreadAndTailComeFromTheSumsAndTheBuckets() {
        PrometheusScrape zero = scrape(0, 0, 0, new double[][] {{1, 0}, {10, 0}, {100, 0}});
        // 99 intervals of 1 ms and one of 100 ms
        PrometheusScrape after = scrape(100, 0.099 + 0.1, 99e-6 + 0.01, new double[][] {{1, 99}, {10, 99}, {100, 100}});
        IntervalStats s = IntervalStats.between(zero, after, "chart");
        assertThat(s.meanMs()).isCloseTo(1.99, within(1e-9));
        double var = (99 * 1.0 + 10_000) / 100 - 1.99 * 1.99;
        assertThat(s.sdMs()).isCloseTo(Math.sqrt(var), within(1e-6));
        assertThat(s.p50Ms()).as("the first bucket: its bound").isEqualTo(1.0);
        assertThat(s.p99Ms()).isEqualTo(1.0);
        assertThat(s.p90Ms()).isEqualTo(1.0);
        IntervalStats tail = IntervalStats.between(zero, scrape(10, 0.5, 0.05, new double[][] {{1, 1}, {10, 1}, {100, 10}}),
                "chart");
        assertThat(tail.p99Ms()).isBetween(10.0, 100.0);
    }

    @Test
    void nothingMeasuredIsZeroCountAndNoScrapeIsNull() {
        PrometheusScrape a = scrape(5, 0.005, 5e-6, new double[][] {{1, 5}});
        IntervalStats none = IntervalStats.between(a, a, "chart");
        assertThat(none.count()).isZero();
        assertThat(none.meanMs()).isNull();
        assertThat(IntervalStats.between(null, a, "chart")).isNull();
        assertThat(IntervalStats.between(a, a, "nosuchclass").count()).isZero();
    }
}
