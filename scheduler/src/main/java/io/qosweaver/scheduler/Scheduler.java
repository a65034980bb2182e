package io.qosweaver.scheduler;

import io.qosweaver.scheduler.core.ControlPointCount;
import io.qosweaver.scheduler.core.ControlPointIntervals;
import io.qosweaver.scheduler.core.Controller;
import io.qosweaver.scheduler.core.InternalErrors;
import io.qosweaver.scheduler.core.Warnings;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.Ticker;
import io.qosweaver.scheduler.stats.EntityShare;
import io.qosweaver.scheduler.stats.HandOffStats;
import io.qosweaver.scheduler.stats.IntervalSnapshot;
import io.qosweaver.scheduler.stats.PriorityReport;
import io.qosweaver.scheduler.stats.SchedulerMXBean;
import io.qosweaver.scheduler.stats.SchedulerStats;
import io.qosweaver.scheduler.stats.Timeline;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/**
 * The installed application-level scheduler: one at a time, process-wide, reached by woven code
 * through {@link QoS}. Installing validates the whole configuration before anything changes, then
 * atomically replaces the current scheduler and releases every thread the old one held (SYSTEM.md:
 * a policy switch is all-or-nothing); the new one adopts the tasks already running.
 */
public final class Scheduler {
    static final String OBJECT_NAME = "io.qosweaver:type=Scheduler";

    /** The installed scheduler; read by every enter. */
    static volatile Scheduler current;
    private static final Object INSTALL_LOCK = new Object();

    final Controller controller;
    private final long controlPointBase;
    private final long errorBase;
    private volatile boolean jmxRegistered;
    /** Per class name, the running tasks this scheduler adopted from the one it replaced. */
    private Map<String, Integer> adopted = Map.of();

    private Scheduler(Controller controller) {
        this.controller = controller;
        this.controlPointBase = ControlPointCount.sum();
        this.errorBase = InternalErrors.count();
    }

    /**
     * Validates {@code config}, then replaces the installed scheduler (if any) with a new one and
     * releases every thread the old one held. The new one adopts the tasks already running: a
     * thread inside a scope of one of the old scheduler's task classes is, for the new one, inside
     * a scope of its task class of the same name (the new policy hears of it with cause
     * {@code ADOPTED} before the new scheduler decides anything else), and its exit reaches the
     * new one. Scopes of names the new configuration lacks stay inert until they end; after
     * {@link #uninstall} nothing is left to adopt. {@link #adopted()} says how many were adopted.
     *
     * @throws PolicyConfigException naming the offending key; nothing changes in that case
     */
    public static Scheduler install(SchedulerConfig config) {
        return install(config, Ticker.system());
    }

    /** As {@link #install(SchedulerConfig)}, with an injected clock (tests). */
    static Scheduler install(SchedulerConfig config, Ticker ticker) {
        Scheduler s = new Scheduler(build(config, ticker));
        synchronized (INSTALL_LOCK) {
            Scheduler old = current;
            if (old != null) {
                // adoption before publication: the new policy hears of the running tasks first
                s.adopted = old.controller.shutdownInto(s.controller);
                old.unregisterJmx();
            }
            current = s;
            s.registerJmx();
            s.controller.startTicking();
        }
        return s;
    }

    /**
     * Validates {@code config} as {@link #install(SchedulerConfig)} would, and changes nothing: a
     * policy swap checks the new policy before it unweaves the old one.
     *
     * @throws PolicyConfigException naming the offending key
     */
    public static void validate(SchedulerConfig config) {
        build(config, Ticker.system());
    }

    /** Validates a configuration and builds its controller; changes nothing global. */
    static Controller build(SchedulerConfig config, Ticker ticker) {
        if (config == null || config.policy() == null) {
            throw new PolicyConfigException("policy",
                    "no policy given; add a policy section naming one of " + Policies.names());
        }
        String name = config.policy().name();
        Policy policy = Policies.create(name, PolicyContext.of(name == null ? null : name.trim(),
                config.policy().parameters(), ticker, Warnings::once));
        return Controller.create(policy, ticker, config.taskClasses() == null ? List.of() : config.taskClasses());
    }

    /** Removes the installed scheduler, releasing every thread it held; no-op when none. */
    public static void uninstall() {
        synchronized (INSTALL_LOCK) {
            Scheduler old = current;
            current = null;
            if (old != null) {
                old.controller.shutdown();
                old.unregisterJmx();
            }
        }
    }

    /**
     * Starts or stops measuring the intervals between adjacent control points, per task class
     * ({@link SchedulerStats#controlPointIntervals()}). Process-wide and independent of which
     * scheduler is installed; while on, every control point reads the clock (tens of
     * nanoseconds), so leave it off outside measurements.
     *
     * @return whether this call changed the state
     */
    public static boolean measureIntervals(boolean on) {
        return on ? ControlPointIntervals.start() : ControlPointIntervals.stop();
    }

    /** Whether control-point intervals are being measured. */
    public static boolean measuringIntervals() {
        return ControlPointIntervals.measuring();
    }

    /** The installed scheduler, or {@code null}. */
    public static Scheduler current() {
        return current;
    }

    /**
     * Per task class name, how many running tasks this scheduler adopted from the one it replaced
     * when installed (threads whose role was a class of that name; classes with none are left
     * out); empty when it replaced none.
     */
    public Map<String, Integer> adopted() {
        return adopted;
    }

    /** The policy's name. */
    public String policyName() {
        return controller.machine().policy().name();
    }

    /** The policy's priority for the JIT's compiler threads ({@link io.qosweaver.scheduler.spi.Policy#compilerPriority}). */
    public Integer compilerPriority() {
        return controller.machine().policy().compilerPriority();
    }

    /** Whether this scheduler is still the installed one. */
    public boolean isInstalled() {
        return !controller.closed();
    }

    /**
     * The most requests (threads) waiting at entry at once since the last call: each holds the
     * thread that serves it, so a server pool with few more threads than this leaves none for
     * other requests. Read by the agent's pool watch every few seconds.
     */
    public int takeAtEntryPeak() {
        return controller.takeAtEntryPeak();
    }

    /** A consistent snapshot of the counters (takes the scheduler's lock briefly). */
    public SchedulerStats stats() {
        return controller.stats(ControlPointCount.sum() - controlPointBase, InternalErrors.count() - errorBase);
    }

    /** The hand-offs of CPUs between runners so far (takes the scheduler's lock briefly). */
    public HandOffStats handOffStats() {
        return controller.handOffStats();
    }

    /**
     * The running-threads timeline from sequence number {@code since} on (0: everything still in
     * the ring). Takes the scheduler's lock briefly; for monitoring, never for woven code.
     */
    public Timeline timeline(long since) {
        return controller.timeline(since);
    }

    private void registerJmx() {
        if (!Boolean.parseBoolean(System.getProperty("qosweaver.jmx", "true"))) {
            return;
        }
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName(OBJECT_NAME);
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
            server.registerMBean(new Bean(this), name);
            jmxRegistered = true;
        } catch (Throwable e) {
            InternalErrors.report(e); // metrics are optional; scheduling goes on
        }
    }

    private void unregisterJmx() {
        if (!jmxRegistered) {
            return;
        }
        jmxRegistered = false;
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(new ObjectName(OBJECT_NAME));
        } catch (Throwable e) {
            InternalErrors.report(e);
        }
    }

    private static final class Bean implements SchedulerMXBean {
        private final Scheduler s;

        Bean(Scheduler s) {
            this.s = s;
        }

        @Override public String getPolicy() { return s.policyName(); }
        @Override public long getControlPoints() { return s.stats().controlPoints(); }
        @Override public long getYields() { return s.stats().yields(); }
        @Override public long getSuspensions() { return s.stats().suspensions(); }
        @Override public long getResumes() { return s.stats().resumes(); }
        @Override public long getInternalErrors() { return s.stats().internalErrors(); }
        @Override public Map<String, Integer> getRunningThreads() { return s.stats().runningThreads(); }
        @Override public int getSuspendedThreads() { return s.stats().suspendedThreads(); }
        @Override public int getLimit() { return s.stats().limit(); }
        @Override public long getSuspensionTimeCount() { return s.stats().suspensionTimeCount(); }
        @Override public long getSuspensionTimeSumNanos() { return s.stats().suspensionTimeSumNanos(); }
        @Override public long getSuspensionTimeMaxNanos() { return s.stats().suspensionTimeMaxNanos(); }
        @Override public long getSuspensionTimeP50Nanos() { return s.stats().suspensionTimeP50Nanos(); }
        @Override public long getSuspensionTimeP99Nanos() { return s.stats().suspensionTimeP99Nanos(); }
        @Override public long getAdmissionWaits() { return s.stats().admissionWaits(); }
        @Override public long getAdmissionWaitNanos() { return s.stats().admissionWaitNanos(); }
        @Override public long getMonitorSkips() { return s.stats().monitorSkips(); }
        @Override public long getInterruptedPasses() { return s.stats().interruptedPasses(); }
        @Override public long getWaitTimeouts() { return s.stats().waitTimeouts(); }
        @Override public String getPriorityEffective() {
            PriorityReport p = s.stats().priority();
            return p == null ? "n/a" : Boolean.toString(p.effective());
        }
        @Override public boolean isIntervalMeasurement() { return measuringIntervals(); }
        @Override public void setIntervalMeasurement(boolean on) { measureIntervals(on); }
        @Override public Map<String, Double> getControlPointIntervalMeanNanos() {
            Map<String, Double> m = new LinkedHashMap<>();
            for (Map.Entry<String, IntervalSnapshot> e : s.stats().controlPointIntervals().entrySet()) {
                m.put(e.getKey(), e.getValue().meanNanos());
            }
            return m;
        }
        @Override public Map<String, Double> getShareFractions() { return shares(EntityShare::fraction); }
        @Override public Map<String, Double> getSharesReceived() { return shares(EntityShare::share); }
        @Override public Map<String, Double> getShareLagSeconds() { return shares(EntityShare::lagSeconds); }

        private Map<String, Double> shares(ToDoubleFunction<EntityShare> value) {
            Map<String, Double> m = new LinkedHashMap<>();
            for (EntityShare e : s.stats().shares()) {
                m.put(e.entity(), value.applyAsDouble(e));
            }
            return m;
        }

        @Override public String getPriorityReason() {
            PriorityReport p = s.stats().priority();
            return p == null ? "" : p.reason();
        }
    }
}
