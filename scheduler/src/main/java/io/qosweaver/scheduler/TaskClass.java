package io.qosweaver.scheduler;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A task class as the installed scheduler knows it: its name, its attributes from the policy file
 * and the rank the policy gave it. Immutable apart from the counters that the stats read.
 *
 * <p>The rank decides a thread's role when its scopes nest: the role is the open scope with the
 * highest rank (ties: the innermost). Rank 0 means the policy does not observe the class, so
 * entering and leaving it never takes the controller lock.
 */
public final class TaskClass {
    private final String name;
    private final Map<String, String> attributes;
    private final int rank;
    /** Position in the controller's class list (the timeline stores it instead of the name). */
    final int index;
    final ThreadController controller;
    /** Threads whose role is this class (scopes open, thread alive as far as we know). */
    final AtomicInteger members = new AtomicInteger();
    /** Of those, how many are parked at a control point. */
    final AtomicInteger parked = new AtomicInteger();
    /** Control-point intervals of its threads, under the lock of {@link ControlPointIntervals}. */
    final IntervalHistogram intervals = new IntervalHistogram();

    TaskClass(String name, Map<String, String> attributes, int rank, int index, ThreadController controller) {
        this.name = name;
        this.attributes = attributes;
        this.rank = rank;
        this.index = index;
        this.controller = controller;
    }

    public String name() {
        return name;
    }

    /** The attribute from the policy file, or {@code null}. */
    public String attribute(String key) {
        return attributes.get(key);
    }

    /** The rank the policy gave this class at install; 0 means not observed by the policy. */
    public int rank() {
        return rank;
    }

    boolean observed() {
        return rank > 0;
    }

    @Override
    public String toString() {
        return name;
    }
}
