package io.qosweaver.scheduler.spi;

/**
 * A service fraction an application asked for at run time (the Java API's {@code Share}, the
 * paper's QThread without subclassing {@code Thread}): one scheduling entity whose threads share
 * one allotment, created once per share and reused for every scope opened with it.
 *
 * <p>The fraction is written without any lock ({@link #setFraction}: a volatile write, so that the
 * application never waits for the scheduler) and read by the policy at its tick; a policy that
 * takes run-time shares ({@link Policy#shareRank}) applies a change within one tick. The
 * mechanism's cache and the policy's slot are written under the installed scheduler's lock only,
 * each tagged with its owner so that a share outlives a policy swap.
 */
public final class RuntimeShare {
    private final String name;
    private volatile double fraction;
    /** The mechanism's task class for this share in the installed machine (a cache, any thread). */
    private volatile TaskClass mechanismClass;
    private Object slot;
    private Object slotOwner;

    /**
     * @throws IllegalArgumentException for a blank name or a fraction outside (0, 1]
     */
    public RuntimeShare(String name, double fraction) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a share needs a non-blank name (it labels its metrics)");
        }
        this.name = name;
        setFraction(fraction);
    }

    public String name() {
        return name;
    }

    public double fraction() {
        return fraction;
    }

    /** @throws IllegalArgumentException outside (0, 1] */
    public void setFraction(double f) {
        if (!(f > 0 && f <= 1)) {
            throw new IllegalArgumentException("share '" + name + "': a fraction must be in (0, 1], got " + f);
        }
        fraction = f;
    }

    /** The mechanism's class for this share, as last cached (check its owner before use). */
    public TaskClass mechanismClass() {
        return mechanismClass;
    }

    public void cacheMechanismClass(TaskClass c) {
        mechanismClass = c;
    }

    /** The slot the policy {@code owner} set, else null (under the scheduler's lock). */
    public Object slot(Object owner) {
        return slotOwner == owner ? slot : null;
    }

    public void setSlot(Object owner, Object value) {
        slotOwner = owner;
        slot = value;
    }

    @Override
    public String toString() {
        return name + "(" + fraction + ")";
    }
}
