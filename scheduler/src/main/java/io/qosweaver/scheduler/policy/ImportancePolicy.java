package io.qosweaver.scheduler.policy;

import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Parameters;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import java.util.List;

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
 */
class ImportancePolicy implements Policy {
    static final String NAME = "importance";
    static final String LOW_LIMIT = "lowLimit";
    static final String SUSPEND_AT_ENTRY = "suspendAtEntry";
    static final String LOW_CAP = "lowCap";
    static final String LOW_CAP_MEANING = "the number of low-importance threads that run at any time";
    static final String LOW_LIMIT_MEANING =
            "the number of low-importance threads that keep running while a high one runs";

    private final String name;
    private final int lowLimit;
    private final int lowCap;
    private final boolean suspendAtEntry;
    /** Threads whose role is a high class (callbacks are serialized by the mechanism). */
    private int highThreads;

    ImportancePolicy(String name, int lowLimit, int lowCap, boolean suspendAtEntry) {
        this.name = name;
        this.lowLimit = Math.min(lowLimit, lowCap);
        this.lowCap = lowCap;
        this.suspendAtEntry = suspendAtEntry;
    }

    static Policy create(PolicyContext context) {
        Parameters p = context.parameters().allowOnly(List.of(LOW_LIMIT, LOW_CAP, SUSPEND_AT_ENTRY),
                "lowLimit and lowCap, a number of threads (an integer >= 0, or a multiple of the cores such as 1x);"
                        + " suspendAtEntry, true or false");
        return new ImportancePolicy(NAME, lowLimit(p, context.cores()), lowCap(p, context.cores()),
                p.booleanValue(SUSPEND_AT_ENTRY, false));
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
        int before = highThreads;
        if (Importance.isHigh(from)) {
            highThreads--;
        }
        if (Importance.isHigh(to)) {
            highThreads++;
        }
        if (before == 0 && highThreads > 0) {
            applyLimit(c, lowLimit);
        } else if (before > 0 && highThreads == 0) {
            applyLimit(c, lowCap);
        }
        if (Importance.isLow(to)) {
            admit(c, t);
        }
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
