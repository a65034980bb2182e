package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PrometheusScrapeTest {
    static final String TEXT = String.join("\n",
            "# HELP qosweaver_suspension_time_seconds Time from a collection's start until suspended.",
            "# TYPE qosweaver_suspension_time_seconds summary",
            "qosweaver_suspension_time_seconds{quantile=\"0.5\"} 0.0042",
            "qosweaver_suspension_time_seconds{quantile=\"0.99\",} 0.031 1700000000000",
            "qosweaver_suspension_time_seconds_sum 0.25",
            "qosweaver_suspension_time_seconds_count 20",
            "qosweaver_suspension_time_seconds_max 0.05",
            "qosweaver_running_threads{task_class=\"chart\"} 1",
            "qosweaver_running_threads{task_class=\"collector\"} 1",
            "qosweaver_suspended_threads 39",
            "weird_label{a=\"x\\\"y,z\"} +Inf",
            "this line is { broken",
            "nan_metric NaN",
            "");

    @Test
    void readsQuantilesCountersAndLabels() {
        PrometheusScrape p = PrometheusScrape.parse(TEXT);
        assertThat(p.value("qosweaver_suspension_time_seconds", "quantile", "0.5")).isEqualTo(0.0042);
        assertThat(p.value("qosweaver_suspension_time_seconds", "quantile", "0.99")).isEqualTo(0.031);
        assertThat(p.value("qosweaver_suspension_time_seconds_count")).isEqualTo(20.0);
        assertThat(p.value("qosweaver_running_threads", "task_class", "chart")).isEqualTo(1.0);
        assertThat(p.sum("qosweaver_running_threads")).isEqualTo(2.0);
        assertThat(p.value("qosweaver_suspended_threads")).isEqualTo(39.0);
        assertThat(p.value("weird_label", "a", "x\"y,z")).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void missingOrNaNIsNull() {
        PrometheusScrape p = PrometheusScrape.parse(TEXT);
        assertThat(p.value("no_such_metric")).isNull();
        assertThat(p.value("qosweaver_running_threads", "task_class", "none")).isNull();
        assertThat(p.value("nan_metric")).isNull();
        assertThat(PrometheusScrape.parse("").samples()).isEmpty();
    }
}
