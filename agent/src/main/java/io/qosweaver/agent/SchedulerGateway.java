package io.qosweaver.agent;

import io.qosweaver.scheduler.stats.PrometheusText;
import io.qosweaver.scheduler.Scheduler;
import io.qosweaver.scheduler.SchedulerConfig;

/**
 * The agent's only door into the scheduler's management API. Called a handful of times per run,
 * never on a woven path. The classes resolve to the bootstrap copy of the scheduler (the agent's
 * own loader delegates there), so the agent and woven code share one scheduler.
 */
final class SchedulerGateway {
    private SchedulerGateway() {}

    /** Installs the policy; a refusal comes back as the scheduler's PolicyConfigException. */
    static void install(SchedulerConfig config) {
        Scheduler.install(config);
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
            return s == null ? "" : PrometheusText.render(s.stats());
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

    /** Starts or stops measuring control-point intervals; whether that changed anything. */
    static boolean measureIntervals(boolean on) {
        return Scheduler.measureIntervals(on);
    }

    static boolean measuringIntervals() {
        return Scheduler.measuringIntervals();
    }
}
