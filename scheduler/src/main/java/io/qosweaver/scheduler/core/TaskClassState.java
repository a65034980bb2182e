package io.qosweaver.scheduler.core;

import io.qosweaver.scheduler.event.IntervalHistogram;
import io.qosweaver.scheduler.spi.RuntimeShare;
import io.qosweaver.scheduler.spi.TaskClass;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A task class inside one installed scheduler: the policy's view of it plus the mechanism's
 * counters and queue accounting. Markers pushed on a scope stack for names no scheduler knows
 * ({@link #INERT}, and each machine's {@code unknown}) have rank 0 and are never a role.
 */
public final class TaskClassState implements TaskClass {
    /** Pushed for a scope entered while no scheduler is installed: keeps exits paired with enters. */
    static final TaskClassState INERT = new TaskClassState("<none>", Map.of(), 0, -1, null);

    private final String name;
    private final Map<String, String> attributes;
    private final int rank;
    /** Position in the machine's class list (the timeline stores it instead of the name). */
    final int index;
    /** The machine this class belongs to; null for {@link #INERT}. */
    final StateMachine machine;
    /** The run-time share this class stands for (a Java API scope), else null. */
    final RuntimeShare share;
    /** The runtime layer, set once before install; null in the simulator. */
    Controller controller;
    /**
     * The class of the same name in the machine that replaced this one's ({@link
     * StateMachine#shutdown(StateMachine)}), or null (no replacement, or a name the new
     * configuration lacks). Written once by the installer before it sets {@code machine.closed}
     * (volatile), and read only after reading {@code closed == true}: the volatile write and read
     * order it, so a plain field suffices and a live class costs no extra read.
     */
    TaskClassState successor;

    /** Threads whose role is this class (scopes open, thread alive as far as we know). */
    final AtomicInteger members = new AtomicInteger();
    /** Of those, how many are parked. */
    final AtomicInteger parked = new AtomicInteger();
    final LongAdder progress = new LongAdder();
    /** Control-point intervals of its threads, under the lock of {@link ControlPointIntervals}. */
    final IntervalHistogram intervals = new IntervalHistogram();

    // under the machine's lock
    long completed;
    int running;
    int cap = Integer.MAX_VALUE;
    long pacingNanos;

    TaskClassState(String name, Map<String, String> attributes, int rank, int index, StateMachine machine) {
        this(name, attributes, rank, index, machine, null);
    }

    /** Index {@link #SHARE_INDEX}: a run-time share's class, not in the machine's class list. */
    static final int SHARE_INDEX = -2;

    TaskClassState(String name, Map<String, String> attributes, int rank, int index, StateMachine machine,
            RuntimeShare share) {
        this.share = share;
        this.name = name;
        this.attributes = attributes;
        this.rank = rank;
        this.index = index;
        this.machine = machine;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String attribute(String key) {
        return attributes.get(key);
    }

    @Override
    public RuntimeShare share() {
        return share;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int members() {
        return members.get();
    }

    @Override
    public long completed() {
        return completed;
    }

    @Override
    public long progress() {
        return progress.sum();
    }

    boolean observed() {
        return rank > 0;
    }

    /**
     * What a scope entry of this class stands for now: itself while its machine is installed; once
     * the machine is closed, the class of the same name in the scheduler that replaced it
     * (following the chain of replacements: adoption); null when none (a closed scheduler without
     * a successor of that name, a marker). While nothing was replaced this reads one volatile word
     * (the machine's {@code closed}).
     */
    TaskClassState current() {
        TaskClassState c = this;
        while (c.machine != null && c.machine.closed) {
            c = c.successor;
            if (c == null) {
                return null;
            }
        }
        return c.machine != null && (c.index >= 0 || c.share != null) ? c : null;
    }

    @Override
    public String toString() {
        return name;
    }
}
