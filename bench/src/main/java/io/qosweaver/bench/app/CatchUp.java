package io.qosweaver.bench.app;

import io.qosweaver.bench.stats.Format;
import java.util.List;

/**
 * Whether the river monitor's collector is on its fixed-rate schedule, and when to stop waiting
 * for it to get there. Why: a cold JVM's first collections take several periods each (the JIT
 * compiles the collector's code while it runs), and the timer then runs the collections it owes
 * back to back until it has caught up. A window that begins during that catch-up measures more
 * collections than the period asks for, and a version that holds the charts back while the
 * collector runs pays for it in chart throughput and tail: the warm-up's debt, not the version's
 * steady state. So the window begins once the collector is on schedule, or once it is plainly not
 * catching up (its lateness stopped falling), or at a bound.
 *
 * <p>Pure: the runner polls {@code /status/collections} and feeds every answer to {@link #update}.
 */
public final class CatchUp {
    /** How the note on a window that began with the collector behind its schedule starts. */
    public static final String BEHIND_AT_WINDOW_START = "catch-up: the collector was still";
    /** On schedule: the latest collection started less than this fraction of a period after its slot. */
    static final double ON_SCHEDULE_FRACTION = 0.25;
    /** Give up when the lateness has not fallen for this long: the backlog is not draining. */
    static final long NO_PROGRESS_MS = 15_000;
    /** Never wait longer than this. */
    static final long MAX_WAIT_MS = 120_000;

    enum State { ON_SCHEDULE, CATCHING_UP, NOT_CATCHING_UP, TIMED_OUT, NOT_REPORTED }

    private final long periodMs;
    private final long startedMs;
    private long bestLateMs = Long.MAX_VALUE;
    private long bestAtMs;
    private Long firstLateMs;
    private Long lastLateMs;

    /** @param startedMs when the wait began (epoch ms) */
    CatchUp(long periodMs, long startedMs) {
        this.periodMs = periodMs;
        this.startedMs = startedMs;
        this.bestAtMs = startedMs;
    }

    /** What the latest answer (the collections the app still lists) says, at {@code nowMs}. */
    State update(List<CollectionRecord> all, long nowMs) {
        CollectionRecord latest = null;
        for (CollectionRecord r : all) {
            if (latest == null || r.startMs() > latest.startMs()) {
                latest = r;
            }
        }
        if (latest != null && latest.lateMs() == null) {
            return State.NOT_REPORTED; // an app that does not report its schedule: nothing to wait for
        }
        if (latest != null) {
            long late = latest.lateMs();
            if (firstLateMs == null) {
                firstLateMs = late;
            }
            lastLateMs = late;
            if (late < ON_SCHEDULE_FRACTION * periodMs) {
                return State.ON_SCHEDULE;
            }
            if (late < bestLateMs) {
                bestLateMs = late;
                bestAtMs = nowMs;
            }
        }
        if (nowMs - startedMs >= MAX_WAIT_MS) {
            return State.TIMED_OUT;
        }
        if (nowMs - bestAtMs >= NO_PROGRESS_MS) {
            return State.NOT_CATCHING_UP;
        }
        return State.CATCHING_UP;
    }

    /**
     * The window's note once the wait has ended in {@code state} at {@code nowMs}: null when there
     * was nothing to wait for (on schedule from the first look, or an app that does not report its
     * schedule); else how long it waited and from how far behind, or, when the window begins behind,
     * a line starting with {@link #BEHIND_AT_WINDOW_START}.
     */
    String note(State state, long nowMs) {
        String waited = Format.number((nowMs - startedMs) / 1000.0) + " s";
        switch (state) {
            case ON_SCHEDULE:
                if (firstLateMs < ON_SCHEDULE_FRACTION * periodMs) {
                    return null;
                }
                return "catch-up: the window began once the collector was back on its schedule, after " + waited
                        + " more under the full load (it started " + firstLateMs + " ms behind)";
            case NOT_CATCHING_UP:
            case TIMED_OUT:
                String why = state == State.TIMED_OUT ? "the wait's bound" : "its lateness stopped falling";
                return BEHIND_AT_WINDOW_START + " " + lastLateMs + " ms behind its schedule when the window began ("
                        + why + ", after " + waited + "): the window's first collections are owed ones, run back to back";
            default:
                return null;
        }
    }

    /** The lateness of the first collection seen, or null. */
    Long firstLateMs() {
        return firstLateMs;
    }

    /** The lateness of the latest collection seen, or null. */
    Long lastLateMs() {
        return lastLateMs;
    }
}
