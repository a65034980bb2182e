package io.qosweaver.trace.jvm;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps one thread's JVM-level slices (monitor enter, monitor wait, park) from overlapping. A thread
 * is in at most one of these at a time, but two consecutive ones can overlap by a few microseconds
 * once converted to the trace's clock (the offset is re-estimated between them). Overlapping slices
 * on one track do not nest: the timeline would end the later one at the earlier one's end, and a
 * 1.2 s monitor enter would count as 3 µs. So a slice starts no earlier than the previous one on
 * its thread ended; one left empty by that is dropped and counted.
 *
 * <p>Relies on JFR's ordered delivery (events sorted by end time, the {@code RecordingStream}
 * default). Not thread-safe: the JFR stream's thread is the only caller.
 */
final class SequentialSlices {
    static final long DROP = Long.MIN_VALUE;

    private final Map<Integer, Long> lastEnd = new HashMap<>();
    private long trimmed;
    private long dropped;

    /** The start to use for a slice {@code [start, end]} on thread {@code tid}, or {@link #DROP}. */
    long start(int tid, long start, long end) {
        Long prev = lastEnd.get(tid);
        if (prev != null && start < prev) {
            if (end <= prev) {
                dropped++;
                return DROP;
            }
            trimmed++;
            start = prev;
        }
        lastEnd.put(tid, end);
        return start;
    }

    /** Slices whose start was moved to the end of the one before. */
    long trimmed() {
        return trimmed;
    }

    /** Slices that lay wholly inside the one before on their thread. */
    long dropped() {
        return dropped;
    }

    /**
     * Forgets threads whose last slice ended before {@code ts}, so that a server whose pool replaces
     * its threads does not grow this map. What it gives up: a slice beginning before such an old
     * end (one that would overlap by microseconds a slice ended long ago) is no longer trimmed.
     */
    void forgetEndedBefore(long ts) {
        lastEnd.values().removeIf(end -> end < ts);
    }

    int size() {
        return lastEnd.size();
    }
}
