package io.qosweaver.bench.app;

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
final class CatchUp {
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

    /** The lateness of the first collection seen, or null. */
    Long firstLateMs() {
        return firstLateMs;
    }

    /** The lateness of the latest collection seen, or null. */
    Long lastLateMs() {
        return lastLateMs;
    }
}
