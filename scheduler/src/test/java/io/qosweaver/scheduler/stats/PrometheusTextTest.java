package io.qosweaver.scheduler.stats;

import io.qosweaver.scheduler.QoS;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.testing.Configs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    @Test
    void rendersTheHandOffsAndPlacementsAfterTheRest() {
        SchedulerStats s = new SchedulerStats("importance", 0, 0, 0, 0, 0, Map.of(), 0, -1, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, false, Map.of());
        String text = PrometheusText.render(s, new HandOffStats(4, true, 7, 6));
        assertThat(text).startsWith(PrometheusText.render(s)).contains(
                "# TYPE qosweaver_cpu_placement gauge\nqosweaver_cpu_placement 1\n",
                "# TYPE qosweaver_hand_offs_total counter\nqosweaver_hand_offs_total 4\n",
                "qosweaver_placements_total 7\n", "qosweaver_placements_undone_total 6\n");
        assertThat(PrometheusText.render(s, new HandOffStats(0, false, 0, 0))).contains("qosweaver_cpu_placement 0\n");
    }

    @Test
    void rendersAdmissionAndPriorityMetrics() {
        SchedulerStats s = new SchedulerStats("linux-priority", 0, 0, 3, 3, 0, Map.of(), 0, -1, 0, 0,
                0, 0, 0, 0, 0, 3, 1_500_000_000L, 0, 0, 0,
                new PriorityReport("linux-nice", false, "EPERM: \"no\" root", 0, 2), false, Map.of());
        String text = PrometheusText.render(s);
        assertThat(text).contains(
                "# TYPE qosweaver_admission_waits_total counter\nqosweaver_admission_waits_total 3\n",
                "qosweaver_admission_wait_seconds_total 1.500000000\n",
                "# TYPE qosweaver_priority_effective gauge\n",
                "qosweaver_priority_effective{mechanism=\"linux-nice\",reason=\"EPERM: \\\"no\\\" root\"} 0\n",
                "qosweaver_priority_changes_total 0\n",
                "qosweaver_priority_failures_total 2\n");
        // policies without priorities: no priority family at all, admission counters at 0
        String plain = PrometheusText.render(new SchedulerStats("importance", 0, 0, 0, 0, 0, Map.of(), 0, -1, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, false, Map.of()));
        assertThat(plain).contains("qosweaver_admission_waits_total 0\n").doesNotContain("qosweaver_priority_");
    }

    @Test
    void rendersProgressPointsPerObservedClassAndNothingWithoutThem() {
        Map<String, Long> progress = new LinkedHashMap<>();
        progress.put("collect", 100L);
        progress.put("chart", 0L);
        SchedulerStats s = new SchedulerStats("deadlock-aware", 0, 0, 0, 0, 0, Map.of(), 0, -1, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 3, null, false, Map.of(), progress);
        assertThat(PrometheusText.render(s)).contains(
                "# TYPE qosweaver_progress_points_total counter\n",
                "qosweaver_progress_points_total{task_class=\"chart\"} 0\n"
                        + "qosweaver_progress_points_total{task_class=\"collect\"} 100\n",
                "qosweaver_wait_timeouts_total 3\n");
        assertThat(PrometheusText.render(new SchedulerStats("importance", 0, 0, 0, 0, 0, Map.of(), 0, -1, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, false, Map.of()))).doesNotContain("progress_points");
    }

    @Test
    void rendersEveryMetricWithHelpAndType() {
        Map<String, Integer> running = new LinkedHashMap<>();
        running.put("chart", 1);
        running.put("co\"llect", 2);
        SchedulerStats s = new SchedulerStats("importance", 10, 3, 2, 1, 0, running, 1, 1, 1, 2,
                4, 2_000_000_000L, 1_500_000_000L, 250_000_000L, 1_500_000_000L, 0, 0, 7, 5, 2, null, false, Map.of());
        String text = PrometheusText.render(s);
        assertThat(text).contains(
                "# TYPE qosweaver_control_points_total counter\nqosweaver_control_points_total 10\n",
                "qosweaver_yields_total 3\n",
                "qosweaver_suspensions_total 2\n",
                "qosweaver_resumes_total 1\n",
                "qosweaver_internal_errors_total 0\n",
                "# TYPE qosweaver_running_threads gauge\n",
                "qosweaver_running_threads{task_class=\"chart\"} 1\n",
                "qosweaver_running_threads{task_class=\"co\\\"llect\"} 2\n",
                "qosweaver_suspended_threads 1\n",
                "# TYPE qosweaver_suspension_time_seconds summary\n",
                "qosweaver_suspension_time_seconds{quantile=\"0.5\"} 0.250000000\n",
                "qosweaver_suspension_time_seconds{quantile=\"0.99\"} 1.500000000\n",
                "qosweaver_suspension_time_seconds_sum 2.000000000\n",
                "qosweaver_suspension_time_seconds_count 4\n",
                "qosweaver_suspension_time_seconds_max 1.500000000\n",
                "qosweaver_monitor_skips_total 7\n",
                "qosweaver_interrupted_passes_total 5\n",
                "qosweaver_wait_timeouts_total 2\n");
        // every sample line belongs to a family announced with HELP and TYPE
        for (String line : text.split("\n")) {
            if (!line.startsWith("#")) {
                String family = line.split("[{ ]")[0].replaceAll("_(sum|count)$", "");
                assertThat(text).contains("# HELP " + family + " ", "# TYPE " + family + " ");
            }
        }
        assertThat(text).endsWith("\n");
    }

    @Test
    void rendersALiveScheduler() {
        Scheduler s = Scheduler.install(Configs.importance(1));
        try {
            QoS.enter("chart");
            QoS.controlPoint();
            String text = PrometheusText.render(s.stats());
            assertThat(text).contains("qosweaver_running_threads{task_class=\"chart\"} 1\n",
                    "qosweaver_running_threads{task_class=\"collect\"} 0\n");
            QoS.exit();
        } finally {
            Scheduler.uninstall();
            ThreadStates.removeForTests();
        }
    }

    @Test
    void rendersTheCapsOfTheClassesThatHaveOneAndNothingWithout() {
        Map<String, Integer> caps = new LinkedHashMap<>();
        caps.put("chart", 4);
        caps.put("levels", 15);
        SchedulerStats s = new SchedulerStats("adaptive", 0, 0, 0, 0, 0, Map.of(), 0, -1, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, false, Map.of(), Map.of(), caps);
        assertThat(PrometheusText.render(s)).contains("# TYPE qosweaver_task_class_cap gauge\n"
                + "qosweaver_task_class_cap{task_class=\"chart\"} 4\n"
                + "qosweaver_task_class_cap{task_class=\"levels\"} 15\n");
        assertThat(PrometheusText.render(new SchedulerStats("importance", 0, 0, 0, 0, 0, Map.of(), 0, -1, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, false, Map.of()))).doesNotContain("task_class_cap");
    }
}
