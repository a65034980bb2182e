package io.qosweaver.api;

/**
 * A share or group asked more than its group has left (admission control, the paper's
 * QThreadGroup): nothing changed. The message names the group, its fraction, what its members ask
 * already, the request and what is left.
 */
public final class ShareRefusedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final String group;
    private final double groupFraction, admitted, asked;

    ShareRefusedException(String group, double groupFraction, double admitted, String who, double asked,
            String remedy) {
        super(group + " has " + ShareGroup.percent(groupFraction) + "; its members ask "
                + ShareGroup.percent(admitted) + " already, so " + who + " cannot have "
                + ShareGroup.percent(asked) + " (at most " + ShareGroup.percent(Math.max(0, groupFraction - admitted))
                + " is left); " + remedy);
        this.group = group;
        this.groupFraction = groupFraction;
        this.admitted = admitted;
        this.asked = asked;
    }

    /** The group that refused (for top-level shares: what the scheduler leaves to the API). */
    public String group() {
        return group;
    }

    /** The group's fraction (its capacity for members). */
    public double groupFraction() {
        return groupFraction;
    }

    /** What the group's other members asked already. */
    public double admitted() {
        return admitted;
    }

    /** The fraction refused. */
    public double asked() {
        return asked;
    }
}
