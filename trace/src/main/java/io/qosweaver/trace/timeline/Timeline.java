package io.qosweaver.trace.timeline;

import io.qosweaver.trace.proto.Args;
import io.qosweaver.trace.proto.PerfettoWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Merges what the sources report into one trace in timestamp order. Sources report late and out
 * of order (JFR delivers its events about a second after they happened, the rings are drained
 * every few tens of milliseconds), so events wait here until {@link #flush} is given a watermark:
 * everything at or before it is sorted (by time, then arrival) and written. An event that arrives
 * behind what its track has already written is dropped and counted as late; so is one that finds
 * the pending list full. Tracks are described on first use: a thread's track carries its pid, tid
 * and best known name, and is written again when a better name arrives (the Java name and id
 * joined to the OS tid by JFR).
 *
 * <p>Thread-safe: sources on the tracer's threads call it under its lock; no application thread
 * ever does.
 */
public final class Timeline {
    private static final long THREAD_BASE = 1L << 40;
    private static final long LEVEL_BASE = 2L << 40;
    private static final long PROCESS_CHILD_BASE = 1L << 50;

    private final PerfettoWriter out;
    private final int pid;
    private final long processTrack;
    private final int maxPending;
    private final List<Ev> pending = new ArrayList<>();
    private long seq;
    private final Map<Long, Long> lastTs = new HashMap<>();
    private final Map<Long, Integer> depth = new HashMap<>();
    private final Set<Long> described = new HashSet<>();
    private final Map<Integer, String> names = new HashMap<>();
    private final Map<Integer, String> describedNames = new HashMap<>();
    private final Map<Long, long[]> childParents = new HashMap<>();
    private final Map<Long, String> childNames = new HashMap<>();
    private final Map<Long, Integer> counterUnits = new HashMap<>();
    private final Map<String, Long> processChildren = new HashMap<>();
    private long late;
    private long overflow;
    private long unmatchedEnds;
    private long written;
    private long flushedUpTo = Long.MIN_VALUE;
    private static final int LEVELS = Level.values().length;
    private Observer observer;

    /**
     * Sees every event the merge lets through, in the order written, so that whatever is computed
     * from it (the statistics view) agrees with the trace file. Called on the writing thread, under
     * the timeline's lock; events the size cap keeps out of the file are still seen.
     */
    public interface Observer {
        /** {@code type} is one of {@link PerfettoWriter}'s {@code TYPE_*}; name and args are null on an end. */
        void event(long ts, int type, long track, String name, Args args);
    }

    /** Sets the one observer (null: none). */
    public synchronized void observe(Observer o) {
        this.observer = o;
    }

    public Timeline(PerfettoWriter out, int pid, String processName, String cmdline, long startMonotonic,
            long startRealtimeNanos, int maxPending) throws IOException {
        this.out = out;
        this.pid = pid;
        this.processTrack = pid;
        this.maxPending = maxPending;
        out.clockSnapshot(startMonotonic, startRealtimeNanos);
        out.processTrack(processTrack, pid, processName, cmdline);
        described.add(processTrack);
    }

    public long processTrack() {
        return processTrack;
    }

    public static long threadTrack(int tid) {
        return THREAD_BASE | tid;
    }

    /** The thread's own track for {@link Level#APP}, a child track of it for every other level. */
    public static long levelTrack(int tid, Level level) {
        return level == Level.APP ? threadTrack(tid) : LEVEL_BASE + ((long) level.ordinal() << 32) + tid;
    }

    /** The thread of a thread or level track (its "(long)" lane included), or -1 for a process track. */
    public static int tidOf(long track) {
        if (track >= PROCESS_CHILD_BASE || track < THREAD_BASE) {
            return -1;
        }
        return track >= LEVEL_BASE ? (int) ((track - LEVEL_BASE) & 0xFFFFFFFFL) : (int) (track - THREAD_BASE);
    }

    /** The level of a thread or level track (its "(long)" lane included), or null for a process track. */
    public static Level levelOf(long track) {
        if (track >= PROCESS_CHILD_BASE || track < THREAD_BASE) {
            return null;
        }
        return track >= LEVEL_BASE ? Level.values()[(int) ((track - LEVEL_BASE) >>> 32) % LEVELS] : Level.APP;
    }

    /** A process-wide slice track (GC pauses) or, with a unit, a counter track; the same name gives the same track. */
    public synchronized long processChild(String name, int counterUnit) {
        Long t = processChildren.get(name);
        if (t == null) {
            t = PROCESS_CHILD_BASE + processChildren.size();
            processChildren.put(name, t);
            childNames.put(t, name);
            childParents.put(t, new long[] {processTrack});
            if (counterUnit > 0) {
                counterUnits.put(t, counterUnit);
            }
        }
        return t;
    }

    /** A thread's Java name: its track shows it from then on. */
    public synchronized void nameThread(int tid, String name) {
        if (tid > 0 && name != null) {
            names.put(tid, name);
        }
    }

    /** The kernel's (15-character) name, kept only until a Java name arrives. */
    public synchronized void nameThreadIfUnnamed(int tid, String name) {
        if (tid > 0 && name != null) {
            names.putIfAbsent(tid, name);
        }
    }

    /** Every thread's best known name, by tid (a copy). */
    public synchronized Map<Integer, String> threadNames() {
        return new HashMap<>(names);
    }

    /** The name the thread's track has, or null. */
    public synchronized String threadName(int tid) {
        return names.get(tid);
    }

    private void add(long ts, int type, long track, String name, String category, Args args, long value, double dv,
            boolean isDouble) {
        if (pending.size() >= maxPending) {
            overflow++;
            return;
        }
        pending.add(new Ev(ts, seq++, type, track, name, category, args, value, dv, isDouble));
    }

    public synchronized void begin(long ts, long track, String name, String category, Args args) {
        add(ts, PerfettoWriter.TYPE_SLICE_BEGIN, track, name, category, args, 0, 0, false);
    }

    public synchronized void end(long ts, long track) {
        add(ts, PerfettoWriter.TYPE_SLICE_END, track, null, null, null, 0, 0, false);
    }

    /**
     * A slice whose both ends are known (JFR's duration events, reported when they end); empty ones
     * become instants. One that began before what is already written (a park or wait longer than
     * the lag) goes, whole, on the thread's "(long)" lane of its level, a track of its own, so that
     * it is neither lost nor out of order.
     */
    public synchronized void slice(long start, long end, long track, String name, String category, Args args) {
        if (start <= flushedUpTo && track >= LEVEL_BASE && track < PROCESS_CHILD_BASE) {
            track += (long) LEVELS << 32;
        }
        if (end <= start) {
            add(start, PerfettoWriter.TYPE_INSTANT, track, name, category, args, 0, 0, false);
            return;
        }
        add(start, PerfettoWriter.TYPE_SLICE_BEGIN, track, name, category, args, 0, 0, false);
        add(end, PerfettoWriter.TYPE_SLICE_END, track, null, null, null, 0, 0, false);
    }

    public synchronized void instant(long ts, long track, String name, String category, Args args) {
        add(ts, PerfettoWriter.TYPE_INSTANT, track, name, category, args, 0, 0, false);
    }

    public synchronized void counter(long ts, long track, long value) {
        add(ts, PerfettoWriter.TYPE_COUNTER, track, null, null, null, value, 0, false);
    }

    public synchronized void counter(long ts, long track, double value) {
        add(ts, PerfettoWriter.TYPE_COUNTER, track, null, null, null, 0, value, true);
    }

    private static final Comparator<Ev> ORDER = Comparator.<Ev>comparingLong(e -> e.ts).thenComparingLong(e -> e.seq);

    /** Writes every pending event at or before {@code watermark}, in timestamp order. */
    public synchronized void flush(long watermark) throws IOException {
        if (pending.isEmpty()) {
            return;
        }
        pending.sort(ORDER);
        int n = 0;
        while (n < pending.size() && pending.get(n).ts <= watermark) {
            write(pending.get(n));
            n++;
        }
        pending.subList(0, n).clear();
        flushedUpTo = Math.max(flushedUpTo, watermark);
        out.flush();
    }

    private void write(Ev e) throws IOException {
        Long prev = lastTs.get(e.track);
        if (prev != null && e.ts < prev) {
            late++;
            return;
        }
        int d = depth.getOrDefault(e.track, 0);
        if (e.type == PerfettoWriter.TYPE_SLICE_END) {
            if (d == 0) {
                unmatchedEnds++; // its begin was late or lost
                return;
            }
            depth.put(e.track, d - 1);
        } else if (e.type == PerfettoWriter.TYPE_SLICE_BEGIN) {
            depth.put(e.track, d + 1);
        }
        describe(e.track);
        if (observer != null) {
            observer.event(e.ts, e.type, e.track, e.name, e.args);
        }
        boolean ok;
        if (e.type == PerfettoWriter.TYPE_COUNTER) {
            ok = e.isDouble ? out.counter(e.ts, e.track, e.doubleValue) : out.counter(e.ts, e.track, e.value);
        } else {
            ok = out.event(e.ts, e.track, e.type, e.name, e.category, e.args);
        }
        if (ok) {
            lastTs.put(e.track, e.ts);
            written++;
        }
    }

    private void describe(long track) throws IOException {
        if (track >= PROCESS_CHILD_BASE) {
            if (described.add(track)) {
                Integer unit = counterUnits.get(track);
                if (unit != null) {
                    out.counterTrack(track, processTrack, childNames.get(track), null, unit);
                } else {
                    out.childTrack(track, processTrack, childNames.get(track));
                }
            }
            return;
        }
        int tid;
        Level level = null;
        boolean longLane = false;
        if (track >= LEVEL_BASE) {
            long rel = track - LEVEL_BASE;
            int index = (int) (rel >>> 32);
            longLane = index >= LEVELS;
            level = Level.values()[index % LEVELS];
            tid = (int) (rel & 0xFFFFFFFFL);
        } else if (track >= THREAD_BASE) {
            tid = (int) (track - THREAD_BASE);
        } else {
            return; // the process track
        }
        long thread = threadTrack(tid);
        String name = names.get(tid);
        if (!described.contains(thread) || (name != null && !name.equals(describedNames.get(tid)))) {
            out.threadTrack(thread, processTrack, pid, tid, name);
            described.add(thread);
            if (name != null) {
                describedNames.put(tid, name);
            }
        }
        if (level != null && described.add(track)) {
            out.childTrack(track, thread, longLane ? level.trackName() + " (long)" : level.trackName());
        }
    }

    /** Events dropped because they arrived behind their track's written time. */
    public synchronized long late() {
        return late;
    }

    /** Events dropped because the pending list was full. */
    public synchronized long overflow() {
        return overflow;
    }

    /** Slice ends dropped because their begin was late or lost. */
    public synchronized long unmatchedEnds() {
        return unmatchedEnds;
    }

    public synchronized long written() {
        return written;
    }

    public synchronized int pending() {
        return pending.size();
    }

    /** The most events that may wait for the merge; past it they are dropped and counted ({@link #overflow}). */
    public int maxPending() {
        return maxPending;
    }

    /** Closing statistics that may use the writer's reserve. */
    public synchronized void closingInstant(long ts, String name, Args args) throws IOException {
        out.forceNext();
        if (out.event(Math.max(ts, lastTs.getOrDefault(processTrack, ts)), processTrack, PerfettoWriter.TYPE_INSTANT,
                name, "trace", args)) {
            lastTs.put(processTrack, ts);
        }
    }

    public PerfettoWriter writer() {
        return out;
    }
}
