package io.qosweaver.pointcuts;

import io.qosweaver.model.signature.Signatures;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * The profile-based pointcut generator of QoSWeaver (Sato et al., section 3.3, Fig. 3).
 *
 * <pre>
 * SLOT := {0, ..., exec_time / t}
 * for i = 1..m
 *   PC_i := {pc in PC_all | |select(pc)| = i}
 *   for each j in SLOT (increasing, skipping slots covered meanwhile)
 *     PC_ij   := {pc in PC_i | j in cover(pc)}
 *     PC_best := {pc in PC_ij | |cover(pc) ∩ SLOT| is biggest}
 *     best    := eval(PC_best)
 *     PC_gen  := PC_gen - {pc in PC_gen | cover(pc) ⊆ cover(best)} + best
 *     SLOT    := SLOT - cover(best)
 * </pre>
 *
 * <b>Candidates</b> are the (withincode caller, call callee) pairs of the profile, without
 * wildcards; {@code select(pc)} counts the pair's join points over the whole (merged) profile.
 * A candidate is never proposed if its caller or callee is a constructor or static initializer
 * (the pointcut language cannot name them) or, by default, if it calls inside a monitor the
 * caller holds ({@link SynchronizedRegions}).
 *
 * <p><b>Slots.</b> The paper profiled one thread. Here every <em>timeline</em>, one per (profile
 * file, thread), is sliced into its own slots of length t from its first join point: slot k of a
 * timeline is [first + k*t, first + (k+1)*t). The slots of all timelines are concatenated in
 * profile order into one SLOT set, so a candidate's cover may span threads and files, and
 * {@code select} counts join points over all of them. Slots without any join point stay
 * uncovered and are reported as empty.
 *
 * <p><b>eval</b> (the paper leaves it open; its text asks for "the pointcut that covers the most
 * time slots", which PC_best already does). Among PC_best, pick the one after which
 * <ol>
 *   <li>PC_gen selects the fewest join points (it drops the earlier choices with the most join
 *       points: fewer control points at run time),</li>
 *   <li>then PC_gen has the fewest pointcuts,</li>
 *   <li>then the smallest pointcut text {@code call(CALLEE) && withincode(CALLER)} in
 *       {@link String#compareTo} order, so the result does not depend on profile order.</li>
 * </ol>
 * On Fig. 4 this is what picks f2 over f5 at i = 3 (both cover the last free slot; f2 drops f1
 * and f6, f5 would drop only f4).
 *
 * <p><b>Cost</b>: O(join points + m × slots) plus the subset checks, which only visit slots of
 * the new pointcut and the chosen pointcuts covering them. Candidates are indexed by slot and
 * ordered by occurrence class, and {@code |cover ∩ SLOT|} is kept per candidate and decremented
 * as slots are covered, so no step scans all candidates or all slots.
 *
 * <p><b>Baselines</b> (Table 3's "all" and "random 15"): {@link #eligibleCandidates},
 * {@link #randomSample} and {@link #evaluate}, which reports on any set of eligible candidates
 * exactly as {@link #generate} reports on its own.
 */
public final class PointcutGenerator {

    /**
     * @param interval the target interval t between adjacent control points, in the time of the
     *     running application
     * @param maxOccurrence m, the most join points a single pointcut may select (at least 1)
     * @param synchronizedRegions which calls hold a monitor; {@link SynchronizedRegions#NONE} to
     *     keep them (the paper's behaviour)
     * @param profileSlowdown how many times longer the work took while it was profiled than it
     *     takes unprofiled (1: the profile's time stamps are taken as real time, the paper's
     *     behaviour). The probe before every call stretches a run; the river monitor's charts take
     *     about 20 times longer profiled. The slots are {@code t x profileSlowdown} long in profile
     *     time, and the predicted intervals are reported divided by it, in real time.
     * @param coverAll after Fig. 3 with m, cover every slot that has a join point but no control
     *     point yet, raising m only for those slots: the coverage pass (see the class comment)
     */
    public record Options(Duration interval, int maxOccurrence, SynchronizedRegions synchronizedRegions,
                          double profileSlowdown, boolean coverAll) {
        public Options {
            Objects.requireNonNull(interval, "interval");
            Objects.requireNonNull(synchronizedRegions, "synchronizedRegions (use SynchronizedRegions.NONE)");
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("the target interval must be positive, was " + interval);
            }
            if (maxOccurrence < 1) {
                throw new IllegalArgumentException("the maximum occurrence must be at least 1, was " + maxOccurrence);
            }
            if (!(profileSlowdown > 0) || Double.isInfinite(profileSlowdown)) {
                throw new IllegalArgumentException("the profile slowdown must be a positive number (1 = the profile's"
                        + " time is real time), was " + profileSlowdown);
            }
        }

        /** Profile time taken as real time. */
        public Options(Duration interval, int maxOccurrence, SynchronizedRegions synchronizedRegions) {
            this(interval, maxOccurrence, synchronizedRegions, 1.0);
        }

        /** Fig. 3 alone, without the coverage pass. */
        public Options(Duration interval, int maxOccurrence, SynchronizedRegions synchronizedRegions,
                double profileSlowdown) {
            this(interval, maxOccurrence, synchronizedRegions, profileSlowdown, false);
        }

        public Options withCoverAll(boolean cover) {
            return new Options(interval, maxOccurrence, synchronizedRegions, profileSlowdown, cover);
        }

        public static Options of(Duration interval, int maxOccurrence) {
            return new Options(interval, maxOccurrence, SynchronizedRegions.NONE);
        }

        public Options withSynchronizedRegions(SynchronizedRegions regions) {
            return new Options(interval, maxOccurrence, regions, profileSlowdown, coverAll);
        }

        public Options withProfileSlowdown(double slowdown) {
            return new Options(interval, maxOccurrence, synchronizedRegions, slowdown, coverAll);
        }

        /** The slot length t in profile time: the target interval times the slowdown, at least 1 ns. */
        public long slotNanos() {
            return Math.max(1, Math.round(interval.toNanos() * profileSlowdown));
        }
    }

    private final Options options;

    public PointcutGenerator(Options options) {
        this.options = options;
    }

    /**
     * Fig. 3 on an in-memory profile. Its predicted intervals are exact: every selected join
     * point's time is known.
     */
    public GenerationReport generate(Profile profile) {
        long started = System.nanoTime();
        SlotProfile slots = SlotProfile.of(profile, options.slotNanos());
        Index ix = new Index(slots, options);
        int[] fig3 = greedy(ix);
        int[] chosen = options.coverAll() ? coverRest(ix, fig3) : fig3;
        return report(ix, chosen, options.coverAll() ? chosen.length - fig3.length : -1, started, exactIntervals(profile, slots));
    }

    /**
     * Fig. 3 on a slot summary of the options' slot length ({@link Options#slotNanos()}), for
     * profiles of any size. The predicted intervals come from the summary: the mean is exact, and
     * so is every gap between slots; inside one slot the selected join points are taken as evenly
     * spaced between the first and the last, so the longest gap is exact whenever it is longer
     * than a slot, and the standard deviation is an estimate.
     *
     * @throws IllegalArgumentException if the summary's slots are not the options' slot length
     */
    public GenerationReport generate(SlotProfile profile) {
        long started = System.nanoTime();
        Index ix = new Index(profile, options);
        int[] fig3 = greedy(ix);
        int[] chosen = options.coverAll() ? coverRest(ix, fig3) : fig3;
        return report(ix, chosen, options.coverAll() ? chosen.length - fig3.length : -1, started, null);
    }

    /**
     * The coverage pass: {@code fig3} followed by pointcuts that cover every slot with a join point
     * that Fig. 3 left without one. A weighted set cover, greedy by join points per newly covered
     * slot (the classic ln n approximation), over every eligible candidate whatever its
     * occurrences; then, largest first, an added pointcut whose needed slots the others cover too
     * is dropped. Fig. 3's own choice is kept as it is.
     */
    private static int[] coverRest(Index ix, int[] fig3) {
        SlotProfile p = ix.profile;
        boolean[] taken = new boolean[ix.candidates];
        for (int c : fig3) {
            taken[c] = true;
        }
        BitSet need = new BitSet(ix.slots);
        for (int s = 0; s < ix.slots; s++) {
            int e = p.entryStart(s);
            int end = p.entryStart(s + 1);
            boolean covered = false;
            for (; e < end && !covered; e++) {
                covered = taken[p.entryPair(e)];
            }
            if (!covered && end > p.entryStart(s)) {
                need.set(s);
            }
        }
        if (need.isEmpty()) {
            return fig3;
        }
        boolean[] usable = new boolean[ix.candidates];
        for (int c = 0; c < ix.candidates; c++) {
            usable[c] = !taken[c] && ix.status(c) == ELIGIBLE;
        }
        Covers covers = ix.covers(usable);
        // needed slot -> usable candidates covering it
        int[] slotStart = new int[ix.slots + 1];
        for (int c = 0; c < ix.candidates; c++) {
            for (int x = covers.start()[c], e = covers.start()[c + 1]; x < e; x++) {
                if (need.get(covers.slots()[x])) {
                    slotStart[covers.slots()[x] + 1]++;
                }
            }
        }
        for (int s = 0; s < ix.slots; s++) {
            slotStart[s + 1] += slotStart[s];
        }
        int[] slotCands = new int[slotStart[ix.slots]];
        int[] fill = Arrays.copyOf(slotStart, ix.slots);
        int[] gain = new int[ix.candidates];
        for (int c = 0; c < ix.candidates; c++) {
            for (int x = covers.start()[c], e = covers.start()[c + 1]; x < e; x++) {
                int s = covers.slots()[x];
                if (need.get(s)) {
                    slotCands[fill[s]++] = c;
                    gain[c]++;
                }
            }
        }
        // lazy queue: a gain only falls, so an entry whose ratio is current is the true minimum
        java.util.PriorityQueue<long[]> queue = new java.util.PriorityQueue<>((a, b) -> {
            int cmp = Double.compare((double) a[1] / a[2], (double) b[1] / b[2]);
            if (cmp == 0) {
                cmp = Long.compare(b[2], a[2]);
            }
            if (cmp == 0) {
                cmp = GenerationReport.pointcutText(p.caller((int) a[0]), p.callee((int) a[0]))
                        .compareTo(GenerationReport.pointcutText(p.caller((int) b[0]), p.callee((int) b[0])));
            }
            return cmp;
        });
        for (int c = 0; c < ix.candidates; c++) {
            if (gain[c] > 0) {
                queue.add(new long[] {c, p.occurrences(c), gain[c]});
            }
        }
        BitSet open = (BitSet) need.clone();
        int[] added = new int[16];
        int count = 0;
        while (!open.isEmpty() && !queue.isEmpty()) {
            long[] top = queue.poll();
            int c = (int) top[0];
            if (gain[c] == 0) {
                continue;
            }
            if (top[2] != gain[c]) {
                top[2] = gain[c];
                queue.add(top);
                continue;
            }
            if (count == added.length) {
                added = Arrays.copyOf(added, count * 2);
            }
            added[count++] = c;
            for (int x = covers.start()[c], e = covers.start()[c + 1]; x < e; x++) {
                int s = covers.slots()[x];
                if (open.get(s)) {
                    open.clear(s);
                    for (int y = slotStart[s], ye = slotStart[s + 1]; y < ye; y++) {
                        gain[slotCands[y]]--;
                    }
                }
            }
        }
        // drop added pointcuts made redundant by later ones, the most join points first
        int[] coverCount = new int[ix.slots];
        for (int k = 0; k < count; k++) {
            int c = added[k];
            for (int x = covers.start()[c], e = covers.start()[c + 1]; x < e; x++) {
                coverCount[covers.slots()[x]]++;
            }
        }
        Integer[] byOcc = new Integer[count];
        for (int k = 0; k < count; k++) {
            byOcc[k] = k;
        }
        int[] addedFinal = added;
        Arrays.sort(byOcc, (a, b) -> Long.compare(p.occurrences(addedFinal[b]), p.occurrences(addedFinal[a])));
        boolean[] dropped = new boolean[count];
        for (int k : byOcc) {
            int c = added[k];
            boolean redundant = true;
            for (int x = covers.start()[c], e = covers.start()[c + 1]; x < e && redundant; x++) {
                int s = covers.slots()[x];
                redundant = !need.get(s) || coverCount[s] > 1;
            }
            if (redundant) {
                dropped[k] = true;
                for (int x = covers.start()[c], e = covers.start()[c + 1]; x < e; x++) {
                    coverCount[covers.slots()[x]]--;
                }
            }
        }
        int[] out = Arrays.copyOf(fig3, fig3.length + count);
        int n = fig3.length;
        for (int k = 0; k < count; k++) {
            if (!dropped[k]) {
                out[n++] = added[k];
            }
        }
        return Arrays.copyOf(out, n);
    }

    private int[] greedy(Index ix) {
        int m = options.maxOccurrence();
        int candidates = ix.candidates;
        int[] occ = ix.occ;
        // Only candidates selecting at most m join points take part (the Index checked exactly those).
        boolean[] eligible = new boolean[candidates];
        for (int c = 0; c < candidates; c++) {
            eligible[c] = occ[c] <= m && ix.status[c] == ELIGIBLE;
        }
        Covers covers = ix.covers(eligible);
        int slots = ix.slots;

        // Slot -> candidates covering it, each slot's list ordered by (occurrence class, id).
        int[] byClass = sortByOccurrence(eligible, occ, candidates, m);
        int[] slotStart = new int[slots + 1];
        for (int c : byClass) {
            for (int x = covers.start[c], e = covers.start[c + 1]; x < e; x++) {
                slotStart[covers.slots[x] + 1]++;
            }
        }
        for (int s = 0; s < slots; s++) {
            slotStart[s + 1] += slotStart[s];
        }
        int[] slotCands = new int[slotStart[slots]];
        int[] fill = Arrays.copyOf(slotStart, slots);
        for (int c : byClass) {
            for (int x = covers.start[c], e = covers.start[c + 1]; x < e; x++) {
                slotCands[fill[covers.slots[x]]++] = c;
            }
        }

        Greedy g = new Greedy(ix.profile, occ, covers, slotStart, slotCands, slots);
        g.run(m);
        return g.chosenInOrder();
    }

    /**
     * Every candidate that generation could propose for some m: neither caller nor callee is a
     * constructor or initializer, and the call is not made inside a monitor the caller holds (per
     * the options' {@link SynchronizedRegions}); the maximum occurrence does not apply. For the
     * baselines of Table 3 ("all", "random 15"). Each comes with its join points and the distinct
     * slots of the options' interval it covers, in the order of its first join point in the profile.
     */
    public List<GenerationReport.GeneratedPointcut> eligibleCandidates(Profile profile) {
        return eligibleCandidates(SlotProfile.of(profile, options.slotNanos()));
    }

    /** {@link #eligibleCandidates(Profile)} on a slot summary of the options' slot length. */
    public List<GenerationReport.GeneratedPointcut> eligibleCandidates(SlotProfile profile) {
        Index ix = new Index(profile, options);
        List<GenerationReport.GeneratedPointcut> out = new ArrayList<>();
        for (int c = 0; c < ix.candidates; c++) {
            if (ix.status(c) == ELIGIBLE) {
                out.add(ix.pointcut(c));
            }
        }
        return List.copyOf(out);
    }

    /**
     * The report {@link #generate} would give if it had generated exactly {@code chosen}: the
     * baselines' rows of Table 3, measured like a generated row. Pointcuts are matched by their
     * caller and callee signatures (their counts are ignored and recomputed from the profile) and
     * reported in the given order; the maximum occurrence does not apply to them, but the report's
     * candidate counts are those of generation with the options' m. {@code generationNanos} is
     * the time this evaluation took.
     *
     * @throws IllegalArgumentException naming the pointcut if one is not in the profile, is not
     *     eligible (see {@link #eligibleCandidates}) or is listed twice
     */
    public GenerationReport evaluate(Profile profile, List<GenerationReport.GeneratedPointcut> chosen) {
        long started = System.nanoTime();
        SlotProfile slots = SlotProfile.of(profile, options.slotNanos());
        Index ix = new Index(slots, options);
        return report(ix, ids(ix, chosen), -1, started, exactIntervals(profile, slots));
    }

    /** {@link #evaluate(Profile, List)} on a slot summary (intervals as {@link #generate(SlotProfile)} predicts them). */
    public GenerationReport evaluate(SlotProfile profile, List<GenerationReport.GeneratedPointcut> chosen) {
        long started = System.nanoTime();
        Index ix = new Index(profile, options);
        return report(ix, ids(ix, chosen), -1, started, null);
    }

    private static int[] ids(Index ix, List<GenerationReport.GeneratedPointcut> chosen) {
        Objects.requireNonNull(chosen, "chosen");
        int[] ids = new int[chosen.size()];
        boolean[] seen = new boolean[ix.candidates];
        for (int x = 0; x < ids.length; x++) {
            GenerationReport.GeneratedPointcut pc = chosen.get(x);
            int c = ix.find(pc.caller(), pc.callee());
            if (c < 0) {
                throw new IllegalArgumentException("not in the profile: " + pc.pointcut());
            }
            byte status = ix.status(c);
            if (status == INITIALIZER) {
                throw new IllegalArgumentException("not eligible (constructor or initializer): " + pc.pointcut());
            }
            if (status == SYNCHRONIZED) {
                throw new IllegalArgumentException("not eligible (called inside a monitor its caller holds): " + pc.pointcut());
            }
            if (seen[c]) {
                throw new IllegalArgumentException("listed twice: " + pc.pointcut());
            }
            seen[c] = true;
            ids[x] = c;
        }
        return ids;
    }

    /**
     * {@code k} distinct candidates chosen uniformly at random (Floyd's algorithm), the same for
     * the same seed, in the order of {@code candidates}; all of them when {@code k >= size}.
     */
    public static List<GenerationReport.GeneratedPointcut> randomSample(List<GenerationReport.GeneratedPointcut> candidates,
            int k, long seed) {
        if (k < 0) {
            throw new IllegalArgumentException("the sample size must not be negative, was " + k);
        }
        int size = candidates.size();
        if (k >= size) {
            return List.copyOf(candidates);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        BitSet picked = new BitSet(size);
        for (int j = size - k; j < size; j++) {
            int r = rnd.nextInt(j + 1);
            picked.set(picked.get(r) ? j : r);
        }
        List<GenerationReport.GeneratedPointcut> out = new ArrayList<>(k);
        for (int i = picked.nextSetBit(0); i >= 0; i = picked.nextSetBit(i + 1)) {
            out.add(candidates.get(i));
        }
        return List.copyOf(out);
    }

    /** The predicted intervals of a set of selected pairs: from exact times, or from a slot summary. */
    @FunctionalInterface
    private interface Intervals {
        IntervalStats of(boolean[] selected);
    }

    /**
     * Exact: every selected join point of the profile, in each timeline's time order. The summary
     * was made from this profile alone, so its signature ids are the profile's.
     */
    private static Intervals exactIntervals(Profile profile, SlotProfile slots) {
        return selected -> {
            LongIntMap pairOf = new LongIntMap(slots.pairs());
            for (int c = 0; c < slots.pairs(); c++) {
                pairOf.put(LongIntMap.key(slots.callerId(c), slots.calleeId(c)), c);
            }
            IntervalStats stats = new IntervalStats();
            for (int tl = 0; tl < profile.timelineCount(); tl++) {
                int from = profile.timelineStart(tl);
                int to = profile.timelineStart(tl + 1);
                if (from == to) {
                    continue;
                }
                stats.startTimeline(profile.time(from));
                for (int k = from; k < to; k++) {
                    if (selected[pairOf.get(LongIntMap.key(profile.callerId(k), profile.calleeId(k)))]) {
                        stats.point(profile.time(k));
                    }
                }
                stats.endTimeline(profile.time(to - 1));
            }
            return stats;
        };
    }

    /**
     * From the summary: per slot, the selected pairs' joint count, first and last occurrence;
     * the points inside a slot evenly spaced between those two.
     */
    private static IntervalStats summaryIntervals(SlotProfile p, boolean[] selected) {
        IntervalStats stats = new IntervalStats();
        long t = p.slotNanos();
        for (int tl = 0; tl < p.timelines(); tl++) {
            long origin = p.timelineOrigin(tl);
            stats.startTimeline(p.timelineStart(tl));
            int firstSlot = p.firstSlot(tl);
            for (int s = firstSlot, end = p.firstSlot(tl + 1); s < end; s++) {
                long count = 0;
                int first = Integer.MAX_VALUE;
                int last = -1;
                for (int e = p.entryStart(s), ee = p.entryStart(s + 1); e < ee; e++) {
                    if (selected[p.entryPair(e)]) {
                        count += p.entryCount(e);
                        first = Math.min(first, p.entryFirst(e));
                        last = Math.max(last, p.entryLast(e));
                    }
                }
                if (count > 0) {
                    long slotStart = origin + (s - firstSlot) * t;
                    stats.points(slotStart + first, slotStart + last, count);
                }
            }
            stats.endTimeline(p.timelineEnd(tl));
        }
        return stats;
    }

    /**
     * The report for PC_gen = {@code chosen} (candidate ids, in report order): shared by generate
     * and evaluate so that a baseline is measured exactly like a generated set.
     */
    private GenerationReport report(Index ix, int[] chosen, int coveragePointcuts, long started, Intervals exact) {
        SlotProfile profile = ix.profile;
        boolean[] selected = new boolean[ix.candidates];
        for (int c : chosen) {
            selected[c] = true;
        }
        BitSet covered = new BitSet(ix.slots);
        for (int s = 0; s < ix.slots; s++) {
            for (int e = profile.entryStart(s), ee = profile.entryStart(s + 1); e < ee; e++) {
                if (selected[profile.entryPair(e)]) {
                    covered.set(s);
                    break;
                }
            }
        }
        List<GenerationReport.GeneratedPointcut> pointcuts = new ArrayList<>(chosen.length);
        long selectedJoinPoints = 0;
        for (int c : chosen) {
            selectedJoinPoints += profile.occurrences(c);
            pointcuts.add(ix.pointcut(c));
        }
        IntervalStats stats = exact != null ? exact.of(selected) : summaryIntervals(profile, selected);
        long elapsed = System.nanoTime() - started;
        // reported in real time: profile time divided by the slowdown
        double slowdown = options.profileSlowdown();
        long intervals = stats.intervals();
        return new GenerationReport(options.interval().toNanos(), slowdown, options.maxOccurrence(),
                profile.joinPoints(), profile.timelines(), ix.slots, ix.candidates,
                ix.withinM, ix.excludedSync, ix.excludedInit, pointcuts, selectedJoinPoints, intervals,
                intervals == 0 ? Double.NaN : stats.mean() / slowdown,
                intervals == 0 ? Double.NaN : stats.stdDev() / slowdown, stats.longestGap() / slowdown,
                ix.slots - covered.cardinality(), ix.slots - ix.occupiedSlots, elapsed,
                options.synchronizedRegions().missingClasses(), coveragePointcuts, profile.requestSpans(),
                profile.timelinesOutsideRequests(), profile.joinPointsOutsideRequests());
    }

    /** Eligibility of a candidate ({@link Index#status}). */
    private static final byte UNCHECKED = 0;
    private static final byte ELIGIBLE = 1;
    private static final byte INITIALIZER = 2;
    private static final byte SYNCHRONIZED = 3;

    /** Each candidate's distinct slots in increasing order, as CSR (empty for the unmarked). */
    private record Covers(int[] start, int[] slots) {
        int length(int c) {
            return start[c + 1] - start[c];
        }
    }

    /**
     * What generate, eligibleCandidates and evaluate all start from: the candidates (the summary's
     * pairs, ids in order of first join point), their join point counts, and eligibility.
     * Eligibility is checked eagerly for the candidates within m (generate's counts, in
     * generate's order) and lazily for the others, so that a class is only read, and reported
     * missing, when a candidate of its is actually asked about.
     */
    private static final class Index {
        final SlotProfile profile;
        final SynchronizedRegions regions;
        final int candidates;
        /** Join points per candidate, at most {@code Integer.MAX_VALUE} (m is an int). */
        final int[] occ;
        final int slots;
        /** Slots with at least one join point. */
        final int occupiedSlots;
        final byte[] status;
        int withinM;
        int excludedSync;
        int excludedInit;
        private LongIntMap pairs;
        private Map<String, Integer> signatureIds;

        Index(SlotProfile profile, Options options) {
            if (profile.slotNanos() != options.slotNanos()) {
                throw new IllegalArgumentException("the profile is summarized in slots of " + profile.slotNanos()
                        + " ns, but the options' target interval gives slots of " + options.slotNanos() + " ns");
            }
            this.profile = profile;
            this.regions = options.synchronizedRegions();
            this.candidates = profile.pairs();
            this.slots = profile.slots();
            int m = options.maxOccurrence();
            occ = new int[candidates];
            for (int c = 0; c < candidates; c++) {
                occ[c] = (int) Math.min(Integer.MAX_VALUE, profile.occurrences(c));
            }
            int occupied = 0;
            for (int s = 0; s < slots; s++) {
                if (profile.entryStart(s) < profile.entryStart(s + 1)) {
                    occupied++;
                }
            }
            occupiedSlots = occupied;

            // Eligibility of the candidates within m, counted as generate reports it.
            status = new byte[candidates];
            for (int c = 0; c < candidates; c++) {
                if (profile.occurrences(c) > m) {
                    continue;
                }
                withinM++;
                byte s = status(c);
                if (s == INITIALIZER) {
                    excludedInit++;
                } else if (s == SYNCHRONIZED) {
                    excludedSync++;
                }
            }
        }

        /** Expressible (no constructor or initializer) and not inside a held monitor; checked once. */
        byte status(int c) {
            byte s = status[c];
            if (s == UNCHECKED) {
                String caller = profile.caller(c);
                String callee = profile.callee(c);
                if (Signatures.isInitializer(caller) || Signatures.isInitializer(callee)) {
                    s = INITIALIZER;
                } else if (regions.holdsMonitor(caller, callee)) {
                    s = SYNCHRONIZED;
                } else {
                    s = ELIGIBLE;
                }
                status[c] = s;
            }
            return s;
        }

        /** The candidate of a (caller, callee) pair of signatures, or -1. */
        int find(String caller, String callee) {
            if (signatureIds == null) {
                signatureIds = new HashMap<>();
                pairs = new LongIntMap(candidates);
                for (int c = 0; c < candidates; c++) {
                    int a = signatureIds.computeIfAbsent(profile.caller(c), k -> signatureIds.size());
                    int b = signatureIds.computeIfAbsent(profile.callee(c), k -> signatureIds.size());
                    pairs.put(LongIntMap.key(a, b), c);
                }
            }
            Integer a = signatureIds.get(caller);
            Integer b = signatureIds.get(callee);
            return a == null || b == null ? -1 : pairs.get(LongIntMap.key(a, b));
        }

        /** The covers of the marked candidates: one pass over the summary, slots in order. */
        Covers covers(boolean[] marked) {
            int[] start = new int[candidates + 1];
            int entries = profile.entries();
            for (int e = 0; e < entries; e++) {
                int c = profile.entryPair(e);
                if (marked[c]) {
                    start[c + 1]++;
                }
            }
            for (int c = 0; c < candidates; c++) {
                start[c + 1] += start[c];
            }
            int[] coverSlots = new int[start[candidates]];
            int[] fill = Arrays.copyOf(start, candidates);
            for (int s = 0; s < slots; s++) {
                for (int e = profile.entryStart(s), ee = profile.entryStart(s + 1); e < ee; e++) {
                    int c = profile.entryPair(e);
                    if (marked[c]) {
                        coverSlots[fill[c]++] = s;
                    }
                }
            }
            return new Covers(start, coverSlots);
        }

        /** A candidate as reported: its join points and the slots it covers (one entry per slot). */
        GenerationReport.GeneratedPointcut pointcut(int c) {
            return new GenerationReport.GeneratedPointcut(profile.caller(c), profile.callee(c),
                    profile.occurrences(c), slotsCovered()[c]);
        }

        private int[] slotsCovered;

        private int[] slotsCovered() {
            if (slotsCovered == null) {
                slotsCovered = new int[candidates];
                for (int e = 0, n = profile.entries(); e < n; e++) {
                    slotsCovered[profile.entryPair(e)]++;
                }
            }
            return slotsCovered;
        }
    }

    private static int[] sortByOccurrence(boolean[] eligible, int[] occ, int candidates, int m) {
        // buckets up to the largest occurrence found, not up to m, which may be as large as an int
        int max = 0;
        for (int c = 0; c < candidates; c++) {
            if (eligible[c]) {
                max = Math.max(max, Math.min(occ[c], m));
            }
        }
        int[] bucket = new int[max + 2];
        int count = 0;
        for (int c = 0; c < candidates; c++) {
            if (eligible[c]) {
                bucket[occ[c] + 1]++;
                count++;
            }
        }
        for (int i = 1; i < bucket.length; i++) {
            bucket[i] += bucket[i - 1];
        }
        int[] out = new int[count];
        for (int c = 0; c < candidates; c++) {
            if (eligible[c]) {
                out[bucket[occ[c]]++] = c;
            }
        }
        return out;
    }

    /** The greedy loop of Fig. 3 over the indexes built above. */
    private static final class Greedy {
        private final SlotProfile profile;
        private final int[] occ;
        private final int[] coverStart;
        private final int[] coverSlots;
        private final int[] coverLen;
        private final int[] slotStart;
        private final int[] slotCands;
        private final int slots;

        /** |cover(c) ∩ SLOT|. */
        private final int[] gain;
        /** SLOT. */
        private final BitSet uncovered;
        /** Uncovered slots that still have candidates of the current or a later class. */
        private final BitSet active;
        /** Per slot, the first candidate in slotCands not yet passed by the class loop. */
        private final int[] ptr;

        /** PC_gen in the order of choice; {@code inGen} says which are still members. */
        private int[] chosen = new int[64];
        private int chosenCount;
        private final boolean[] inGen;
        private int genSize;

        /** Per slot, a linked list of the chosen candidates covering it (removed ones skipped lazily). */
        private final int[] genHead;
        private int[] genNext = new int[256];
        private int[] genVal = new int[256];
        private int genNodes;

        /** Scratch for the subset test: {@code hit[p]} is valid when {@code stamp[p] == epoch}. */
        private final int[] hit;
        private final int[] stamp;
        private int epoch;
        private int[] subsets = new int[16];
        private int subsetCount;
        private long subsetJoinPoints;

        Greedy(SlotProfile profile, int[] occ, Covers covers, int[] slotStart, int[] slotCands, int slots) {
            this.profile = profile;
            this.occ = occ;
            this.coverStart = covers.start();
            this.coverSlots = covers.slots();
            int candidates = occ.length;
            this.coverLen = new int[candidates];
            for (int c = 0; c < candidates; c++) {
                coverLen[c] = covers.length(c);
            }
            this.slotStart = slotStart;
            this.slotCands = slotCands;
            this.slots = slots;
            this.gain = Arrays.copyOf(coverLen, candidates);
            this.uncovered = new BitSet(slots);
            uncovered.set(0, slots);
            this.active = new BitSet(slots);
            for (int s = 0; s < slots; s++) {
                if (slotStart[s] < slotStart[s + 1]) {
                    active.set(s);
                }
            }
            this.ptr = Arrays.copyOf(slotStart, slots);
            this.inGen = new boolean[candidates];
            this.genHead = new int[slots];
            Arrays.fill(genHead, -1);
            this.hit = new int[candidates];
            this.stamp = new int[candidates];
        }

        void run(int m) {
            int[] ties = new int[16];
            // a slot leaves "active" once i passes every candidate in it, so the loop ends at the
            // largest occurrence found, however large m is
            for (int i = 1; i <= m && !active.isEmpty(); i++) {
                for (int j = active.nextSetBit(0); j >= 0; j = active.nextSetBit(j + 1)) {
                    int p = ptr[j];
                    int end = slotStart[j + 1];
                    while (p < end && occ[slotCands[p]] < i) {
                        p++;
                    }
                    ptr[j] = p;
                    if (p == end) {
                        active.clear(j);
                        continue;
                    }
                    int bestGain = 0;
                    int nTies = 0;
                    for (int x = p; x < end && occ[slotCands[x]] == i; x++) {
                        int c = slotCands[x];
                        int gc = gain[c];
                        if (gc > bestGain) {
                            bestGain = gc;
                            nTies = 0;
                        }
                        if (gc == bestGain) {
                            if (nTies == ties.length) {
                                ties = Arrays.copyOf(ties, nTies * 2);
                            }
                            ties[nTies++] = c;
                        }
                    }
                    if (nTies == 0) {
                        continue;
                    }
                    int best = nTies == 1 ? ties[0] : eval(ties, nTies);
                    choose(best);
                }
            }
        }

        /** The tie-break documented on the class: most join points dropped, most pointcuts dropped, text. */
        private int eval(int[] ties, int nTies) {
            int best = -1;
            long bestJp = -1;
            int bestCount = -1;
            String bestText = null;
            for (int x = 0; x < nTies; x++) {
                int c = ties[x];
                findSubsets(c);
                long jp = subsetJoinPoints;
                int count = subsetCount;
                int cmp;
                if (best < 0) {
                    cmp = -1;
                } else if (jp != bestJp) {
                    cmp = jp > bestJp ? -1 : 1;
                } else if (count != bestCount) {
                    cmp = count > bestCount ? -1 : 1;
                } else {
                    if (bestText == null) {
                        bestText = text(best);
                    }
                    String tc = text(c);
                    cmp = tc.compareTo(bestText);
                    if (cmp < 0) {
                        best = c;
                        bestText = tc;
                    }
                    continue;
                }
                if (cmp < 0) {
                    best = c;
                    bestJp = jp;
                    bestCount = count;
                    bestText = null;
                }
            }
            return best;
        }

        private String text(int c) {
            return GenerationReport.pointcutText(profile.caller(c), profile.callee(c));
        }

        /** Sets {@code subsets} to the members of PC_gen whose cover is a subset of cover(c). */
        private void findSubsets(int c) {
            epoch++;
            subsetCount = 0;
            subsetJoinPoints = 0;
            for (int x = coverStart[c], e = x + coverLen[c]; x < e; x++) {
                for (int node = genHead[coverSlots[x]]; node >= 0; node = genNext[node]) {
                    int p = genVal[node];
                    if (!inGen[p]) {
                        continue;
                    }
                    if (stamp[p] != epoch) {
                        stamp[p] = epoch;
                        hit[p] = 0;
                    }
                    if (++hit[p] == coverLen[p]) {
                        if (subsetCount == subsets.length) {
                            subsets = Arrays.copyOf(subsets, subsetCount * 2);
                        }
                        subsets[subsetCount++] = p;
                        subsetJoinPoints += occ[p];
                    }
                }
            }
        }

        private void choose(int best) {
            findSubsets(best);
            for (int x = 0; x < subsetCount; x++) {
                inGen[subsets[x]] = false;
                genSize--;
            }
            inGen[best] = true;
            genSize++;
            if (chosenCount == chosen.length) {
                chosen = Arrays.copyOf(chosen, chosenCount * 2);
            }
            chosen[chosenCount++] = best;
            for (int x = coverStart[best], e = x + coverLen[best]; x < e; x++) {
                int s = coverSlots[x];
                if (genNodes == genVal.length) {
                    genVal = Arrays.copyOf(genVal, genNodes * 2);
                    genNext = Arrays.copyOf(genNext, genNodes * 2);
                }
                genVal[genNodes] = best;
                genNext[genNodes] = genHead[s];
                genHead[s] = genNodes++;
                if (uncovered.get(s)) {
                    uncovered.clear(s);
                    active.clear(s);
                    for (int y = slotStart[s], ye = slotStart[s + 1]; y < ye; y++) {
                        gain[slotCands[y]]--;
                    }
                }
            }
        }

        int[] chosenInOrder() {
            int[] out = new int[genSize];
            int k = 0;
            for (int x = 0; x < chosenCount; x++) {
                if (inGen[chosen[x]]) {
                    out[k++] = chosen[x];
                }
            }
            return out;
        }

        int uncovered() {
            return uncovered.cardinality();
        }
    }
}
