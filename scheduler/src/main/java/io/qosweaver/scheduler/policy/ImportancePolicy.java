package io.qosweaver.scheduler.policy;

import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Parameters;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.stats.PriorityReport;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Importance / proportional share (QoSWeaver paper, 4.2). Task classes carry
 * {@code importance: high|low|normal}. While at least one high-importance thread is inside its
 * scope, at most {@code lowLimit} low-importance threads run; the others have their yield flag set
 * and park at their next control point. When the last high thread leaves, the limit goes back to
 * what it was before (unlimited) and every suspended low thread is released. Normal classes are
 * not observed at all.
 *
 * <p>{@code lowLimit} defaults to 1: the paper found one running low thread "made the behavior of
 * the high-importance thread the stablest" (a 50% share per group) while still letting charts
 * progress; 0 is allowed for a strict priority.
 *
 * <p>{@code lowCap} (default: none) bounds the running low-importance threads at all times, not
 * only while a high task runs: with more low threads than cores, each waits behind the others in
 * the OS's run queue, and so does every thread that is not ours (the server's acceptors and
 * selectors, a light request before it is classified). {@code 1x} keeps them at the core count;
 * an integer is absolute. While a high task runs the tighter of {@code lowLimit} and
 * {@code lowCap} applies. Both may be written relative to the cores ({@code lowLimit: 0.5x}).
 *
 * <p>{@code suspendAtEntry} (default false): a low thread that arrives while the limit is full
 * runs until its first control point, where it parks. With {@code true} it waits at its scope's
 * entry instead, before its body runs, as the paper's {@code add()} does; with sparse control
 * points that keeps an arriving request from running much of its work during a high task.
 *
 * <p>{@code lowLimitAfter} (a duration, default 0: the limit applies as soon as a high thread
 * enters) is a grace before the tighter {@code lowLimit} applies: while high threads are in
 * scope, {@code lowLimit} holds only once one of them has been in its scope for at least
 * {@code lowLimitAfter}; before that {@code lowCap} holds. When that thread leaves and the high
 * threads left are all younger than the grace, {@code lowCap} holds again until one of them
 * reaches it; when none is left, {@code lowCap} (as without a grace). Why: parking a running
 * low-importance thread costs the low class CPU time (its work stops, its slot idles until the
 * wake, the caches go cold), and on a mixed load most light high-importance requests finish within
 * a few milliseconds without help (Fuseki, issue 13: parking one aggregate per lookup kept the
 * lookups' p99 at the idle level but cost the aggregates 6 % of their throughput; never parking
 * kept the throughput but put the lookups' p99 at 2.1x idle). With a grace only the tail, the
 * requests still running after it, gets a heavy thread parked for it. The grace is timed by the
 * policy's tick ({@link #nextTickNanos}: the next tick when the youngest grace still running
 * expires, else one grace later, since a role change cannot wake the tick thread early), and is
 * also checked at every role change. The tick exists only with a grace and a {@code lowLimit}
 * tighter than {@code lowCap}; without a tighter limit the grace changes nothing and is ignored
 * (no tick thread, as with the default). Note that a policy with a tick also turns on the
 * mechanism's wake hand-offs ({@code StateMachine#handOff}), bounded by the tick. The entry time
 * of each high thread is kept in a map (one entry, a boxed {@code Long}, allocated per high
 * entry: role changes only, never a control point). Not offered by {@code admission} and
 * {@code deadlock-aware} (see there).
 *
 * <p>{@code lowNice} and {@code highNice} (nice values, default: none) also set the OS priority of
 * a thread while it is in a low (high) scope, as the {@code linux-priority} baseline does, and put
 * its own value back when it leaves ({@link ThreadNice}; only where the JVM may undo them: root,
 * CAP_SYS_NICE or RLIMIT_NICE, else nothing is changed and that is said). Why: the limits act at
 * control points, and between two of them a running low thread is an equal of every thread that is
 * not ours in the OS's run queue: the server's acceptor and selector threads, and a light request
 * before it is classified, wait behind it (Tika, issue 13: with the running extractions capped at
 * the cores, the detections' p99 was still 2.4x their idle p99). At {@code lowNice: 19} a low
 * thread weighs 15 against 1024 for a thread at 0 under CFS, so the others take a CPU from it at
 * once, and it still uses every CPU they leave. Measured on Tika
 * ({@code bench/results/mixed-tika/run-5/}) it did not move the light p99 (19.9 against 20.2 ms):
 * there the tail is not the run queue. {@code lowNice: idle} puts a low thread in Linux's
 * {@code SCHED_IDLE} policy instead ({@link ThreadNice#IDLE}): at 19 the kernel still lets a low
 * thread that just got a CPU keep it for a minimum slice, so a normal thread that wakes meanwhile
 * waits for the next tick; a {@code SCHED_IDLE} one is preempted at once. Not offered by the
 * importance policy's relatives.
 */
class ImportancePolicy implements Policy {
    static final String NAME = "importance";
    static final String LOW_LIMIT = "lowLimit";
    static final String SUSPEND_AT_ENTRY = "suspendAtEntry";
    static final String LOW_CAP = "lowCap";
    static final String LOW_LIMIT_AFTER = "lowLimitAfter";
    static final String LOW_NICE = "lowNice";
    static final String HIGH_NICE = "highNice";
    static final String COMPILER_NICE = "compilerNice";
    static final String LOW_CAP_MEANING = "the number of low-importance threads that run at any time";
    static final String LOW_LIMIT_MEANING =
            "the number of low-importance threads that keep running while a high one runs";

    private final String name;
    private final int lowLimit;
    private final int lowCap;
    private final boolean suspendAtEntry;
    /** The grace before lowLimit applies, in ns; 0 when none (or when lowLimit is not tighter). */
    private final long lowLimitAfter;
    /** Threads whose role is a high class (callbacks are serialized by the mechanism). */
    private int highThreads;
    /**
     * With a grace: when each high thread in scope entered it, by the scheduler's clock. Callbacks
     * are serialized and the clock is monotonic, so the insertion order is the entry order: the
     * first entry is the oldest.
     */
    private final Map<ThreadView, Long> highSince;
    /** Whether lowLimit holds now (else lowCap). */
    private boolean limited;
    /** The delay to the next tick, set by each tick (see {@link #nextTickNanos}). */
    private long nextTick;
    /** The OS priorities by role, or null when neither lowNice nor highNice is set. */
    private final ThreadNice nice;
    private final Integer lowNice, highNice;
    /** The JIT's compiler threads' priority while this policy runs, or null for theirs. */
    private Integer compilerNice;

    ImportancePolicy(String name, int lowLimit, int lowCap, boolean suspendAtEntry) {
        this(name, lowLimit, lowCap, suspendAtEntry, 0);
    }

    ImportancePolicy(String name, int lowLimit, int lowCap, boolean suspendAtEntry, long lowLimitAfterNanos) {
        this(name, lowLimit, lowCap, suspendAtEntry, lowLimitAfterNanos, null, null, null);
    }

    ImportancePolicy(String name, int lowLimit, int lowCap, boolean suspendAtEntry, long lowLimitAfterNanos,
            ThreadNice nice, Integer lowNice, Integer highNice) {
        this.name = name;
        this.nice = nice;
        this.lowNice = lowNice;
        this.highNice = highNice;
        this.lowLimit = Math.min(lowLimit, lowCap);
        this.lowCap = lowCap;
        this.suspendAtEntry = suspendAtEntry;
        // Without a limit tighter than the cap the grace changes nothing: no tick for it.
        this.lowLimitAfter = this.lowLimit < lowCap ? Math.max(0, lowLimitAfterNanos) : 0;
        this.highSince = this.lowLimitAfter > 0 ? new LinkedHashMap<>() : null;
        this.nextTick = this.lowLimitAfter;
    }

    static Policy create(PolicyContext context) {
        Parameters p = context.parameters().allowOnly(
                List.of(LOW_LIMIT, LOW_CAP, SUSPEND_AT_ENTRY, LOW_LIMIT_AFTER, LOW_NICE, HIGH_NICE, COMPILER_NICE),
                "lowLimit and lowCap, a number of threads (an integer >= 0, or a multiple of the cores such as 1x);"
                        + " suspendAtEntry, true or false; lowLimitAfter, a duration such as 15ms;"
                        + " lowNice, highNice and compilerNice, nice values from -20 to 19 (lowNice and compilerNice"
                        + " also idle: SCHED_IDLE)");
        Integer lowNice = ThreadNice.lowValue(p, LOW_NICE, null, LinuxPriorityPolicy.NICE_MEANING);
        Integer highNice = p.has(HIGH_NICE) ? p.intValue(HIGH_NICE, 0, -20, 19, LinuxPriorityPolicy.NICE_MEANING) : null;
        ThreadNice nice = null;
        if (lowNice != null || highNice != null) {
            int lo = Math.min(lowNice == null ? 0 : lowNice, highNice == null ? 0 : highNice);
            int hi = Math.max(lowNice == null ? 0 : lowNice, highNice == null ? 0 : highNice);
            nice = new ThreadNice(context.nativeThreads(), NAME, lo, hi, context::warnOnce)
                    .probe((lowNice != null ? "low " + ThreadNice.describeValue(lowNice) : "") + (lowNice != null && highNice != null ? ", " : "")
                            + (highNice != null ? "high nice " + highNice : ""));
        }
        ImportancePolicy policy = new ImportancePolicy(NAME, lowLimit(p, context.cores()), lowCap(p, context.cores()),
                p.booleanValue(SUSPEND_AT_ENTRY, false), p.durationNanos(LOW_LIMIT_AFTER, 0, 0), nice, lowNice,
                highNice);
        policy.compilerNice = ThreadNice.lowValue(p, COMPILER_NICE, null, LinuxPriorityPolicy.NICE_MEANING);
        return policy;
    }

    /** {@code compilerNice}: the agent keeps the JIT's compiler threads there between its post-weaving raises. */
    @Override
    public Integer compilerPriority() {
        return compilerNice;
    }

    static int lowLimit(Parameters p, int cores) {
        return p.threadCount(LOW_LIMIT, 1, cores, LOW_LIMIT_MEANING);
    }

    static int lowCap(Parameters p, int cores) {
        return p.threadCount(LOW_CAP, Control.UNLIMITED, cores, LOW_CAP_MEANING);
    }

    /** The limit while a high task runs: the tighter of lowLimit and lowCap. */
    int lowLimit() {
        return lowLimit;
    }

    int lowCap() {
        return lowCap;
    }

    int highThreads() {
        return highThreads;
    }

    /** The grace before lowLimit applies, in ns (0: none, or ignored without a tighter lowLimit). */
    long lowLimitAfterNanos() {
        return lowLimitAfter;
    }

    /** Whether lowLimit holds now (else lowCap). */
    boolean limited() {
        return limited;
    }

    /** One grace, the cadence while no grace is running; 0 (no tick) without a grace. */
    @Override
    public long tickNanos() {
        return lowLimitAfter;
    }

    /** When the youngest grace still running expires, at most one grace away (set by each tick). */
    @Override
    public long nextTickNanos() {
        return nextTick;
    }

    @Override
    public void onTick(Control c, long nowNanos) {
        if (lowLimitAfter == 0) {
            return;
        }
        update(c, nowNanos);
        nextTick = lowLimitAfter;
        // Any thread entering after this tick has its grace expire after the next one, which then
        // sees it; so each grace's end is met by a tick.
        for (Iterator<Long> it = highSince.values().iterator(); it.hasNext(); ) {
            long left = it.next() + lowLimitAfter - nowNanos;
            if (left > 0) {
                nextTick = Math.min(left, lowLimitAfter);
                break;
            }
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int rank(TaskClassSpec spec) {
        return Importance.rank(spec);
    }

    /** The cap holds from the start, before any thread is admitted. */
    @Override
    public void onStart(Control c) {
        if (lowCap != Control.UNLIMITED) {
            applyLimit(c, lowCap);
        }
    }

    @Override
    public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
        // Order: free the slot first, then move the limit, then admit, so that a thread switching
        // from low to high never counts against the limit it just imposed.
        if (Importance.isLow(from)) {
            c.release(t);
        }
        if (Importance.isHigh(from)) {
            highThreads--;
        }
        if (Importance.isHigh(to)) {
            highThreads++;
        }
        if (lowLimitAfter > 0) {
            // A move between two high classes keeps the thread's first entry time.
            if (Importance.isHigh(from) && !Importance.isHigh(to)) {
                highSince.remove(t);
            } else if (Importance.isHigh(to) && !Importance.isHigh(from)) {
                highSince.put(t, c.nanos());
            }
            update(c, c.nanos());
        } else {
            update(c, 0);
        }
        if (nice != null) {
            nice.onRoleChange(t, niceOf(to), cause);
        }
        if (Importance.isLow(to)) {
            admit(c, t);
        }
    }

    @Override
    public void onDetach(ThreadView t, TaskClass role) {
        if (nice != null) {
            nice.onDetach(t);
        }
    }

    @Override
    public void afterScopeChange(ThreadView t, Object slot) {
        if (nice != null) {
            nice.afterScopeChange(t, slot); // the OS priority, outside the scheduler's lock
        }
    }

    @Override
    public void beforeScopeChange(ThreadView t, TaskClass from, TaskClass to) {
        if (nice != null) {
            nice.raiseBefore(t, niceOf(to)); // leaving a low scope: normal priority before it wakes anyone
        }
    }

    @Override
    public void beforeWait(ThreadView t) {
        if (nice != null) {
            nice.lendForWait(t); // its own priority while it holds the scheduler's lock
        }
    }

    @Override
    public void afterWait(ThreadView t) {
        if (nice != null) {
            nice.endWait(t);
        }
    }

    /** The OS priority of a role: {@code lowNice}, {@code highNice}, or null for the thread's own. */
    private Integer niceOf(TaskClass role) {
        return Importance.isLow(role) ? lowNice : Importance.isHigh(role) ? highNice : null;
    }

    @Override
    public PriorityReport priorityReport() {
        return nice == null ? null : nice.report();
    }

    /**
     * Applies lowLimit or lowCap, whichever should hold at {@code now}: lowLimit while a high
     * thread is in scope and (with a grace) the oldest has been there at least the grace.
     */
    private void update(Control c, long now) {
        boolean want = highThreads > 0 && (lowLimitAfter == 0 || graceOver(now));
        if (want != limited) {
            limited = want;
            applyLimit(c, want ? lowLimit : lowCap);
        }
    }

    /** Whether the oldest high thread in scope has been there at least the grace. */
    private boolean graceOver(long now) {
        Iterator<Long> it = highSince.values().iterator();
        return it.hasNext() && it.next() + lowLimitAfter - now <= 0;
    }

    /** How the limit is enforced: here at the next control point (threads over it are flagged). */
    void applyLimit(Control c, int permits) {
        c.setLimit(permits);
    }

    /** How an entering low thread is admitted. */
    void admit(Control c, ThreadView t) {
        if (suspendAtEntry) {
            c.admitAtEntry(t);
        } else {
            c.admit(t);
        }
    }
}
