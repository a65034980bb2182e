package io.qosweaver.scheduler.policy;

import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Parameters;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.ThreadView;
import java.util.ArrayList;
import java.util.List;

/**
 * Deadlock-aware importance (QoSWeaver paper, 3.4 and 4.4): the importance policy, with timed
 * waits. A low thread suspended at a control point waits at most {@code timeout} (paper: 200 ms) at
 * a time. When a wait times out and the thread is still told to yield, it compares the progress of
 * the task classes it waits for with what it saved when it began waiting: if they progressed, it
 * waits on (and saves the new values); if not, a thread it waits for may be blocked by something
 * the suspended thread holds (a lock taken up the stack, a {@code ReentrantLock}, a condition it
 * should signal), so it runs on for now with its flag still set. At its next control points it
 * skips suspension while there is still no progress, and suspends normally (a new timed wait) once
 * progress resumes. If the applications do not deadlock by themselves, running every suspended
 * thread for a while breaks any deadlock the suspension made (paper 3.4).
 *
 * <p>Beyond the paper, a stall is a fact about the classes waited for, not about the thread that
 * found it: once one wait times out without progress, every thread of the regime that reaches a
 * control point runs on (and counts as running on) until those classes progress. With the paper's
 * rule alone a fresh thread still waits its first {@code timeout}, so threads queued on the monitor
 * the waiter held take it one after another and each waits {@code timeout} with it: 40 chart
 * threads convoyed the river monitor's collector, blocked on the same monitor, for about 8 s.
 *
 * <p>Progress: the sum, over the classes waited for, of their progress points
 * ({@code QoS.progressPoint()}, woven from the policy file's {@code progressPoints}) and their
 * completed tasks. The classes waited for are the high-importance ones while a high task runs (the
 * paper's case), else the low-importance ones (a thread kept waiting by {@code lowCap} waits for the
 * low runners). A change of regime (a high task starting or the last one ending) counts as
 * progress: every saved value is from before it.
 *
 * <p>Parameters: {@code lowLimit} (default 1) and {@code lowCap} (default none) as for
 * importance, and {@code timeout} (default 200ms). Waits at a scope's entry are not timed by the
 * mechanism, so {@code suspendAtEntry} is not offered: a thread waits only at control points.
 *
 * <p>Importance's {@code lowLimitAfter} (a grace before {@code lowLimit} applies) is refused here
 * with its own message: the regime that decides which classes a waiter waits for, and when saved
 * progress goes stale, is "a high thread is in scope"; with a grace, waiters kept by {@code lowCap}
 * during it wait for the low runners although a high thread is in scope. Supporting it means
 * keying the regime on the limit that holds ({@code limited()}) and testing the timed waits
 * across a grace's end; not done until a deadlock-aware run needs it.
 */
final class DeadlockAwarePolicy extends ImportancePolicy {
    static final String NAME = "deadlock-aware";
    static final String TIMEOUT = "timeout";
    static final long DEFAULT_TIMEOUT_NANOS = 200_000_000L;

    /** Per-thread state, allocated once per thread and reset when its role becomes low. */
    static final class Slot {
        /** The regime the saved value belongs to. */
        long epoch = -1;
        /** Progress of the classes waited for when the wait began (or last progressed). */
        long saved;
        /** Running on after a wait timed out without progress, flag still set. */
        boolean runningOn;
    }

    private final long timeoutNanos;
    /** Incremented whenever the limit's regime changes (a high task starts, the last one ends). */
    private long epoch;
    private final List<TaskClass> highClasses = new ArrayList<>(2);
    private final List<TaskClass> lowClasses = new ArrayList<>(2);
    /** Control points where a running-on thread skipped suspension (tests, diagnosis). */
    private long skips;
    /** The regime in which a wait timed out without progress, -1 for none (see the class comment). */
    private long stallEpoch = -1;
    /** The progress of the classes waited for when that wait found them stalled. */
    private long stalledAt;

    DeadlockAwarePolicy(int lowLimit, int lowCap, long timeoutNanos) {
        super(NAME, lowLimit, lowCap, false);
        this.timeoutNanos = timeoutNanos;
    }

    static Policy create(PolicyContext context) {
        if (context.parameters().asMap().containsKey(LOW_LIMIT_AFTER)) {
            throw new PolicyConfigException("policy." + LOW_LIMIT_AFTER, LOW_LIMIT_AFTER + " is not supported by"
                    + " policy " + NAME + " (its progress regime assumes lowLimit holds while a high thread is in"
                    + " scope); remove it, or use policy importance");
        }
        Parameters p = context.parameters().allowOnly(List.of(LOW_LIMIT, LOW_CAP, TIMEOUT),
                "lowLimit and lowCap, a number of threads (an integer >= 0, or a multiple of the cores such as 1x);"
                        + " timeout, a duration such as 200ms");
        return new DeadlockAwarePolicy(lowLimit(p, context.cores()), lowCap(p, context.cores()),
                p.durationNanos(TIMEOUT, DEFAULT_TIMEOUT_NANOS, 1_000_000L));
    }

    @Override
    public long waitTimeoutNanos() {
        return timeoutNanos;
    }

    @Override
    public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
        learn(from);
        learn(to);
        if (Importance.isLow(to) && !Importance.isLow(from)) {
            Slot s = slot(t);
            s.epoch = -1; // a record may be reused by another thread: nothing of before counts
            s.runningOn = false;
        }
        super.onRoleChange(c, t, from, to, cause);
    }

    /** Every change of regime makes the values saved before it stale. */
    @Override
    void applyLimit(Control c, int permits) {
        epoch++;
        super.applyLimit(c, permits);
    }

    /**
     * A flagged thread at a control point: a fresh wait saves the progress; a thread running on
     * parks only once the classes it waits for have progressed since.
     */
    @Override
    public boolean mayPark(Control c, ThreadView t) {
        Slot s = slot(t);
        long now = progress();
        if (stallEpoch == epoch && now == stalledAt) {
            s.epoch = epoch; // a stall another waiter found: run on with it
            s.saved = now;
            s.runningOn = true;
        }
        if (s.runningOn && s.epoch == epoch && now == s.saved) {
            skips++;
            return false;
        }
        s.epoch = epoch;
        s.saved = now;
        s.runningOn = false;
        return true;
    }

    @Override
    public boolean onWaitTimeout(Control c, ThreadView t) {
        Slot s = slot(t);
        long now = progress();
        if (s.epoch != epoch || now != s.saved) {
            s.epoch = epoch;
            s.saved = now;
            return true; // progress: no deadlock, wait on
        }
        s.runningOn = true;
        stallEpoch = epoch;
        stalledAt = now;
        return false;
    }

    /** Progress points passed and tasks completed by the classes a waiting thread waits for. */
    private long progress() {
        List<TaskClass> waitedFor = highThreads() > 0 ? highClasses : lowClasses;
        long sum = 0;
        for (int i = 0; i < waitedFor.size(); i++) {
            TaskClass k = waitedFor.get(i);
            sum += k.progress() + k.completed();
        }
        return sum;
    }

    /** A class is added when its first thread enters it, when its counters are still 0. */
    private void learn(TaskClass k) {
        List<TaskClass> list = Importance.isHigh(k) ? highClasses : Importance.isLow(k) ? lowClasses : null;
        if (list != null && !list.contains(k)) {
            list.add(k);
        }
    }

    private static Slot slot(ThreadView t) {
        Object o = t.slot();
        if (o instanceof Slot s) {
            return s;
        }
        Slot s = new Slot();
        t.setSlot(s);
        return s;
    }

    long timeoutNanos() {
        return timeoutNanos;
    }

    long skips() {
        return skips;
    }
}
