package io.qosweaver.trace.os;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Turns the kernel's scheduler events into each thread's state slices, the states and names the
 * {@code /proc} sampler uses ({@link OsSampler#state}): a thread switched in is {@code Running} on
 * that CPU until it is switched out; switched out it is {@code Runnable (waiting for CPU)} when it
 * was preempted ({@code prev_state=R} or {@code R+}, on the CPU it left), {@code Sleeping}
 * ({@code S}, or {@code I}), {@code Blocked (I/O)} ({@code D}), {@code Stopped} ({@code T},
 * {@code t}); a sleeping or blocked thread woken is {@code Runnable (waiting for CPU)} on the
 * wake-up's target CPU (a migration while it waits moves it to the new CPU); a dead one
 * ({@code X}, {@code Z}) ends. Every change is exact to the event's microsecond.
 *
 * <p>Events about threads that are not the traced process's ({@code ours}) are ignored, side by
 * side: a switch from another process's task to one of ours only starts ours running. A thread's
 * time never goes back: an event older than its current slice takes effect at that slice's start.
 * The pipe merges the CPUs' buffers by time, but a reader paused between two buffers can pass an
 * event still being committed, so a thread's events can arrive out of order when it moves between
 * CPUs. Its latest switch (in or out) decides its state: a switch older than one already applied
 * is stale and ignored (a thread bouncing between two CPUs would otherwise be left Runnable while
 * it runs, until its next switch in), as is a switch out of a running thread from another CPU than
 * the one it runs on, no newer than its switch in there (a thread is only ever switched out of the
 * CPU it runs on); a wake-up older than its latest switch changes nothing; a switch out older than
 * a wake-up already applied leaves the thread waiting for a CPU (it was woken after it left). A
 * seed from {@code /proc} is not a switch: events older than it still apply, at its time. Not
 * thread-safe: one reading thread.
 */
public final class SchedStates {
    public static final String RUNNING = "Running";
    public static final String RUNNABLE = "Runnable (waiting for CPU)";
    public static final String SLEEPING = "Sleeping";
    public static final String BLOCKED = "Blocked (I/O)";
    public static final String STOPPED = "Stopped";

    /** Where the slices go (the timeline's OS level; a list in tests). */
    public interface Sink {
        void begin(long ts, int tid, String state, int cpu, char letter);

        void end(long ts, int tid);

        /** The kernel's name of a thread, seen in its events (the first time and on a change). */
        void name(int tid, String comm);
    }

    private static final class Thread {
        String state; // null: no slice open
        int cpu = -1;
        long since = Long.MIN_VALUE;
        long lastSwitch = Long.MIN_VALUE; // the latest switch in or out applied
        long lastWake = Long.MIN_VALUE;   // the latest wake-up seen
        int wakeCpu = -1;                 // its target CPU
        String comm;
    }

    private final Sink sink;
    private final IntPredicate ours;
    private final Map<Integer, Thread> threads = new HashMap<>();
    private long ignored;
    private volatile long stale; // one writer (the reader); read by the stop
    private volatile long inferred; // likewise
    private volatile long inferredGap; // likewise

    public SchedStates(Sink sink, IntPredicate ours) {
        this.sink = sink;
        this.ours = ours;
    }

    /** A thread's state as {@code /proc} gives it, before its first event ({@code R}: running). */
    public void seed(long ts, int tid, char letter, int cpu) {
        String s = letter == 'R' ? RUNNING : stateOf(letter);
        if (s != null) {
            change(ts, tid, thread(tid), s, cpu, letter);
        }
    }

    /** Applies the event {@code e} holds ({@link SchedEventParser#SWITCH} and the wake-ups; others are ignored). */
    public void apply(SchedEventParser e) {
        if (e.kind == SchedEventParser.SWITCH || e.kind == SchedEventParser.WAKEUP
                || e.kind == SchedEventParser.WAKEUP_NEW || e.kind == SchedEventParser.MIGRATE) {
            current(e);
        }
        switch (e.kind) {
            case SchedEventParser.SWITCH:
                if (e.pid != 0 && ours.test(e.pid)) {
                    Thread t = thread(e.pid);
                    named(e.pid, t, e.comm);
                    char c = e.prevState;
                    if (c == 'X' || c == 'Z') {
                        gone(e.ts, e.pid); // a thread's last event: never stale
                    } else if (e.ts < t.lastSwitch
                            || RUNNING.equals(t.state) && t.cpu >= 0 && t.cpu != e.cpu && e.ts <= t.since) {
                        stale++;
                    } else if (c != 'R' && e.ts < t.lastWake) {
                        // gone to sleep, but its wake-up after that was read first: it waits for a CPU
                        t.lastSwitch = e.ts;
                        if (!RUNNABLE.equals(t.state)) {
                            change(e.ts, e.pid, t, RUNNABLE, t.wakeCpu, 'R');
                        }
                    } else {
                        t.lastSwitch = e.ts;
                        String s = c == 'R' ? RUNNABLE : stateOf(c);
                        change(e.ts, e.pid, t, s != null ? s : "State " + c, e.cpu, c);
                    }
                }
                if (e.nextPid != 0 && ours.test(e.nextPid)) {
                    Thread t = thread(e.nextPid);
                    named(e.nextPid, t, e.nextComm);
                    if (e.ts < t.lastSwitch) {
                        stale++;
                    } else {
                        t.lastSwitch = e.ts;
                        change(e.ts, e.nextPid, t, RUNNING, e.cpu, 'R');
                    }
                }
                break;
            case SchedEventParser.WAKEUP:
            case SchedEventParser.WAKEUP_NEW:
                if (e.pid != 0 && ours.test(e.pid)) {
                    Thread t = thread(e.pid);
                    named(e.pid, t, e.comm);
                    if (e.ts > t.lastWake) {
                        t.lastWake = e.ts;
                        t.wakeCpu = e.targetCpu;
                    }
                    // woken while still on its CPU (before it switched out), woken twice, or a wake-up older
                    // than its latest switch (read behind another CPU's buffer): nothing changes
                    if (e.ts >= t.lastSwitch && !RUNNING.equals(t.state) && !RUNNABLE.equals(t.state)) {
                        change(e.ts, e.pid, t, RUNNABLE, e.targetCpu, 'R');
                    }
                }
                break;
            case SchedEventParser.MIGRATE:
                if (e.pid != 0 && ours.test(e.pid)) {
                    Thread t = thread(e.pid);
                    if (RUNNABLE.equals(t.state) && e.ts >= t.lastSwitch) {
                        change(e.ts, e.pid, t, RUNNABLE, e.targetCpu, 'R');
                    }
                }
                break;
            default:
                ignored++;
                break;
        }
    }

    /**
     * The task current on the event's CPU runs there: when it is one of ours not known to run there
     * (its switch in was never reported; the kernel here leaves out some switches away from another
     * process's threads), it runs from this event on. Strictly after its latest switch only: an event
     * recorded during a switch, in the same microsecond, may still name the task leaving.
     */
    private void current(SchedEventParser e) {
        int tid = e.currentPid;
        if (tid == 0 || !ours.test(tid)) {
            return;
        }
        Thread t = thread(tid);
        if (e.ts > t.lastSwitch && e.ts > t.since && !(RUNNING.equals(t.state) && t.cpu == e.cpu)) {
            t.lastSwitch = e.ts;
            inferred++;
            if (t.state != null && !RUNNING.equals(t.state)) {
                inferredGap += e.ts - t.since;
            }
            change(e.ts, tid, t, RUNNING, e.cpu, 'R');
        }
    }

    /** The thread ended (its last switch, or it is no longer listed): its slice ends. */
    public void gone(long ts, int tid) {
        Thread t = threads.remove(tid);
        if (t != null && t.state != null) {
            sink.end(Math.max(ts, t.since), tid);
        }
    }

    /** The threads known (seeded or seen), for noticing those that ended without a last switch. */
    public Iterator<Integer> tids() {
        return threads.keySet().iterator();
    }

    /** Ends every open slice at {@code ts} (the trace stops). */
    public void closeAll(long ts) {
        for (Map.Entry<Integer, Thread> e : threads.entrySet()) {
            Thread t = e.getValue();
            if (t.state != null) {
                sink.end(Math.max(ts, t.since), e.getKey());
            }
        }
        threads.clear();
    }

    /** Switches read after a later switch of the same thread (from another CPU's buffer), and ignored. */
    public long stale() {
        return stale;
    }

    /** Switches in inferred from a thread current in an event while it was not known to run there. */
    public long inferred() {
        return inferred;
    }

    /**
     * The time, in nanoseconds, of the slices an inferred switch in ended: a thread shown waiting or
     * asleep there may have run for any part of it (the trace cannot say when it went in).
     */
    public long inferredGapNanos() {
        return inferredGap;
    }

    /** The state of a thread now ({@code null}: none yet), for tests. */
    String state(int tid) {
        Thread t = threads.get(tid);
        return t == null ? null : t.state;
    }

    private Thread thread(int tid) {
        return threads.computeIfAbsent(tid, k -> new Thread());
    }

    private void named(int tid, Thread t, String comm) {
        if (comm != null && !comm.equals(t.comm)) {
            t.comm = comm;
            sink.name(tid, comm);
        }
    }

    private void change(long ts, int tid, Thread t, String state, int cpu, char letter) {
        if (state.equals(t.state) && cpu == t.cpu) {
            return;
        }
        long at = Math.max(ts, t.since);
        if (t.state != null) {
            sink.end(at, tid);
        }
        t.state = state;
        t.cpu = cpu;
        t.since = at;
        sink.begin(at, tid, state, cpu, letter);
    }

    /** The state a non-running letter means, or null for one that ends the thread. */
    static String stateOf(char letter) {
        switch (letter) {
            case 'S':
            case 'I': // an idle kernel thread's sleep
            case 'P': // parked (kernel threads)
                return SLEEPING;
            case 'D':
                return BLOCKED;
            case 'T':
            case 't':
                return STOPPED;
            case 'X':
            case 'Z':
                return null;
            default:
                return "State " + letter;
        }
    }
}
