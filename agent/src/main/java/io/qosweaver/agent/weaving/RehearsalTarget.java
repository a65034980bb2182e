package io.qosweaver.agent.weaving;

/**
 * The one class of the agent that is woven: at start-up, to rehearse a swap (the runtime's
 * {@code SwapRehearsal}), then unwoven. Never run.
 */
public final class RehearsalTarget {
    private RehearsalTarget() {}

    public static int run(Object o) {
        return o.hashCode();
    }
}
