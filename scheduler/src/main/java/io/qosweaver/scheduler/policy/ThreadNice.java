package io.qosweaver.scheduler.policy;

import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.platform.PriorityProbe;
import io.qosweaver.scheduler.spi.Policy.Cause;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.stats.PriorityReport;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A thread's OS nice value by its role ({@code setpriority} on the native thread), for the
 * policies that ask for it: set when the thread enters a scope, put back to what it was when it
 * leaves, on the thread's own scope changes. A thread that starts another gives it its value (Linux),
 * so "what it was" is the process's own value when the thread was first seen at one of ours
 * ({@link #inherited}); every thread seen in a scope is checked for that, whatever its role asks.
 *
 * <p>Only when it can be undone: putting back a value lower than the one set (19 back to 0) needs
 * privilege (root, CAP_SYS_NICE, or RLIMIT_NICE), and a pooled thread left at 19 would be slow
 * for good. {@link #probe} therefore sets the lowest and the highest value asked and goes back,
 * on a throw-away thread, before anything is applied; if that fails (or there is no native
 * implementation) no priority is changed at all, the policy warns once and {@link #report} says
 * {@code effective=false} with the reason, so that a run does not pass the application without
 * priorities off as one with them. A later EPERM (privilege dropped) does the same from then on.
 *
 * <p>A scope change is decided under the scheduler's lock ({@link #onRoleChange}: the value wanted
 * is noted in the thread's slot) and applied after it, on the thread itself ({@link #afterScopeChange}):
 * a thread that lowers its own priority is descheduled at once beside any runnable thread of normal
 * priority, and holding the lock then would make every other thread's scope change wait until it got
 * a CPU back (light requests waited up to 0.9 s for heavy threads at nice 19 on Fuseki). A change to
 * more CPU (leaving a low scope) is applied before the lock instead ({@link #raiseBefore}): under it the
 * thread wakes the threads its change lets run, and at the low priority it lost its CPU to them.
 *
 * <p>A thread's kernel id can only be learnt on the thread itself, so it is resolved there once
 * and kept, with its value before the first change and the value applied, in the policy's
 * per-thread slot (its owner checked, since a slot of a dead thread's view may come to another).
 * The slot's monitor orders the owner's deferred change against {@link #onDetach} from the
 * uninstalling thread: once detached, the thread gets its own value back and nothing more.
 * Adopted threads ({@link Cause#ADOPTED}) keep their value until their next scope change.
 *
 * <p>{@link #IDLE} stands for Linux's {@code SCHED_IDLE} policy, below nice 19 ({@code lowNice: idle}):
 * the thread keeps its nice value and is switched to that policy, and back to {@code SCHED_OTHER}
 * when it leaves. Why it exists beside 19: the kernel lets a thread that was just given a CPU keep
 * it for a minimum slice whatever its weight, and a normal thread that wakes meanwhile waits for the
 * next tick (4 ms at HZ 250): on Tika (issue 13), with the extractions at nice 19, the light client's
 * threads and the server's light threads waited 2-6 ms behind them, ending on tick boundaries
 * ({@code perf sched}). A normal thread that wakes preempts a {@code SCHED_IDLE} one at once. A new
 * thread inherits its creator's policy as it does the nice value, and is put back the same way.
 */
final class ThreadNice {
    /** The value that stands for the SCHED_IDLE policy: lower priority than any nice value. */
    static final int IDLE = io.qosweaver.scheduler.spi.Policy.IDLE_PRIORITY;
    /** The per-thread state kept in the policy's slot. */
    static final class Slot {
        Thread owner;
        /** The policy's instance that made it: a replacing scheduler's slot is not this one's to apply. */
        ThreadNice of;
        /** The value the thread's last scope change asked for, null for its own; owner only. */
        Integer wanted;
        // under the slot's monitor: the owner's deferred change and the uninstaller's onDetach
        /** The kernel id: 0 until resolved on the thread, -1 when it cannot be. */
        int tid;
        /** The thread's value before the first change: what it goes back to. */
        int base;
        /** The value applied now, {@link #IDLE} in SCHED_IDLE. */
        int applied;
        /** In SCHED_IDLE: the nice value under it, which that policy leaves as it was. */
        int niceUnderIdle;
        /** The scheduler was uninstalled with the thread in scope: its own value is back for good. */
        boolean detached;
        /** During a wait ({@link #lendForWait}): the value to go back to after it; {@link #NOT_LENT} otherwise. */
        int lent = NOT_LENT;
    }

    private static final int NOT_LENT = Integer.MIN_VALUE;

    private final NativeThreads nt;
    private final String policy;
    private final int lowest;
    private final int highest;
    /** The values this policy sets (the constructor's, before the probe's bounds take 0 in). */
    private final int ours1, ours2;
    /** The process's own value (its main thread's), read by the probe: where an inherited value goes back to. */
    private volatile int natural;
    private final Consumer<String> warn;
    private volatile boolean effective;
    private volatile String reason;
    private boolean disabled;
    private final AtomicLong changes = new AtomicLong(), failures = new AtomicLong();

    /**
     * @param lowest the lowest nice value the policy applies (the most CPU)
     * @param highest the highest one
     */
    ThreadNice(NativeThreads nt, String policy, int lowest, int highest, Consumer<String> warn) {
        this.nt = nt;
        this.policy = policy;
        this.lowest = Math.min(lowest, 0);
        this.highest = Math.max(highest, 0);
        this.ours1 = lowest;
        this.ours2 = highest;
        this.warn = warn;
    }

    /**
     * A low role's value: a nice value in [-20, 19], or {@code idle} for {@link #IDLE}; {@code dflt}
     * when the key is absent.
     */
    static Integer lowValue(io.qosweaver.scheduler.spi.Parameters p, String key, Integer dflt, String meaning) {
        String v = p.asMap().get(key);
        if (v != null && v.trim().equalsIgnoreCase("idle")) {
            return IDLE;
        }
        return p.has(key) ? Integer.valueOf(p.intValue(key, 0, -20, 19, meaning + "; or idle, for SCHED_IDLE")) : dflt;
    }

    /** How a value reads in a report: "nice 19" or "SCHED_IDLE". */
    static String describeValue(int value) {
        return name(value);
    }

    /** Checks on a throw-away thread that the values can be set and undone; decides {@link #effective}. */
    ThreadNice probe(String applied) {
        if (!nt.available()) {
            disable(nt.unavailableReason());
            return this;
        }
        String failure = PriorityProbe.run(nt, "qosweaver-nice-probe", tid -> {
            int base = nt.getNice(tid);
            int now = set(tid, base, base, highest);
            now = set(tid, now, base, lowest);
            set(tid, now, base, base);
        }, this::describe);
        if (failure != null) {
            disable(failure);
        } else {
            try {
                natural = nt.getNice((int) ProcessHandle.current().pid());
            } catch (NativePriorityException | RuntimeException e) {
                natural = 0;
            }
            effective = true;
            reason = (highest == IDLE ? "setpriority, sched_setscheduler: " : "setpriority: ") + applied;
        }
        return this;
    }

    /**
     * Moves a thread from {@code from} to {@code to} (nice values or {@link #IDLE}); {@code under} is
     * its nice value under SCHED_IDLE when {@code from} is IDLE. Returns {@code to}.
     */
    private int set(int tid, int from, int under, int to) throws NativePriorityException {
        if (to == IDLE) {
            if (from != IDLE) {
                nt.setIdle(tid, true);
            }
            return to;
        }
        if (from == IDLE) {
            nt.setIdle(tid, false);
            from = under;
        }
        if (from != to) {
            nt.setNice(tid, to);
        }
        return to;
    }

    private static String name(int value) {
        return value == IDLE ? "SCHED_IDLE" : "nice " + value;
    }

    private String describe(NativePriorityException e) {
        return e.permissionDenied()
                ? "EPERM: the process may not raise thread priorities (nice " + lowest
                        + " after " + name(highest) + " needs root, CAP_SYS_NICE or RLIMIT_NICE >= " + (20 - lowest) + ")"
                : (highest == IDLE ? "setpriority or sched_setscheduler" : "setpriority") + " failed: "
                        + e.getMessage() + (e.errno() != 0 ? " (errno " + e.errno() + ")" : "");
    }

    private synchronized void disable(String why) {
        if (disabled) {
            return; // two threads' EPERM: one warning
        }
        disabled = true;
        effective = false;
        reason = why;
        warn.accept("policy " + policy + " cannot apply Linux priorities: " + why
                + ". No thread priority is changed; the run measures the application WITHOUT them.");
    }

    boolean effective() {
        return effective;
    }

    /**
     * The thread's role changed, under the scheduler's lock: {@code target} is the nice value of its
     * new role, or null to put back its own value (it left every observed scope, or its role asks for
     * none). Only noted here; {@link #afterScopeChange} applies it.
     */
    void onRoleChange(ThreadView t, Integer target, Cause cause) {
        if (!effective || cause != Cause.SCOPE) {
            return; // only the thread itself knows its id for sure; DEATH is a reaped dead thread
        }
        Slot s = (Slot) t.slot();
        if (s == null || s.owner != t.thread()) {
            // even with nothing to set (target null): the thread may have inherited one of our values
            // from the thread that started it, and is put back to the process's own (afterScopeChange)
            s = new Slot();
            s.owner = t.thread();
            s.of = this;
            t.setSlot(s);
        }
        s.wanted = target;
    }

    /**
     * On the thread itself (or what plays it, the simulator), after its scope change and outside the
     * scheduler's lock: applies the value {@link #onRoleChange} noted in {@code slot} (the slot as read
     * under that lock).
     */
    void afterScopeChange(ThreadView t, Object slot) {
        if (!effective || !(slot instanceof Slot s) || s.owner != t.thread()) {
            return;
        }
        synchronized (s) {
            if (s.detached) {
                return; // the scheduler went meanwhile and put its own value back
            }
            if (s.tid == 0) {
                int tid = nt.currentNativeThreadId();
                s.tid = tid > 0 ? tid : -1;
                int now;
                boolean idle = false;
                try {
                    now = tid > 0 ? nt.getNice(tid) : natural;
                    // a thread born of one in SCHED_IDLE is in it too (only looked at when it is ours)
                    idle = tid > 0 && highest == IDLE && nt.isIdle(tid);
                } catch (NativePriorityException | RuntimeException e) {
                    now = natural;
                }
                s.niceUnderIdle = now;
                s.applied = idle ? IDLE : now;
                s.base = idle || inherited(now) ? natural : now;
            }
            apply(s, s.wanted == null ? s.base : s.wanted);
        }
    }

    /**
     * On the thread itself, before its scope change takes the scheduler's lock: the value its new role asks
     * for ({@code target}, null for its own) when that is more CPU than the one applied, and only then: leaving
     * a low scope, the thread is back at its own priority before it wakes, under the lock, the threads the
     * change lets run (a normal thread woken by one in SCHED_IDLE preempts it at once, and it then waited
     * behind the low threads it woke, up to 5.4 ms on Tika). Lowering stays after the lock
     * ({@link #afterScopeChange}). A thread not yet seen, or seen by a replacing scheduler, is left to it.
     */
    void raiseBefore(ThreadView t, Integer target) {
        if (!effective || !(t.slot() instanceof Slot s) || s.owner != t.thread() || s.of != this) {
            return;
        }
        if (s.tid <= 0 || (target == null ? s.base : target) >= s.applied) {
            return; // read without the monitor: the owner (this thread) wrote them; only a raise needs it
        }
        synchronized (s) {
            if (s.detached || s.tid <= 0) {
                return;
            }
            int want = target == null ? s.base : target;
            if (want < s.applied) { // IDLE is above 19: numerically larger means less CPU
                apply(s, want);
            }
        }
    }

    /**
     * On the thread itself, before a wait for its turn takes the scheduler's lock: the thread's own value, when
     * its role keeps it lower, until {@link #endWait}. Under the lock the waiting thread decides and hands its
     * place on; in {@code SCHED_IDLE} any thread of normal priority that wakes on its CPU takes it there, and
     * every scope change of the process then waits for it: on Tika a heavy thread on its way to park held up
     * a light request's entry for 5-11 ms ({@code perf}). Nothing when the thread is at its own value already.
     */
    void lendForWait(ThreadView t) {
        if (!effective || !(t.slot() instanceof Slot s) || s.owner != t.thread() || s.of != this) {
            return;
        }
        if (s.tid <= 0 || s.applied <= s.base) {
            return; // read without the monitor, as in raiseBefore: only a raise needs it
        }
        synchronized (s) {
            if (s.detached || s.tid <= 0 || s.applied <= s.base) {
                return;
            }
            int low = s.applied;
            apply(s, s.base);
            if (s.applied != low) {
                s.lent = low;
            }
        }
    }

    /**
     * On the thread itself, after that wait, no lock held: the value it had before it, unless the scheduler let
     * the thread go meanwhile (its own value is then kept) or another one adopted it (whose slot this is not).
     */
    void endWait(ThreadView t) {
        if (!(t.slot() instanceof Slot s) || s.owner != t.thread() || s.of != this || s.lent == NOT_LENT) {
            return;
        }
        synchronized (s) {
            int low = s.lent;
            s.lent = NOT_LENT;
            if (effective && !s.detached && low != NOT_LENT) {
                apply(s, low);
            }
        }
    }

    /**
     * The policy is uninstalled with the thread inside a scope (under the scheduler's lock, on the
     * uninstalling thread): its own value back, and no deferred change after it. Waits for the
     * thread's own change in progress, if any (the slot's monitor), which takes no other lock.
     */
    void onDetach(ThreadView t) {
        Slot s = (Slot) t.slot();
        if (s == null || s.owner != t.thread()) {
            return;
        }
        synchronized (s) {
            s.detached = true;
            if (effective && t.thread().isAlive()) {
                apply(s, s.base);
            }
        }
    }

    /**
     * Whether a thread first seen at {@code value} got it from us: Linux gives a new thread its
     * creator's value, and a server's pool grows from whichever of its threads dispatches work, a
     * heavy request's at 19 among them (Tika's Jetty pool: threads born at 19 served light requests
     * at 19, and "went back" to 19 after each heavy one). Such a thread's own value is the
     * process's. A value the application set itself is kept, unless it is one of ours.
     */
    private boolean inherited(int value) {
        return value != natural && (value == ours1 || value == ours2);
    }

    /** Under the slot's monitor. */
    private void apply(Slot s, int target) {
        if (s.applied == target || s.tid <= 0) {
            return;
        }
        try {
            if (target == IDLE) {
                s.niceUnderIdle = s.applied;
            } else if (s.applied == IDLE) {
                // out of SCHED_IDLE first, noted before the nice value is set, which may fail alone
                s.applied = set(s.tid, IDLE, s.niceUnderIdle, s.niceUnderIdle);
            }
            if (s.applied != target) {
                s.applied = set(s.tid, s.applied, s.niceUnderIdle, target);
            }
            changes.incrementAndGet();
        } catch (NativePriorityException e) {
            failures.incrementAndGet();
            if (e.permissionDenied()) {
                disable(describe(e));
            }
        } catch (RuntimeException e) {
            failures.incrementAndGet();
        }
    }

    PriorityReport report() {
        return new PriorityReport("linux-nice", effective, reason, changes.get(), failures.get());
    }
}
