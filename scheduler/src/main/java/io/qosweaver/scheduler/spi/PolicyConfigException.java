package io.qosweaver.scheduler.spi;

/**
 * A policy or task class configuration the scheduler cannot accept. {@link #key()} names the
 * offending setting (for example {@code policy.lowLimit} or {@code taskClasses.chart.importance})
 * so that the agent can point at the file and line it came from.
 */
public final class PolicyConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String key;

    public PolicyConfigException(String key, String message) {
        super(message);
        this.key = key;
    }

    public String key() {
        return key;
    }
}
