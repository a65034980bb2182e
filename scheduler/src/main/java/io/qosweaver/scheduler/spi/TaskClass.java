package io.qosweaver.scheduler.spi;

/**
 * A task class as the installed scheduler knows it: its name, its attributes from the policy file,
 * the rank the policy gave it and the counters a policy reads. Counters are totals since install.
 *
 * <p>The rank decides a thread's role when its scopes nest: the role is the open scope with the
 * highest rank (ties: the innermost). Rank 0 means the policy does not observe the class: entering
 * and leaving it never takes the mechanism's lock and the policy never hears of it.
 */
public interface TaskClass {

    String name();

    /** The attribute from the policy file, or {@code null}. */
    String attribute(String key);

    /** The rank the policy gave this class at install; 0 means not observed by the policy. */
    int rank();

    /** Threads whose role is this class now. */
    int members();

    /**
     * Scopes of this class that ended since install (a thread's role left the class): the
     * completed tasks of an observed class, counted under the mechanism's lock.
     */
    long completed();

    /**
     * Progress points passed by threads whose role is this class ({@code QoS.progressPoint()}),
     * counted without a lock; the deadlock-aware policy compares two readings of it.
     */
    long progress();

    /**
     * The run-time share this class stands for, when a thread entered it through the Java API
     * rather than a policy-file scope; {@code null} for the policy file's classes.
     */
    default RuntimeShare share() {
        return null;
    }
}
