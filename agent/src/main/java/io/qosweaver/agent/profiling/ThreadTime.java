package io.qosweaver.agent.profiling;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The profile's time base: what of a thread's recorded time was its own work. A probe stretches
 * the run it records twice over, and both are taken out of every thread's time stamps, a chunk of
 * join points at a time, before they are written:
 * <ul>
 *   <li><b>Time off the CPU.</b> On a busy machine a thread is preempted for milliseconds at a
 *   time, and a GC pause stops it (a river-monitor chart on 2 cores beside another load: about 3 of
 *   its 5 recorded seconds were some 700 gaps of 1 to 8 ms between two calls). The probe reads the
 *   thread's CPU time when a chunk starts and when it is full, with the wall time; their difference
 *   over the chunk is the time off the CPU, and it lies in the chunk's longest gaps, which are cut
 *   down to a common level until that much is removed ("water filling": a preemption inflates one
 *   gap; a gap shorter than {@link #MIN_PAUSE_NANOS} is taken as the thread's own work and never
 *   cut).</li>
 *   <li><b>The probe's cost.</b> Between two join points lie a probe and the work between the two
 *   calls; somewhere in a few thousand calls two follow each other with next to no work between
 *   them, so the low end of a chunk's gaps is what one probe costs there, with the caches and the
 *   compiled code as they are (a loop that times the probe alone saw 35 to 49 ns where the
 *   renderer's gaps were mostly 40 to 64 ns). Each chunk of at least {@link #MIN_GAPS} gaps sets
 *   the cost to its {@link #QUANTILE} quantile (below 1 us; above that the code is so sparse that
 *   the probe hardly matters and the calibration's cost is used), and every gap loses that much,
 *   down to 0 (counted as clamped).</li>
 *   <li><b>What the probe costs beyond its gaps</b> ({@code workShare}, 1 unless given): the code
 *   around a probe is optimized less than without it (fewer inlined calls, loops not unrolled),
 *   which no gap shows. {@code qosweaver profile --request} measures, against an unprofiled run of
 *   the same requests, which share of what is left once the estimate is out was the application's
 *   own work, and every gap keeps that share of its remainder. A share, not a constant per join
 *   point: where calls follow each other every nanosecond or two (a parser), a constant as large
 *   as the mean would swallow most gaps whole and leave the rest untouched (the gap cannot go below
 *   0), so the total stayed 1.3x to 3.7x too long; a share takes the same total out of every kind
 *   of code and never empties a gap.</li>
 * </ul>
 * A chunk without CPU times (no CPU clock, a last, partial chunk) loses only the probe's cost.
 * Used by the one writer thread only.
 */
final class ThreadTime {
    static final long MIN_PAUSE_NANOS = 2_000;
    static final int MIN_GAPS = 256;
    static final double QUANTILE = 0.01;
    private static final int HISTOGRAM = 1024;

    private static final class Timeline {
        long lastRaw = Long.MIN_VALUE;
        long lastOut;
        long cost;
        /** What the water filling cut from the previous chunk's tail, the gap to this chunk's first join point. */
        long tailCut;
        /** The fraction of a nanosecond the work share left over, carried so that rounding does not drift. */
        double carry;
    }

    private final long fallbackCost;
    private final boolean estimate;
    private final double workShare;
    private final Map<Long, Timeline> threads = new HashMap<>();
    private long[] gap = new long[64];
    private long[] candidates = new long[64];
    private int[] where = new int[64];
    private final int[] histogram = new int[HISTOGRAM];
    private long offCpuRemoved;
    private long probeRemoved;
    private long shareRemoved;
    private long clamped;
    private long joinPoints;
    private long minCost = Long.MAX_VALUE;
    private long maxCost;

    /**
     * @param cost the probe's cost: the calibration's, used where a chunk does not tell (estimate),
     *     or the one to use throughout
     * @param estimate true: each chunk's gaps estimate the cost
     */
    ThreadTime(long cost, boolean estimate) {
        this(cost, estimate, 1);
    }

    /** @param workShare the share of each gap's remainder, once the probe's cost is out, that is kept: (0, 1] */
    ThreadTime(long cost, boolean estimate, double workShare) {
        if (!(workShare > 0 && workShare <= 1)) {
            throw new IllegalArgumentException("work share " + workShare + " is not in (0, 1]");
        }
        this.fallbackCost = cost;
        this.estimate = estimate;
        this.workShare = workShare;
    }

    /**
     * Writes the corrected times of {@code times[from..to)} into {@code out[from..to)}.
     *
     * @param cpuStart the thread's CPU time before {@code times[0]}, or -1
     * @param cpuEnd the thread's CPU time after the chunk's last join point, or -1
     * @param wallEnd the wall time read with {@code cpuEnd}
     */
    void correct(long thread, long[] times, int from, int to, long cpuStart, long cpuEnd, long wallEnd, long[] out) {
        if (to <= from) {
            return;
        }
        Timeline t = threads.computeIfAbsent(thread, k -> {
            Timeline n = new Timeline();
            n.cost = fallbackCost;
            return n;
        });
        if (gap.length < to) {
            gap = new long[Math.max(to, gap.length * 2)];
        }
        for (int i = from; i < to; i++) {
            long previous = i == from ? t.lastRaw : times[i - 1];
            gap[i] = previous == Long.MIN_VALUE ? -1 : times[i] - previous;
        }
        if (gap[from] > 0) {
            gap[from] = Math.max(0, gap[from] - t.tailCut);
        }
        t.tailCut = 0;
        if (cpuStart >= 0 && cpuEnd >= 0 && from == 0) {
            long offCpu = (wallEnd - times[0]) - (cpuEnd - cpuStart);
            if (offCpu > MIN_PAUSE_NANOS) {
                t.tailCut = cutPauses(times, to, wallEnd, offCpu);
            }
        }
        if (estimate && to - from - 1 >= MIN_GAPS) {
            t.cost = quantile(from + 1, to);
            minCost = Math.min(minCost, t.cost);
            maxCost = Math.max(maxCost, t.cost);
        }
        for (int i = from; i < to; i++) {
            long o;
            if (gap[i] < 0) {
                o = times[i]; // the thread's first join point starts its timeline
            } else {
                long probe = Math.min(gap[i], t.cost);
                if (gap[i] < t.cost) {
                    clamped++;
                }
                probeRemoved += probe;
                long rest = gap[i] - probe;
                if (workShare < 1) {
                    double kept = rest * workShare + t.carry;
                    long whole = (long) kept;
                    t.carry = kept - whole;
                    shareRemoved += rest - whole;
                    rest = whole;
                }
                o = t.lastOut + rest;
            }
            out[i] = o;
            t.lastOut = o;
        }
        t.lastRaw = times[to - 1];
        joinPoints += to - from;
    }

    /** Cuts the longest gaps of a full chunk by {@code offCpu} in all; returns the cut from its tail. */
    private long cutPauses(long[] times, int to, long wallEnd, long offCpu) {
        int n = 0;
        for (int i = 1; i <= to; i++) {
            long g = i < to ? gap[i] : wallEnd - times[to - 1];
            if (g > MIN_PAUSE_NANOS) {
                if (n == candidates.length) {
                    candidates = Arrays.copyOf(candidates, n * 2);
                    where = Arrays.copyOf(where, n * 2);
                }
                candidates[n] = g;
                where[n++] = i;
            }
        }
        long level = level(Arrays.copyOf(candidates, n), offCpu);
        long tail = 0;
        for (int k = 0; k < n; k++) {
            long cut = Math.max(0, candidates[k] - level);
            offCpuRemoved += cut;
            if (where[k] < to) {
                gap[where[k]] -= cut;
            } else {
                tail = cut;
            }
        }
        return tail;
    }

    /**
     * The probe's cost in a chunk: the mean of its gaps from their {@link #QUANTILE} quantile q to
     * 2q, the gaps that are a probe and next to no work. The quantile alone is the cheapest probe of
     * the chunk; a probe costs more on average (a store that misses the cache: the writer thread on
     * the other core read the chunk last), and the mean of the gaps just above it is that average
     * plus a few nanoseconds of work. The calibration's cost if the quantile is 1 us or more.
     */
    private long quantile(int from, int to) {
        Arrays.fill(histogram, 0);
        for (int i = from; i < to; i++) {
            if (gap[i] < HISTOGRAM) {
                histogram[(int) gap[i]]++;
            }
        }
        long rank = (long) Math.ceil(QUANTILE * (to - from));
        long seen = 0;
        for (int v = 0; v < HISTOGRAM; v++) {
            seen += histogram[v];
            if (seen >= rank) {
                long sum = 0;
                long count = 0;
                for (int w = v; w <= Math.min(2 * v, HISTOGRAM - 1); w++) {
                    sum += (long) w * histogram[w];
                    count += histogram[w];
                }
                return Math.round((double) sum / count);
            }
        }
        return fallbackCost;
    }

    /**
     * The level to which the gaps are cut so that what is above it adds up to {@code budget} (never
     * more), or {@link #MIN_PAUSE_NANOS} if even that removes less.
     */
    static long level(long[] gaps, long budget) {
        Arrays.sort(gaps);
        long above = 0; // cutting the gaps above index k down to gaps[k] removes this much
        for (int k = gaps.length - 1; k >= 0; k--) {
            long lower = k > 0 ? Math.max(gaps[k - 1], MIN_PAUSE_NANOS) : MIN_PAUSE_NANOS;
            int count = gaps.length - k;
            long more = (gaps[k] - lower) * count;
            if (above + more >= budget) {
                return gaps[k] - (budget - above) / count;
            }
            above += more;
        }
        return MIN_PAUSE_NANOS;
    }

    /** What was taken out, for the profile's meta records. */
    String describe() {
        return (estimate ? "the probe's cost estimated per chunk of join points (the mean of its gaps from their "
                + Math.round(QUANTILE * 100) + " % quantile to twice that, " + (maxCost == 0 ? "none estimated" : minCost + " to " + maxCost + " ns")
                + "; calibration " + fallbackCost + " ns where a chunk does not tell)" : "the probe's cost " + fallbackCost
                + " ns (given)") + ", " + meanCost() + " ns per join point in all" + (workShare < 1 ? "; of the rest "
                + String.format(java.util.Locale.ROOT, "%.4f", workShare) + " kept (workShare, what the probe costs the"
                + " code around it taken out: " + Math.round(shareRemoved / 1e6) + " ms)" : "") + "; " + Math.round(offCpuRemoved / 1e6)
                + " ms off the CPU; " + clamped + " gaps shorter than the cost";
    }

    long meanCost() {
        return joinPoints == 0 ? 0 : Math.round((double) probeRemoved / joinPoints);
    }

    /** What the probe's estimated cost took out, in nanoseconds. */
    long probeRemoved() {
        return probeRemoved;
    }

    /** What the work share took out beyond the estimate, in nanoseconds. */
    long shareRemoved() {
        return shareRemoved;
    }

    double workShare() {
        return workShare;
    }

    long clamped() {
        return clamped;
    }

    long joinPoints() {
        return joinPoints;
    }

    long offCpuRemoved() {
        return offCpuRemoved;
    }
}
