package io.qosweaver.platform;

import java.lang.management.ManagementFactory;

/**
 * What {@link Thread#setPriority} does to a thread's nice value in this JVM, measured once on a
 * throw-away thread. HotSpot on Linux ignores Java priorities unless it runs with
 * {@code -XX:ThreadPriorityPolicy=1}, and even then it can only lower a thread's nice value unless
 * the process is root (or has CAP_SYS_NICE); with the flag it maps MAX_PRIORITY to nice -5 and
 * MIN_PRIORITY to nice 4.
 *
 * @param effective whether both directions work (MIN lowers, MAX raises)
 * @param reason one line saying what was measured and why
 */
public record JavaPriorities(boolean effective, String reason) {
    private static volatile JavaPriorities measured;

    /** The measurement for this JVM, made at the first call (a thread start and a few /proc reads). */
    public static JavaPriorities ofThisJvm() {
        JavaPriorities p = measured;
        if (p == null) {
            measured = p = measure();
        }
        return p;
    }

    private static JavaPriorities measure() {
        String flag = "ThreadPriorityPolicy=" + threadPriorityPolicyFlag();
        int[] nice = {Integer.MIN_VALUE, 0, 0, 0}; // tid, before, after MIN, after MAX
        Thread probe = new Thread(() -> {
            int tid = LinuxThreads.currentTid();
            if (tid < 0) {
                return;
            }
            try {
                nice[1] = ProcThreadStat.nice(tid);
                Thread.currentThread().setPriority(Thread.MIN_PRIORITY);
                nice[2] = ProcThreadStat.nice(tid);
                Thread.currentThread().setPriority(Thread.MAX_PRIORITY);
                nice[3] = ProcThreadStat.nice(tid);
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
            return new JavaPriorities(false, "unknown: cannot read thread nice values from /proc on "
                    + System.getProperty("os.name") + " (" + flag + ")");
        }
        boolean lowers = nice[2] > nice[1], raises = nice[3] < nice[1];
        if (lowers && raises) {
            return new JavaPriorities(true, "MIN_PRIORITY -> nice " + nice[2] + ", MAX_PRIORITY -> nice "
                    + nice[3] + " (" + flag + ")");
        }
        if (lowers) {
            return new JavaPriorities(false, "only lowering works: MIN_PRIORITY -> nice " + nice[2]
                    + " but MAX_PRIORITY cannot raise a thread (" + flag + " without root or CAP_SYS_NICE)");
        }
        return new JavaPriorities(false, "HotSpot on Linux ignores Java priorities (" + flag
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
