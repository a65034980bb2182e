package io.qosweaver.scheduler.stats;

import java.util.List;
import java.util.Locale;

/**
 * A slice of the scheduler's running-threads timeline: for every observed task class, one event
 * each time its member or parked count changed (the paper's Fig. 16 at event resolution, rather
 * than a gauge sampled once a second).
 *
 * @param nextSeq the sequence number the next event will get; ask for {@code since = nextSeq} to
 *                continue where this slice ends
 * @param dropped events older than the ring's capacity that were asked for but are gone
 * @param events  in order of sequence number
 */
public record Timeline(long nextSeq, long dropped, List<Event> events) {

    public Timeline {
        events = List.copyOf(events);
    }

    /**
     * One change of a task class's counts.
     *
     * @param seq        gapless sequence number since install
     * @param epochNanos wall-clock time of the change, nanoseconds since the epoch (a monotonic
     *                   clock anchored once at install, so events are ordered and comparable with
     *                   the application's own wall-clock time stamps)
     * @param taskClass  the class's name
     * @param members    threads whose role is the class
     * @param parked     of those, how many are parked at a control point or at entry
     */
    public record Event(long seq, long epochNanos, String taskClass, int members, int parked) {
        /** Threads of the class that may run: members not parked. */
        public int running() {
            return Math.max(0, members - parked);
        }
    }

    /**
     * Plain text, one event per line after two comment lines:
     * {@code seq epoch_ms class members parked running}, {@code epoch_ms} with microsecond
     * decimals. Class names never contain white space (the policy file forbids it).
     */
    public String toText() {
        StringBuilder sb = new StringBuilder(64 + events.size() * 48);
        sb.append("# qosweaver timeline: seq epoch_ms class members parked running\n");
        sb.append("# next ").append(nextSeq).append(" dropped ").append(dropped).append('\n');
        for (Event e : events) {
            sb.append(e.seq()).append(' ')
                    .append(String.format(Locale.ROOT, "%d.%03d", e.epochNanos() / 1_000_000,
                            (e.epochNanos() % 1_000_000) / 1_000))
                    .append(' ').append(e.taskClass()).append(' ').append(e.members()).append(' ')
                    .append(e.parked()).append(' ').append(e.running()).append('\n');
        }
        return sb.toString();
    }
}
