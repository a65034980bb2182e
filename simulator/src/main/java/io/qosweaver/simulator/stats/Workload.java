package io.qosweaver.simulator.stats;

/**
 * The paper's river monitor (5.1) in miniature: a high-importance collection arrives every
 * {@code periodMs} and needs {@code highCostMs} of CPU before the next one is due (a collection
 * still running when the next is due is a deadline miss, and the due one is skipped);
 * {@code lowClients} closed-loop clients each send low-importance chart requests of
 * {@code lowCostMs} of CPU with a control point every {@code controlPointUs} of CPU. Times in the
 * units their names say.
 *
 * <p>The additions of the paper's 4.4 and 5.4-5.5, all off at 0 except the progress points:
 * <ul>
 *   <li>{@code progressPoints}: progress points spread evenly over a collection's CPU (the paper
 *       wove about 100);
 *   <li>{@code lockUs}: a lock (a {@code ReentrantLock}: control points inside it can suspend) that
 *       each chart request holds for its first {@code lockUs} of CPU and the collection takes halfway
 *       for as long (the paper's {@code Logging.writeGeneration} and {@code writeCollection});
 *   <li>{@code middleClients} closed-loop clients of the middle-importance up-to-date page, each
 *       request {@code middleCostUs} of CPU with no control point.
 * </ul>
 */
public record Workload(int cores, long periodMs, long highCostMs, int lowClients, long lowCostMs,
        long controlPointUs, long seconds, int progressPoints, long lockUs, int middleClients, long middleCostUs) {

    public Workload {
        if (cores < 1 || periodMs < 1 || highCostMs < 1 || lowClients < 1 || lowCostMs < 1
                || controlPointUs < 1 || seconds < 1) {
            throw new IllegalArgumentException("every workload parameter must be positive: " + this);
        }
        if (progressPoints < 0 || lockUs < 0 || middleClients < 0 || middleCostUs < 0
                || (middleClients > 0 && middleCostUs < 1)) {
            throw new IllegalArgumentException("progress points, the lock and the middle clients take values >= 0,"
                    + " and middle clients a cost of at least 1 us: " + this);
        }
        if (lockUs > highCostMs * 500 || lockUs >= lowCostMs * 1000) {
            throw new IllegalArgumentException("the lock is held for at most half a collection and less than a chart: "
                    + this);
        }
    }

    /** Without the additions of 4.4: 100 progress points per collection, no lock, no middle clients. */
    public Workload(int cores, long periodMs, long highCostMs, int lowClients, long lowCostMs, long controlPointUs,
            long seconds) {
        this(cores, periodMs, highCostMs, lowClients, lowCostMs, controlPointUs, seconds, 100, 0, 0, 0);
    }

    /** River-monitor-like defaults on two cores. */
    public static Workload defaults() {
        return new Workload(2, 1000, 300, 40, 200, 1000, 60);
    }

    /**
     * The paper's 5.4 in miniature: 20 chart clients, a collection of 300 ms every 3 s, and a lock
     * held for the first 2 ms of each chart (two control points inside) and 2 ms of each
     * collection. A chart thread suspended inside it (the most recently admitted are the first
     * suspended) holds the collector hostage.
     */
    public static Workload deadlock() {
        return new Workload(2, 3_000, 300, 20, 200, 1000, 60, 100, 2_000, 0, 0);
    }

    /**
     * The paper's 5.5 in miniature: 20 chart clients and 20 clients of a 2 ms up-to-date page, with
     * a collection of 1 s every 10 s. Sharing 2 cores equally, the page serves 1000 x 20 / (20 + L)
     * pages/s beside L running chart threads (about 770 at L = 6, 950 at L = 1): the paper's 150
     * pages/s scaled to a page that costs 2 ms here.
     */
    public static Workload adaptive() {
        return new Workload(2, 10_000, 1_000, 20, 200, 1000, 60, 100, 0, 20, 2_000);
    }
}
