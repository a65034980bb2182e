package io.qosweaver.trace.stats;

import io.qosweaver.trace.proto.Args;
import io.qosweaver.trace.proto.PerfettoWriter;
import io.qosweaver.trace.timeline.Level;
import io.qosweaver.trace.timeline.Timeline;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the slices the timeline writes into per-thread state intervals, one state at a time per
 * track: a slice nested in another (a suspension inside a task-class scope) interrupts its parent,
 * which resumes when it ends, so that a level's intervals never overlap and sum to the time spent.
 *
 * <p>States: the OS level's slice names (Running, Runnable (waiting for CPU), Sleeping, Blocked
 * (I/O), ...), the JVM level's (monitor enter, monitor wait, park), the scheduler's {@value #IN_CLASS}
 * (a task-class scope) and {@value #SUSPENDED}, the application's {@value #REQUEST}; scheduler and
 * application intervals carry their task class; the server level's slice names on a thread's
 * {@code server} track (parsing, service) and the user events' names. The server level's
 * per-connection lanes (connection, TLS handshake, keep-alive idle) are not a thread's: the
 * closing statistics carry their totals.
 *
 * <p>A thread's traced time runs from its first slice's begin to its last slice's end (for a thread
 * the OS level samples, its life in the trace); instants do not count.
 *
 * <p>Bounded: at most {@code maxIntervals} intervals are kept for the page's range selection; past
 * that, intervals are only summed (the whole trace's totals stay exact) and the page says from when
 * its intervals are missing and how many. Runs on the timeline's writing thread, under its lock.
 */
public final class StateIntervals implements Timeline.Observer {
    public static final String IN_CLASS = "in task class";
    public static final String SUSPENDED = "suspended";
    public static final String REQUEST = "request";

    private final int maxIntervals;
    private final Map<String, Integer> states = new LinkedHashMap<>();
    private final Map<String, Integer> classes = new LinkedHashMap<>();
    private final Map<Integer, PerThread> threads = new LinkedHashMap<>();
    private final Map<Long, Open> open = new HashMap<>();
    private int kept;
    private long dropped;
    private long droppedFrom = Long.MAX_VALUE;

    /** One thread's intervals (parallel arrays) and exact totals. */
    static final class PerThread {
        final int tid;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        int n;
        long[] start = new long[64];
        long[] end = new long[64];
        int[] state = new int[64];
        int[] cls = new int[64];
        /** Nanoseconds by state (high 32 bits) and class + 1 (low 32 bits). */
        final Map<Long, long[]> totals = new LinkedHashMap<>();

        PerThread(int tid) {
            this.tid = tid;
        }

        void add(long s, long e, int st, int c) {
            if (n == start.length) {
                start = Arrays.copyOf(start, n * 2);
                end = Arrays.copyOf(end, n * 2);
                state = Arrays.copyOf(state, n * 2);
                cls = Arrays.copyOf(cls, n * 2);
            }
            start[n] = s;
            end[n] = e;
            state[n] = st;
            cls[n] = c;
            n++;
        }
    }

    /** The open slices of one track: state, class and when the innermost one's current interval began. */
    private static final class Open {
        int depth;
        int[] state = new int[4];
        int[] cls = new int[4];
        long since;

        void push(int s, int c) {
            if (depth == state.length) {
                state = Arrays.copyOf(state, depth * 2);
                cls = Arrays.copyOf(cls, depth * 2);
            }
            state[depth] = s;
            cls[depth] = c;
            depth++;
        }
    }

    public StateIntervals(int maxIntervals) {
        if (maxIntervals < 0) {
            throw new IllegalArgumentException("maxIntervals " + maxIntervals);
        }
        this.maxIntervals = maxIntervals;
    }

    @Override
    public void event(long ts, int type, long track, String name, Args args) {
        int tid = Timeline.tidOf(track);
        if (tid <= 0) {
            return;
        }
        if (type != PerfettoWriter.TYPE_SLICE_BEGIN && type != PerfettoWriter.TYPE_SLICE_END) {
            return; // instants: the JVM's join instant is stamped when JFR delivers it, not when it happened
        }
        PerThread t = threads.computeIfAbsent(tid, PerThread::new);
        t.first = Math.min(t.first, ts);
        t.last = Math.max(t.last, ts);
        if (type == PerfettoWriter.TYPE_SLICE_BEGIN) {
            Level level = Timeline.levelOf(track);
            Open o = open.computeIfAbsent(track, k -> new Open());
            if (o.depth > 0) {
                interval(t, o.since, ts, o.state[o.depth - 1], o.cls[o.depth - 1]);
            }
            o.push(state(level, name), classOf(level, name, args));
            o.since = ts;
        } else if (type == PerfettoWriter.TYPE_SLICE_END) {
            Open o = open.get(track);
            if (o == null || o.depth == 0) {
                return; // the timeline drops unmatched ends before they reach here
            }
            o.depth--;
            interval(t, o.since, ts, o.state[o.depth], o.cls[o.depth]);
            o.since = ts;
        }
    }

    /** Ends every slice still open at {@code ts} (the trace's end). */
    public void finish(long ts) {
        for (Map.Entry<Long, Open> e : open.entrySet()) {
            Open o = e.getValue();
            PerThread t = threads.get(Timeline.tidOf(e.getKey()));
            if (o.depth > 0) {
                t.last = Math.max(t.last, ts);
            }
            while (o.depth > 0) {
                o.depth--;
                interval(t, o.since, Math.max(ts, o.since), o.state[o.depth], o.cls[o.depth]);
                o.since = ts;
            }
        }
        open.clear();
    }

    private int state(Level level, String name) {
        String s;
        if (level == Level.SCHEDULER) {
            s = SUSPENDED.equals(name) ? SUSPENDED : IN_CLASS;
        } else if (level == Level.APP) {
            s = REQUEST;
        } else {
            s = name == null ? "?" : name;
        }
        String key = level.ordinal() + ":" + s;
        Integer i = states.get(key);
        if (i == null) {
            i = states.size();
            states.put(key, i);
        }
        return i;
    }

    private int classOf(Level level, String name, Args args) {
        String c = null;
        if (level == Level.APP || (level == Level.SCHEDULER && !SUSPENDED.equals(name))) {
            c = name;
        } else if (level == Level.SCHEDULER && args != null) {
            for (int i = 0; i < args.size(); i++) {
                if ("taskClass".equals(args.name(i))) {
                    c = args.string(i);
                }
            }
        }
        if (c == null) {
            return -1;
        }
        return classes.computeIfAbsent(c, k -> classes.size());
    }

    private void interval(PerThread t, long s, long e, int state, int cls) {
        if (e <= s) {
            return;
        }
        t.totals.computeIfAbsent(((long) state << 32) | (cls + 1), k -> new long[1])[0] += e - s;
        if (kept < maxIntervals) {
            t.add(s, e, state, cls);
            kept++;
        } else {
            dropped++;
            droppedFrom = Math.min(droppedFrom, s);
        }
    }

    /** The states seen, as {@code "LEVEL_ORDINAL:name"}, in the order of their index. */
    List<String> states() {
        return new ArrayList<>(states.keySet());
    }

    List<String> classes() {
        return new ArrayList<>(classes.keySet());
    }

    Iterable<PerThread> threads() {
        return threads.values();
    }

    /** Intervals kept for the page. */
    public int kept() {
        return kept;
    }

    /** Intervals left out of the page (summed only) because the cap was reached. */
    public long dropped() {
        return dropped;
    }

    /** The start of the earliest interval left out, or {@link Long#MAX_VALUE}. */
    long droppedFrom() {
        return droppedFrom;
    }

    int maxIntervals() {
        return maxIntervals;
    }

    /**
     * Exact time of one thread in one state, over the whole trace (for tests and the page's totals).
     *
     * @param level the level
     * @param state the state's name (for the scheduler, {@link #IN_CLASS} or {@link #SUSPENDED})
     */
    public long totalNanos(int tid, Level level, String state) {
        PerThread t = threads.get(tid);
        Integer s = states.get(level.ordinal() + ":" + state);
        if (t == null || s == null) {
            return 0;
        }
        long sum = 0;
        for (Map.Entry<Long, long[]> e : t.totals.entrySet()) {
            if ((int) (e.getKey() >>> 32) == s) {
                sum += e.getValue()[0];
            }
        }
        return sum;
    }
}
