package io.qosweaver.scheduler;

import io.qosweaver.scheduler.spi.NativePriorityException;
import io.qosweaver.scheduler.spi.ProcStat;
import java.lang.management.ManagementFactory;
import java.util.Map;

/**
 * Java priority scheduling, a baseline of the QoSWeaver paper (5.1): on entering a high-importance
 * scope the thread gets {@link Thread#MAX_PRIORITY}, on entering a low one
 * {@link Thread#MIN_PRIORITY}, and {@link Thread#NORM_PRIORITY} again when it leaves ("because
 * those threads were reused via a thread pool"). Task classes carry {@code importance:
 * high|low|normal} as for {@link ImportancePolicy}; there are no parameters. Nothing is ever
 * suspended, so control points keep their fast path.
 *
 * <p>Whether it does anything is up to the JVM: HotSpot on Linux ignores Java priorities unless it
 * runs with {@code -XX:ThreadPriorityPolicy=1}, and even then it can only lower a thread's nice
 * value unless the process is root (or has CAP_SYS_NICE); with the flag it maps MAX_PRIORITY to
 * nice -5 and MIN_PRIORITY to nice 4, far from the OS's full range. That is part of what the
 * paper's result shows. So that a run never believes it measured priorities the JVM ignored, the
 * policy probes once, on a throw-away thread, what MIN_PRIORITY and MAX_PRIORITY do to the thread's
 * nice value in {@code /proc}, reports it in {@link #priorityReport()} (Prometheus
 * {@code qosweaver_priority_effective}) and warns once when they are not effective.
 */
final class JavaPriorityPolicy implements Policy {
    static final String NAME = "java-priority";

    private final Probe probe;
    // under the controller lock
    private long changes, failures;

    JavaPriorityPolicy(Probe probe) {
        this.probe = probe;
    }

    static Policy create(Map<String, String> parameters) {
        for (String k : parameters.keySet()) {
            throw new PolicyConfigException("policy." + k, "unknown parameter '" + k
                    + "' for policy java-priority; remove it (the policy has no parameters: the"
                    + " priorities are MAX_PRIORITY for high, MIN_PRIORITY for low, as in the paper)");
        }
        Probe p = Probe.get();
        if (!p.effective) {
            Warnings.once("policy java-priority: Java thread priorities are NOT effective here: " + p.reason
                    + ". The run measures the application without priority scheduling.");
        }
        return new JavaPriorityPolicy(p);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank(SchedulerConfig.TaskClassSpec spec) {
        return ImportancePolicy.rankByImportance(spec);
    }

    @Override
    public void onRoleChange(Control c, ManagedThread t, TaskClass from, TaskClass to) {
        if (to == null && !t.thread.isAlive()) {
            return; // reaped: nothing to restore on a dead thread
        }
        int p = to == null ? Thread.NORM_PRIORITY
                : to.rank() == ImportancePolicy.RANK_HIGH ? Thread.MAX_PRIORITY : Thread.MIN_PRIORITY;
        apply(t.thread, p);
    }

    @Override
    public void onDetach(ManagedThread t, TaskClass role) {
        if (t.thread.isAlive()) {
            apply(t.thread, Thread.NORM_PRIORITY);
        }
    }

    private void apply(Thread thread, int priority) {
        if (thread.getPriority() == priority) {
            return;
        }
        try {
            thread.setPriority(priority); // capped by the thread group's maximum
            changes++;
        } catch (RuntimeException e) { // SecurityException
            failures++;
        }
    }

    @Override
    public PriorityReport priorityReport() {
        return new PriorityReport("java", probe.effective, probe.reason, changes, failures);
    }

    /** What Java priorities do to a thread's nice value in this JVM, measured once. */
    static final class Probe {
        final boolean effective;
        final String reason;
        private static volatile Probe cached;

        Probe(boolean effective, String reason) {
            this.effective = effective;
            this.reason = reason;
        }

        static Probe get() {
            Probe p = cached;
            if (p == null) {
                cached = p = measure();
            }
            return p;
        }

        private static Probe measure() {
            String flag = "ThreadPriorityPolicy=" + threadPriorityPolicyFlag();
            int[] nice = {Integer.MIN_VALUE, 0, 0, 0}; // tid, before, after MIN, after MAX
            Thread probe = new Thread(() -> {
                int tid = ProcStat.currentThreadId();
                if (tid < 0) {
                    return;
                }
                try {
                    nice[1] = ProcStat.nice(tid);
                    Thread.currentThread().setPriority(Thread.MIN_PRIORITY);
                    nice[2] = ProcStat.nice(tid);
                    Thread.currentThread().setPriority(Thread.MAX_PRIORITY);
                    nice[3] = ProcStat.nice(tid);
                    nice[0] = tid;
                } catch (NativePriorityException e) {
                    // leave nice[0] unset: unknown
                }
            }, "qosweaver-priority-probe");
            probe.setDaemon(true);
            probe.start();
            try {
                probe.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (nice[0] == Integer.MIN_VALUE) {
                return new Probe(false, "unknown: cannot read thread nice values from /proc on "
                        + System.getProperty("os.name") + " (" + flag + ")");
            }
            boolean lowers = nice[2] > nice[1], raises = nice[3] < nice[1];
            if (lowers && raises) {
                return new Probe(true, "MIN_PRIORITY -> nice " + nice[2] + ", MAX_PRIORITY -> nice "
                        + nice[3] + " (" + flag + ")");
            }
            if (lowers) {
                return new Probe(false, "only lowering works: MIN_PRIORITY -> nice " + nice[2]
                        + " but MAX_PRIORITY cannot raise a thread (" + flag
                        + " without root or CAP_SYS_NICE)");
            }
            return new Probe(false, "HotSpot on Linux ignores Java priorities (" + flag
                    + "; needs -XX:ThreadPriorityPolicy=1, and root to raise)");
        }

        /** The flag as given on the command line (also JAVA_TOOL_OPTIONS), HotSpot's default 0. */
        static String threadPriorityPolicyFlag() {
            String v = "0";
            try {
                for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
                    if (a.startsWith("-XX:ThreadPriorityPolicy=")) {
                        v = a.substring(a.indexOf('=') + 1);
                    }
                }
            } catch (RuntimeException | Error e) {
                v = "?";
            }
            return v;
        }
    }
}
