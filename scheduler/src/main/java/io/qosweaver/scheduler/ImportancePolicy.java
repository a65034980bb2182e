package io.qosweaver.scheduler;

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
 */
class ImportancePolicy implements Policy {
    static final String NAME = "importance";
    static final String LOW_LIMIT = "lowLimit";
    static final String IMPORTANCE = "importance";
    static final int RANK_LOW = 1, RANK_HIGH = 2;

    private final int lowLimit;
    /** Threads whose role is a high class (under the controller lock). */
    private int highThreads;

    ImportancePolicy(int lowLimit) {
        this.lowLimit = lowLimit;
    }

    static Policy create(Map<String, String> parameters) {
        return new ImportancePolicy(parseLowLimit(NAME, parameters));
    }

    /** The {@code lowLimit} parameter (default 1), the only one; shared with admission. */
    static int parseLowLimit(String policyName, Map<String, String> parameters) {
        int lowLimit = 1;
        for (Map.Entry<String, String> e : parameters.entrySet()) {
            if (!LOW_LIMIT.equals(e.getKey())) {
                throw new PolicyConfigException("policy." + e.getKey(),
                        "unknown parameter '" + e.getKey() + "' for policy " + policyName + "; remove it"
                                + " (the only parameter is lowLimit, an integer >= 0)");
            }
        }
        String v = parameters.get(LOW_LIMIT);
        if (v != null) {
            try {
                lowLimit = Integer.parseInt(v.trim());
            } catch (NumberFormatException ex) {
                lowLimit = -1;
            }
            if (lowLimit < 0) {
                throw new PolicyConfigException("policy." + LOW_LIMIT,
                        "lowLimit must be an integer >= 0 (the number of low-importance threads"
                                + " that keep running while a high one runs), got '" + v + "'");
            }
        }
        return lowLimit;
    }

    int lowLimit() {
        return lowLimit;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank(SchedulerConfig.TaskClassSpec spec) {
        return rankByImportance(spec);
    }

    /**
     * The {@code importance: high|low|normal} attribute as a rank, shared by the policies of the
     * paper's section 5.1 (admission, java-priority, linux-priority) so that one policy file's
     * task classes mean the same under each of them.
     */
    static int rankByImportance(SchedulerConfig.TaskClassSpec spec) {
        String v = spec.attributes() == null ? null : spec.attributes().get(IMPORTANCE);
        if (v == null || v.equals("normal")) {
            return 0;
        }
        switch (v) {
            case "high":
                return RANK_HIGH;
            case "low":
                return RANK_LOW;
            default:
                throw new PolicyConfigException("taskClasses." + spec.name() + "." + IMPORTANCE,
                        "importance must be high, low or normal, got '" + v + "'");
        }
    }

    @Override
    public void onRoleChange(Control c, ManagedThread t, TaskClass from, TaskClass to) {
        // Order: free the slot first, then move the limit, then admit, so that a thread switching
        // from low to high never counts against the limit it just imposed.
        if (isLow(from)) {
            c.release(t);
        }
        int before = highThreads;
        if (isHigh(from)) {
            highThreads--;
        }
        if (isHigh(to)) {
            highThreads++;
        }
        if (before == 0 && highThreads > 0) {
            applyLimit(c, lowLimit);
        } else if (before > 0 && highThreads == 0) {
            applyLimit(c, Control.UNLIMITED);
        }
        if (isLow(to)) {
            admit(c, t);
        }
    }

    int highThreads() {
        return highThreads;
    }

    /** How the limit is enforced: here at the next control point (threads over it are flagged). */
    void applyLimit(Control c, int permits) {
        c.setLimit(permits);
    }

    /** How an entering low thread is admitted: here it runs until its next control point. */
    void admit(Control c, ManagedThread t) {
        c.admit(t);
    }

    private static boolean isLow(TaskClass c) {
        return c != null && c.rank() == RANK_LOW;
    }

    private static boolean isHigh(TaskClass c) {
        return c != null && c.rank() == RANK_HIGH;
    }
}
