package io.qosweaver.api.internal;

/**
 * Where the API finds the scheduler: one {@link Link}, looked up when this class initializes and
 * again when the agent starts later ({@link #rebind}), read with one volatile load per call (a
 * plain load on x86 and ARM for a field that, in practice, is written once).
 *
 * <p>Two start-up orders, both covered:
 * <ul>
 *   <li>The agent starts first ({@code -javaagent}, or attached before the application touches the
 *       API): the scheduler is on the bootstrap class path when this class initializes.
 *   <li>The application uses the API first and the agent is attached later: the lookup found
 *       nothing, and the agent, once the scheduler is installed, calls {@link #rebind} on every
 *       loaded copy of this class (by name, reflectively: the agent links no API class).
 * </ul>
 * Not part of the API: applications use {@code io.qosweaver.api.Shares}.
 */
public final class Bridge {
    private static volatile Link link = Link.find();

    private Bridge() {}

    /** The scheduler's bridge, or null without the agent. */
    public static Link link() {
        return link;
    }

    /** Looks the scheduler up again; the agent calls it after it started (by reflection). */
    public static void rebind() {
        Link l = Link.find();
        if (l != null) {
            link = l;
        }
    }
}
