package io.qosweaver.pointcuts;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Streams join points into the slot summaries of the {@link BinaryProfileFormat binary profile},
 * version 2: per thread and base slot, each (caller, callee) pair's count and first and last time.
 * What the agent's profiling mode writes by default. Memory: the signature and pair tables and,
 * per thread, the pairs of its current slot; the file grows with the profiled time and the distinct
 * pairs per slot, not with the join points.
 *
 * <p><b>Time base.</b> The probe before every call stretches a profiled run: with {@code
 * probeCostNanos = c}, the k-th join point of a thread (from 0) is recorded at its time stamp minus
 * {@code k * c}, which takes out the probes that ran before it on that thread, so the slots are
 * slots of the application's own time. A correction that would make a thread's time go backwards
 * (a cost estimate above the real one) is clamped to the previous time and counted (meta
 * {@code clampedJoinPoints}, and {@code clamped}, which the generator shows as a warning, when more
 * than {@link #CLAMPED_WARNING} of the join points were). The meta records {@code probeCostNanos}
 * and {@code timeBase} say what was taken out; with a cost of 0 they are the caller's to write
 * (the agent corrects the times itself before they get here).
 */
public final class SlotProfileWriter extends ProfileWriter {
    /** The default base slot: target intervals are multiples of it (1 ms, 10 ms, 100 ms ...). */
    public static final long DEFAULT_SLOT_NANOS = 1_000_000L;
    /** Offsets within a slot are ints: longer base slots could not be represented. */
    public static final long MAX_SLOT_NANOS = Integer.MAX_VALUE;
    /** Above this share of clamped join points the file says so as a warning. */
    public static final double CLAMPED_WARNING = 0.05;

    private final long slotNanos;
    private final long probeCostNanos;
    private final Map<Long, Timeline> timelines = new HashMap<>();
    private final List<Timeline> order = new ArrayList<>();
    private final LongIntMap pairs = new LongIntMap(1024);
    private int pairCount;
    private long clamped;
    // the agent writes a chunk of one thread at a time: skip the map (and its boxing) for it
    private long lastThreadId = Long.MIN_VALUE;
    private Timeline last;

    private final class Timeline implements SlotAccumulator.Sink {
        final int index;
        final SlotAccumulator slots = new SlotAccumulator();
        long start;
        long joinPoints;
        long lastTime = Long.MIN_VALUE;
        long lastSpanEnd = Long.MIN_VALUE;

        Timeline(int index) {
            this.index = index;
        }

        @Override
        public void slot(long slot, int entries, int[] pairIds, int[] counts, int[] first, int[] lastOffsets)
                throws IOException {
            ensure(1 + 5 + 10 + 5);
            putByte(BinaryProfileFormat.SLOT);
            putUnsigned(index);
            putUnsigned(slot);
            putUnsigned(entries);
            for (int e = 0; e < entries; e++) {
                ensure(20);
                putUnsigned(pairIds[e]);
                putUnsigned(counts[e]);
                putUnsigned(first[e]);
                putUnsigned(lastOffsets[e] - first[e]);
            }
        }
    }

    /**
     * @param slotNanos the base slot, 1 ns to {@link #MAX_SLOT_NANOS}
     * @param probeCostNanos the probe's cost per join point to take out of the time stamps (0: none)
     */
    public SlotProfileWriter(OutputStream out, Limits limits, long slotNanos, long probeCostNanos) throws IOException {
        super(out, limits, BinaryProfileFormat.VERSION_SLOTS);
        if (slotNanos < 1 || slotNanos > MAX_SLOT_NANOS) {
            throw new IllegalArgumentException("the base slot must be 1 ns to " + MAX_SLOT_NANOS + " ns, was " + slotNanos);
        }
        if (probeCostNanos < 0) {
            throw new IllegalArgumentException("the probe cost must not be negative, was " + probeCostNanos);
        }
        this.slotNanos = slotNanos;
        this.probeCostNanos = probeCostNanos;
        ensure(10);
        putUnsigned(slotNanos);
    }

    public static SlotProfileWriter open(Path file, Limits limits, long slotNanos, long probeCostNanos) throws IOException {
        return new SlotProfileWriter(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), limits, slotNanos,
                probeCostNanos);
    }

    public long slotNanos() {
        return slotNanos;
    }

    /** The warning for {@code n} clamped join points. */
    public static String clampedMessage(long n) {
        return n + " gaps between join points were shorter than the probe's cost taken out, and count as 0 (more than "
                + Math.round(CLAMPED_WARNING * 100) + " % of them: the probe's cost varies here more than its estimate, so"
                + " the intervals in this code are uncertain by about that cost per join point; qosweaver profile"
                + " --request checks the total against a run without the agent)";
    }

    /** Join points whose corrected time was clamped to keep their thread's time from going backwards. */
    public long clamped() {
        return clamped;
    }

    /**
     * A request span of a thread that has a timeline here ({@link BinaryProfileFormat}): times in
     * the file's time base (the caller's when {@code probeCostNanos} is 0), after the thread's
     * previous span. The caller also writes the meta record {@link BinaryProfileFormat#REQUEST_SPANS}.
     *
     * @return false when the thread has no join point here (its span would say nothing)
     */
    public boolean span(long threadId, long startNanos, long endNanos) throws IOException {
        if (endNanos < startNanos) {
            throw new IllegalArgumentException("a span ends (" + endNanos + ") before it starts (" + startNanos + ")");
        }
        Timeline t = timelines.get(threadId);
        if (t == null) {
            return false;
        }
        if (startNanos < t.lastSpanEnd) {
            throw new IllegalArgumentException("a span of thread " + threadId + " starts (" + startNanos
                    + ") before its previous one ends (" + t.lastSpanEnd + ")");
        }
        t.lastSpanEnd = endNanos;
        ensure(1 + 5 + 10 + 10);
        putByte(BinaryProfileFormat.SPAN);
        putUnsigned(t.index);
        putSigned(startNanos);
        putSigned(endNanos);
        return true;
    }

    @Override
    boolean record(long timeNanos, long threadId, int callerId, int calleeId) throws IOException {
        Timeline t = last;
        if (t == null || threadId != lastThreadId) {
            t = timelines.get(threadId);
            if (t == null) {
                if (threadLimit(timelines.size())) {
                    return false;
                }
                t = new Timeline(timelines.size());
                timelines.put(threadId, t);
                order.add(t);
                t.start = timeNanos;
                ensure(21);
                putByte(BinaryProfileFormat.TIMELINE);
                putSigned(threadId);
                putSigned(timeNanos);
            }
            last = t;
            lastThreadId = threadId;
        }
        long time = timeNanos - t.joinPoints * probeCostNanos;
        t.joinPoints++;
        if (time < t.lastTime) {
            time = t.lastTime;
            clamped++;
        }
        t.lastTime = time;
        long rel = time - t.start; // >= 0: the first join point is the start and times never go back
        long slot = rel / slotNanos;
        int offset = (int) (rel - slot * slotNanos);
        long key = LongIntMap.key(callerId, calleeId);
        int pair = pairs.get(key);
        if (pair < 0) {
            pair = pairCount++;
            pairs.put(key, pair);
            ensure(11);
            putByte(BinaryProfileFormat.PAIR);
            putUnsigned(callerId);
            putUnsigned(calleeId);
        }
        t.slots.add(slot, pair, 1, offset, offset, t);
        return true;
    }

    @Override
    void finish() throws IOException {
        for (Timeline t : order) {
            t.slots.flush(t);
        }
        if (probeCostNanos > 0) {
            meta(BinaryProfileFormat.PROBE_COST_NANOS, Long.toString(probeCostNanos));
            meta(BinaryProfileFormat.TIME_BASE, "real: " + probeCostNanos + " ns taken out per join point");
            meta("clampedJoinPoints", Long.toString(clamped));
            if (clamped > CLAMPED_WARNING * count) {
                meta("clamped", clampedMessage(clamped));
            }
        }
    }
}
