package io.qosweaver.scheduler.stats;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Renders {@link SchedulerStats} in the Prometheus text exposition format (version 0.0.4). */
public final class PrometheusText {
    /** The Content-Type to serve the output with. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private PrometheusText() {}

    /** {@link #render(SchedulerStats)} followed by the hand-offs and CPU placements. */
    public static String render(SchedulerStats s, HandOffStats h) {
        StringBuilder b = new StringBuilder(render(s));
        header(b, "qosweaver_cpu_placement", "1 if a woken successor is placed on the CPU its predecessor frees.",
                "gauge");
        b.append("qosweaver_cpu_placement ").append(h.placement() ? 1 : 0).append('\n');
        counter(b, "qosweaver_hand_offs_total", "Promoted threads woken by the runner demoted for them.", h.handOffs());
        counter(b, "qosweaver_placements_total",
                "Woken successors restricted to their demoted predecessor's CPU (hand-offs).", h.placements());
        counter(b, "qosweaver_placements_undone_total", "Placements undone by the woken thread.",
                h.placementsUndone());
        return b.toString();
    }

    public static String render(SchedulerStats s) {
        StringBuilder b = new StringBuilder(1024);
        counter(b, "qosweaver_control_points_total", "Control points passed (fast and slow path).", s.controlPoints());
        counter(b, "qosweaver_yields_total", "Times a thread was told to yield at its next control point.", s.yields());
        counter(b, "qosweaver_suspensions_total", "Times a thread parked at a control point.", s.suspensions());
        counter(b, "qosweaver_resumes_total", "Times a parked thread went on.", s.resumes());
        counter(b, "qosweaver_internal_errors_total", "Errors caught inside the scheduler (threads went on unscheduled).", s.internalErrors());

        header(b, "qosweaver_running_threads", "Threads inside a scope of the task class and not parked.", "gauge");
        for (Map.Entry<String, Integer> e : new TreeMap<>(s.runningThreads()).entrySet()) {
            b.append("qosweaver_running_threads{task_class=\"").append(escape(e.getKey())).append("\"} ")
                    .append(e.getValue()).append('\n');
        }
        header(b, "qosweaver_suspended_threads", "Threads parked at a control point now.", "gauge");
        b.append("qosweaver_suspended_threads ").append(s.suspendedThreads()).append('\n');

        header(b, "qosweaver_suspension_time_seconds",
                "Time from a high task's entry until running low-importance threads are within the limit.", "summary");
        b.append("qosweaver_suspension_time_seconds{quantile=\"0.5\"} ").append(seconds(s.suspensionTimeP50Nanos())).append('\n');
        b.append("qosweaver_suspension_time_seconds{quantile=\"0.99\"} ").append(seconds(s.suspensionTimeP99Nanos())).append('\n');
        b.append("qosweaver_suspension_time_seconds_sum ").append(seconds(s.suspensionTimeSumNanos())).append('\n');
        b.append("qosweaver_suspension_time_seconds_count ").append(s.suspensionTimeCount()).append('\n');
        header(b, "qosweaver_suspension_time_seconds_max", "The longest suspension time since install.", "gauge");
        b.append("qosweaver_suspension_time_seconds_max ").append(seconds(s.suspensionTimeMaxNanos())).append('\n');

        counter(b, "qosweaver_admission_waits_total",
                "Times a thread waited at the entry of its scope to be admitted (admission control).", s.admissionWaits());
        header(b, "qosweaver_admission_wait_seconds_total", "Time threads spent waiting at entry to be admitted.", "counter");
        b.append("qosweaver_admission_wait_seconds_total ").append(seconds(s.admissionWaitNanos())).append('\n');
        counter(b, "qosweaver_monitor_skips_total",
                "Times a thread told to yield passed a control point inside a monitor without parking.", s.monitorSkips());
        counter(b, "qosweaver_interrupted_passes_total",
                "Times a thread told to yield passed a control point without parking because it was interrupted.",
                s.interruptedPasses());
        counter(b, "qosweaver_wait_timeouts_total",
                "Times a timed wait expired and the policy let the thread run on with its flag set.", s.waitTimeouts());
        if (!s.progressPoints().isEmpty()) {
            header(b, "qosweaver_progress_points_total", "Progress points passed by threads of the task class.",
                    "counter");
            for (Map.Entry<String, Long> e : new TreeMap<>(s.progressPoints()).entrySet()) {
                b.append("qosweaver_progress_points_total{task_class=\"").append(escape(e.getKey())).append("\"} ")
                        .append(e.getValue()).append('\n');
            }
        }
        if (!s.caps().isEmpty()) {
            header(b, "qosweaver_task_class_cap",
                    "The policy's cap on running threads of the task class now (absent: no cap).", "gauge");
            for (Map.Entry<String, Integer> e : new TreeMap<>(s.caps()).entrySet()) {
                b.append("qosweaver_task_class_cap{task_class=\"").append(escape(e.getKey())).append("\"} ")
                        .append(e.getValue()).append('\n');
            }
        }
        shares(b, s);
        intervals(b, s);
        PriorityReport p = s.priority();
        if (p != null) {
            header(b, "qosweaver_priority_effective",
                    "1 if the policy's thread priorities reach the OS scheduler, 0 if they are ignored or refused.", "gauge");
            b.append("qosweaver_priority_effective{mechanism=\"").append(escape(p.mechanism()))
                    .append("\",reason=\"").append(escape(p.reason())).append("\"} ")
                    .append(p.effective() ? 1 : 0).append('\n');
            counter(b, "qosweaver_priority_changes_total", "Thread priority changes applied.", p.changes());
            counter(b, "qosweaver_priority_failures_total", "Thread priority changes that failed.", p.failures());
        }
        return b.toString();
    }

    /** A proportional-share policy's entities (MTR-LS): asked, received over the last window, lag. */
    private static void shares(StringBuilder b, SchedulerStats s) {
        if (s.shares().isEmpty()) {
            return;
        }
        String[] names = {"qosweaver_share_fraction", "qosweaver_share_received", "qosweaver_share_lag_seconds",
            "qosweaver_share_cpu_seconds_total", "qosweaver_share_rounds_total"};
        String[] help = {"The service fraction the entity asked (0: urgent or idle, not charged).",
            "The share of the managed cores the entity received over the policy's last window.",
            "CPU seconds the entity fell behind its fraction over the last window (negative: ahead).",
            "CPU time charged to the entity (wall time for the reserved share).",
            "Times the entity was moved to the rear of the service list."};
        String[] types = {"gauge", "gauge", "gauge", "counter", "counter"};
        for (int i = 0; i < names.length; i++) {
            header(b, names[i], help[i], types[i]);
            for (EntityShare e : s.shares()) {
                b.append(names[i]).append("{entity=\"").append(escape(e.entity())).append("\",task_class=\"")
                        .append(escape(e.taskClass())).append("\",kind=\"").append(escape(e.kind())).append("\"} ");
                switch (i) {
                    case 0 -> b.append(number(e.fraction()));
                    case 1 -> b.append(number(e.share()));
                    case 2 -> b.append(number(e.lagSeconds()));
                    case 3 -> b.append(seconds(e.cpuNanos()));
                    default -> b.append(e.rounds());
                }
                b.append('\n');
            }
        }
    }

    private static String number(double d) {
        return String.format(Locale.ROOT, "%.6f", d);
    }

    /** Control-point intervals as a Prometheus histogram per task class (cumulative buckets). */
    private static void intervals(StringBuilder b, SchedulerStats s) {
        header(b, "qosweaver_interval_measurement", "1 while control-point intervals are measured.", "gauge");
        b.append("qosweaver_interval_measurement ").append(s.intervalMeasurement() ? 1 : 0).append('\n');
        if (s.controlPointIntervals().isEmpty()) {
            return;
        }
        String name = "qosweaver_control_point_interval_seconds";
        header(b, name, "Time between adjacent control points of a thread within one task.", "histogram");
        long[] bounds = IntervalSnapshot.boundsNanos();
        for (Map.Entry<String, IntervalSnapshot> e : s.controlPointIntervals().entrySet()) {
            String tc = "task_class=\"" + escape(e.getKey()) + "\"";
            long[] counts = e.getValue().bucketCounts();
            long cumulative = 0;
            for (int i = 0; i < bounds.length; i++) {
                cumulative += counts[i];
                b.append(name).append("_bucket{").append(tc).append(",le=\"").append(seconds(bounds[i]))
                        .append("\"} ").append(cumulative).append('\n');
            }
            b.append(name).append("_bucket{").append(tc).append(",le=\"+Inf\"} ").append(e.getValue().count())
                    .append('\n');
            b.append(name).append("_sum{").append(tc).append("} ").append(seconds(e.getValue().sumNanos()))
                    .append('\n');
            b.append(name).append("_count{").append(tc).append("} ").append(e.getValue().count()).append('\n');
        }
        header(b, name + "_squares", "Sum of the squared intervals (s^2), for their standard deviation.", "counter");
        for (Map.Entry<String, IntervalSnapshot> e : s.controlPointIntervals().entrySet()) {
            b.append(name).append("_squares{task_class=\"").append(escape(e.getKey())).append("\"} ")
                    .append(String.format(Locale.ROOT, "%.12g", e.getValue().sumSquaresNanos() / 1e18)).append('\n');
        }
        header(b, name + "_max", "The longest interval measured.", "gauge");
        for (Map.Entry<String, IntervalSnapshot> e : s.controlPointIntervals().entrySet()) {
            b.append(name).append("_max{task_class=\"").append(escape(e.getKey())).append("\"} ")
                    .append(seconds(e.getValue().maxNanos())).append('\n');
        }
    }

    private static void counter(StringBuilder b, String name, String help, long v) {
        header(b, name, help, "counter");
        b.append(name).append(' ').append(v).append('\n');
    }

    private static void header(StringBuilder b, String name, String help, String type) {
        b.append("# HELP ").append(name).append(' ').append(help).append('\n');
        b.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.9f", nanos / 1e9);
    }

    static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
