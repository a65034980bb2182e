package io.qosweaver.simulator;

/**
 * The simulated processors: {@code cores} shared by the runnable threads in proportion to their
 * CFS weight (kernel/sched/core.c {@code sched_prio_to_weight}: nice -20 weighs 88761, 0 weighs
 * 1024, 19 weighs 15), at most one core per thread. Whether Java priorities reach the OS is the
 * model's choice, as it is the JVM's: HotSpot on Linux ignores them by default and maps them to
 * nice -5..4 with {@code -XX:ThreadPriorityPolicy=1} (as root). The model has CPU only: no locks,
 * I/O, GC or memory bandwidth, which is where OS priorities fall short in the paper; read the
 * priority rows as upper bounds.
 */
public enum CpuModel {
    /** HotSpot's defaults: Java priorities never reach the OS. */
    HOTSPOT_DEFAULT(null, false, "Java priorities ignored, as HotSpot does on Linux by default"),
    /** {@code -XX:ThreadPriorityPolicy=1} as root: MAX_PRIORITY is nice -5, MIN_PRIORITY nice 4. */
    THREAD_PRIORITY_POLICY_1("TPP=1", true, "-XX:ThreadPriorityPolicy=1 as root: MAX -> nice -5, MIN -> nice 4");

    /** Linux CFS weights, nice -20..19. */
    private static final int[] CFS_WEIGHT = {
        88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
        9548, 7620, 6100, 4904, 3906, 3121, 2501, 1991, 1586, 1277,
        1024, 820, 655, 526, 423, 335, 272, 215, 172, 137,
        110, 87, 70, 56, 45, 36, 29, 23, 18, 15};
    /** HotSpot's Linux java_to_os_priority with ThreadPriorityPolicy=1, index = Java priority. */
    private static final int[] HOTSPOT_NICE = {19, 4, 3, 2, 1, 0, -1, -2, -3, -4, -5};

    private final String label;
    private final boolean javaPrioritiesReachOs;
    private final String description;

    CpuModel(String label, boolean javaPrioritiesReachOs, String description) {
        this.label = label;
        this.javaPrioritiesReachOs = javaPrioritiesReachOs;
        this.description = description;
    }

    /** The suffix in a version's name ({@code [TPP=1]}), null for the default model. */
    public String label() {
        return label;
    }

    public boolean javaPrioritiesReachOs() {
        return javaPrioritiesReachOs;
    }

    public String description() {
        return description;
    }

    /** The nice value a thread runs at: the native one a policy set, else its Java priority's. */
    int nice(int nativeNice, int javaPriority) {
        if (nativeNice != 0 || !javaPrioritiesReachOs) {
            return nativeNice;
        }
        return HOTSPOT_NICE[Math.max(0, Math.min(10, javaPriority))];
    }

    static int weight(int nice) {
        return CFS_WEIGHT[Math.max(-20, Math.min(19, nice)) + 20];
    }
}
