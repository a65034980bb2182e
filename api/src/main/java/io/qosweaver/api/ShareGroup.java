package io.qosweaver.api;

import io.qosweaver.api.internal.Bridge;
import io.qosweaver.api.internal.Link;
import java.util.Locale;

/**
 * A group of shares (the paper's QThreadGroup): its members' fractions, shares and sub-groups,
 * never add up to more than its own fraction. A request for more is refused with a {@link
 * ShareRefusedException} that names the numbers, and nothing changes. A group only bounds what its
 * members may ask; the scheduler schedules the shares themselves.
 *
 * <p>Admission is bookkeeping in the application, done the same with or without the agent (so
 * that a program that is refused under the agent is refused without it too); it takes this group's
 * lock (and its parent's), never on a scope's path. {@link #close} gives the group's fraction back.
 */
public final class ShareGroup implements AutoCloseable {
    private final String name;
    private final ShareGroup parent;
    /** Top-level only: whose capacity is the scheduler's (see {@link Shares#capacity()}). */
    private final boolean root;
    private double fraction;
    /** What the members ask together; under this group's lock. */
    private double admitted;
    private boolean closed;

    private ShareGroup(String name, ShareGroup parent, double fraction, boolean root) {
        this.name = name;
        this.parent = parent;
        this.fraction = fraction;
        this.root = root;
    }

    /** The top of every share: what the scheduler leaves to run-time shares. */
    static ShareGroup root() {
        return new ShareGroup("the scheduler", null, Double.NaN, true);
    }

    /**
     * A new share of this group, admitted if the members' fractions stay within the group's.
     *
     * @param name labels the share in the scheduler's metrics ({@code qosweaver_share_*{entity=NAME}})
     * @param fraction of the managed cores' time, in (0, 1] (0.2 is 20 %)
     * @throws ShareRefusedException when the group has less than {@code fraction} left
     * @throws IllegalArgumentException for a blank name or a fraction outside (0, 1]
     */
    public Share share(String name, double fraction) {
        checkRequest(name, fraction, "share");
        admit(0, fraction, "share '" + name + "'");
        return new Share(name, this, fraction);
    }

    /**
     * A sub-group of this group with the given fraction (admitted as a share would be).
     *
     * @throws ShareRefusedException when this group has less than {@code fraction} left
     */
    public ShareGroup group(String name, double fraction) {
        checkRequest(name, fraction, "group");
        admit(0, fraction, "group '" + name + "'");
        return new ShareGroup(name, this, fraction, false);
    }

    public String name() {
        return name;
    }

    /** The group's fraction (for the top-level group, what the scheduler leaves to shares). */
    public synchronized double fraction() {
        return capacity();
    }

    /** What the members ask together now. */
    public synchronized double admitted() {
        return admitted;
    }

    boolean isRoot() {
        return root;
    }

    /** The group this one belongs to; null for a top-level group. */
    public ShareGroup parent() {
        return parent == null || parent.root ? null : parent;
    }

    /**
     * Changes the group's fraction: refused when its members ask more than the new fraction, or
     * when its own group has not that much left.
     *
     * @throws ShareRefusedException naming the numbers; nothing changes then
     */
    public void setFraction(double f) {
        checkFraction(f, "group '" + name + "'");
        if (root) {
            throw new UnsupportedOperationException("the top-level group's fraction is what the scheduler leaves");
        }
        synchronized (this) {
            if (admitted > f + EPSILON) {
                throw new ShareRefusedException("group '" + name + "'", f, admitted, "its members",
                        admitted, "lower its members' fractions first, or ask for at least " + percent(admitted));
            }
            parent.admit(fraction, f, "group '" + name + "'");
            fraction = f;
        }
    }

    /** Gives the group's fraction back to its own group; its shares keep theirs until closed. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed || root) {
                return;
            }
            closed = true;
        }
        parent.giveBack(fraction);
    }

    // ------------------------------------------------------------------ admission

    private static final double EPSILON = 1e-9;

    /** Replaces {@code old} by {@code asked} among the members, or refuses. */
    synchronized void admit(double old, double asked, String who) {
        if (closed) {
            throw new IllegalStateException("group '" + name + "' is closed; " + who + " cannot join it");
        }
        double cap = capacity();
        double sum = admitted - old + asked;
        if (sum > cap + EPSILON) {
            throw new ShareRefusedException(root ? "the scheduler (what its policy leaves to run-time shares)"
                    : "group '" + name + "'", cap, admitted - old, who, asked,
                    root ? "close other shares or lower their fractions"
                            : "lower the request or raise the group's fraction");
        }
        admitted = sum;
    }

    synchronized void giveBack(double f) {
        double a = admitted - f;
        admitted = a < EPSILON ? 0 : a; // no rounding residue once everything is given back
    }

    /**
     * The group's capacity for members. The top-level group's: what the installed policy leaves to
     * run-time shares, or all of it (1) without the agent or under a policy without shares.
     */
    private double capacity() {
        if (!root) {
            return fraction;
        }
        Link k = Bridge.link();
        double c = k == null ? Double.NaN : k.capacity();
        return Double.isNaN(c) ? 1.0 : c;
    }

    static void checkRequest(String name, double fraction, String what) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a " + what + " needs a non-blank name (it labels the scheduler's metrics)");
        }
        checkFraction(fraction, what + " '" + name + "'");
    }

    static void checkFraction(double f, String who) {
        if (!(f > 0 && f <= 1)) {
            throw new IllegalArgumentException(who + ": a fraction must be in (0, 1] (0.2 is 20 % of the managed"
                    + " cores' time), got " + f);
        }
    }

    static String percent(double f) {
        return String.format(Locale.ROOT, "%.4g %%", f * 100);
    }

    @Override
    public String toString() {
        return "ShareGroup[" + name + ", " + percent(fraction()) + "]";
    }
}
