package io.qosweaver.scheduler.policy;

import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;

/**
 * The {@code importance: high|low|normal} task-class attribute as a rank, shared by the policies
 * of the paper's section 5.1 (importance, admission, java-priority, linux-priority) so that one
 * policy file's task classes mean the same under each of them. Normal (or absent) is rank 0: not
 * observed.
 */
final class Importance {
    static final String ATTRIBUTE = "importance";
    static final int LOW = 1, HIGH = 2;

    private Importance() {}

    static int rank(TaskClassSpec spec) {
        String v = spec.attribute(ATTRIBUTE);
        if (v == null || v.equals("normal")) {
            return 0;
        }
        switch (v) {
            case "high":
                return HIGH;
            case "low":
                return LOW;
            default:
                throw new PolicyConfigException("taskClasses." + spec.name() + "." + ATTRIBUTE,
                        "importance must be high, low or normal, got '" + v + "'");
        }
    }

    /** Ranks of the three levels of the adaptive policy (paper 4.4: collector, up-to-date page, charts). */
    static final int LOW3 = 1, MIDDLE3 = 2, HIGH3 = 3;

    /** {@code importance: high|middle|low|normal} as a rank of three levels; normal (or absent) is 0. */
    static int rankOfThree(TaskClassSpec spec) {
        String v = spec.attribute(ATTRIBUTE);
        if (v == null || v.equals("normal")) {
            return 0;
        }
        switch (v) {
            case "high":
                return HIGH3;
            case "middle":
                return MIDDLE3;
            case "low":
                return LOW3;
            default:
                throw new PolicyConfigException("taskClasses." + spec.name() + "." + ATTRIBUTE,
                        "importance must be high, middle, low or normal, got '" + v + "'");
        }
    }

    static boolean isLow(TaskClass c) {
        return c != null && c.rank() == LOW;
    }

    static boolean isHigh(TaskClass c) {
        return c != null && c.rank() == HIGH;
    }
}
