package io.qosweaver.agent.runtime;

import io.qosweaver.agent.control.Switch;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.SchedulerConfig;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.model.policy.PolicyFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import io.qosweaver.scheduler.stats.PrometheusText;

/**
 * The agent's only door into the scheduler's management API. Called a handful of times per run,
 * never on a woven path. The classes resolve to the bootstrap copy of the scheduler (the agent's
 * own loader delegates there), so the agent and woven code share one scheduler.
 */
final class SchedulerGateway {
    private SchedulerGateway() {}

    /** What the scheduler receives of a policy file: names, attributes and parameters, no pointcuts. */
    static SchedulerConfig configOf(PolicyFile policy) {
        List<TaskClassSpec> specs = new ArrayList<>();
        for (PolicyFile.TaskClassDef t : policy.taskClasses()) {
            specs.add(new TaskClassSpec(t.name(), t.attributes()));
        }
        return new SchedulerConfig(specs, new SchedulerConfig.PolicySpec(policy.policyName(), policy.policyParameters()));
    }

    /**
     * Installs the policy; a refusal comes back as the scheduler's PolicyConfigException. A
     * scheduler that replaces another adopts the tasks already running ({@link Scheduler#install}).
     *
     * @return per task class name, the running tasks the new scheduler adopted ({@link
     *     Scheduler#adopted()}); null when no scheduler was installed before (nothing to adopt:
     *     tasks started before an unweave, or at start-up, finish unmanaged)
     */
    static Map<String, Integer> install(SchedulerConfig config) {
        boolean replacing = Scheduler.current() != null;
        Scheduler s = Scheduler.install(config);
        return replacing ? s.adopted() : null;
    }

    /** The installed policy's priority for the JIT's compiler threads, or null (none installed, or it asks for none). */
    static Integer compilerPriority() {
        Scheduler s = Scheduler.current();
        return s == null ? null : s.compilerPriority();
    }

    /**
     * What a replacement did with the tasks already running, for the answer of a swap or set:
     * "3 running tasks adopted (collect 1, chart 2)".
     */
    static String adoptionText(Map<String, Integer> adopted) {
        if (adopted == null) {
            return "no scheduler was installed before: no running task to adopt (those started before are unwoven"
                    + " or were never seen, and finish unmanaged)";
        }
        int n = 0;
        StringBuilder per = new StringBuilder();
        for (Map.Entry<String, Integer> e : adopted.entrySet()) {
            n += e.getValue();
            per.append(per.length() == 0 ? "" : ", ").append(e.getKey()).append(' ').append(e.getValue());
        }
        if (n == 0) {
            return "no running task to adopt";
        }
        return n + " running task" + (n == 1 ? "" : "s") + " adopted by the new scheduler (" + per + ")";
    }

    /** Checks a configuration as {@link #install} would; changes nothing. */
    static void validate(SchedulerConfig config) {
        Scheduler.validate(config);
    }

    /** The installed scheduler's counters, or null when none is installed. */
    static io.qosweaver.scheduler.stats.SchedulerStats stats() {
        Scheduler s = Scheduler.current();
        return s == null ? null : s.stats();
    }

    /** {@link Scheduler#takeAtEntryPeak} of the installed scheduler; 0 when none is installed. */
    static int takeAtEntryPeak() {
        Scheduler s = Scheduler.current();
        return s == null ? 0 : s.takeAtEntryPeak();
    }

    static void uninstall() {
        try {
            Scheduler.uninstall();
        } catch (RuntimeException | LinkageError e) {
            // nothing installed, or no scheduler at all: nothing to undo
        }
    }

    /** Prometheus text of the scheduler's statistics, or "" when no scheduler is installed. */
    static String metricsText() {
        try {
            Scheduler s = Scheduler.current();
            return s == null ? "" : PrometheusText.render(s.stats(), s.handOffStats());
        } catch (RuntimeException | LinkageError e) {
            return "# scheduler metrics unavailable: " + e.toString().replace('\n', ' ') + "\n";
        }
    }

    /**
     * The running-threads timeline from sequence number {@code since} as text
     * ({@link io.qosweaver.scheduler.Timeline#toText()}), or null when no scheduler is installed.
     */
    static String timelineText(long since) {
        Scheduler s = Scheduler.current();
        return s == null ? null : s.timeline(since).toText();
    }

    /**
     * The measurement of control-point intervals as an on/off switch ({@code /intervals/}: the
     * histogram {@code qosweaver_control_point_interval_seconds} in {@code /metrics}). Off, it
     * costs nothing; on, every control point reads the clock.
     */
    static final Switch INTERVALS = new Switch() {
        @Override
        public String status() {
            return measuringIntervals() ? "measuring" : "off";
        }

        @Override
        public String start() {
            return "measuring" + (measureIntervals(true) ? "" : " (already)");
        }

        @Override
        public String stop() {
            return "off" + (measureIntervals(false) ? "" : " (already)");
        }
    };

    /** Starts or stops measuring control-point intervals; whether that changed anything. */
    static boolean measureIntervals(boolean on) {
        return Scheduler.measureIntervals(on);
    }

    static boolean measuringIntervals() {
        return Scheduler.measuringIntervals();
    }
}
