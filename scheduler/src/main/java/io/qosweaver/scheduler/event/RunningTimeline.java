package io.qosweaver.scheduler.event;

import io.qosweaver.scheduler.stats.Timeline;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The ring behind {@link Timeline}: preallocated arrays written under the controller lock on
 * every member or parked change of an observed class (enter, exit, park, resume; never the
 * control point's fast path), copied on read. A full ring overwrites its oldest events; a reader
 * that asks for them learns how many it missed.
 */
public final class RunningTimeline {
    public static final int DEFAULT_CAPACITY = Integer.getInteger("qosweaver.timelineCapacity", 1 << 16);

    private final long[] nanos;
    private final int[] classIndex;
    private final int[] members;
    private final int[] parked;
    private long next;

    public RunningTimeline(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("timeline capacity " + capacity + " < 1");
        }
        nanos = new long[capacity];
        classIndex = new int[capacity];
        members = new int[capacity];
        parked = new int[capacity];
    }

    public void record(long tickerNanos, int cls, int memberCount, int parkedCount) {
        int i = (int) (next % nanos.length);
        nanos[i] = tickerNanos;
        classIndex[i] = cls;
        members[i] = memberCount;
        parked[i] = parkedCount;
        next++;
    }

    /**
     * Events from {@code since} on. Ticker nanos become wall-clock nanos through one anchor pair
     * taken at install, so that the whole timeline is monotonic.
     */
    public Timeline since(long since, IntFunction<String> className, long anchorTicker, long anchorEpochNanos) {
        long first = Math.max(0, next - nanos.length);
        long from = Math.max(since, first);
        long dropped = Math.max(0, first - Math.max(0, since));
        List<Timeline.Event> out = new ArrayList<>((int) Math.max(0, next - from));
        for (long s = from; s < next; s++) {
            int i = (int) (s % nanos.length);
            out.add(new Timeline.Event(s, anchorEpochNanos + (nanos[i] - anchorTicker),
                    className.apply(classIndex[i]), members[i], parked[i]));
        }
        return new Timeline(next, dropped, out);
    }
}
