package io.qosweaver.simulator.stats;

/**
 * The paper's river monitor (5.1) in miniature: a high-importance collection arrives every
 * {@code periodMs} and needs {@code highCostMs} of CPU before the next one is due (a collection
 * still running when the next is due is a deadline miss, and the due one is skipped);
 * {@code lowClients} closed-loop clients each send low-importance chart requests of
 * {@code lowCostMs} of CPU with a control point every {@code controlPointUs} of CPU. Times in the
 * units their names say.
 */
public record Workload(int cores, long periodMs, long highCostMs, int lowClients, long lowCostMs,
        long controlPointUs, long seconds) {

    public Workload {
        if (cores < 1 || periodMs < 1 || highCostMs < 1 || lowClients < 1 || lowCostMs < 1
                || controlPointUs < 1 || seconds < 1) {
            throw new IllegalArgumentException("every workload parameter must be positive: " + this);
        }
    }

    /** River-monitor-like defaults on two cores. */
    public static Workload defaults() {
        return new Workload(2, 1000, 300, 40, 200, 1000, 60);
    }
}
