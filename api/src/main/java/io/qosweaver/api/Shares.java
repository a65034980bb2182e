package io.qosweaver.api;

import io.qosweaver.api.internal.Bridge;
import io.qosweaver.api.internal.Link;
import java.util.concurrent.Callable;

/**
 * Entry point of the API: top-level shares and groups, one-off scopes, and a control point.
 *
 * <p>Top-level shares and groups are admitted against what the scheduler leaves to run-time
 * shares: with the agent running {@code mtr-ls}, {@code 1 - reserved} minus the policy file's own
 * fractions; without the agent (or under another policy), 1. Everything else about scheduling is
 * a no-op without the agent: see {@link Share}.
 */
public final class Shares {
    /** The top-level group: its capacity is the scheduler's. */
    static final ShareGroup ROOT = ShareGroup.root();

    private Shares() {}

    /**
     * A top-level share (the paper's QThread's fraction).
     *
     * @throws ShareRefusedException when the top level has less than {@code fraction} left
     * @throws IllegalArgumentException for a blank name or a fraction outside (0, 1]
     */
    public static Share share(String name, double fraction) {
        return ROOT.share(name, fraction);
    }

    /**
     * A top-level group (the paper's QThreadGroup): its members' fractions never add up to more
     * than {@code fraction}.
     *
     * @throws ShareRefusedException when the top level has less than {@code fraction} left
     */
    public static ShareGroup group(String name, double fraction) {
        return ROOT.group(name, fraction);
    }

    /** Runs {@code task} in a share of its own, given back when it returns. */
    public static void run(String name, double fraction, Runnable task) {
        try (Share s = share(name, fraction)) {
            s.run(task);
        }
    }

    /** Calls {@code task} in a share of its own, given back when it returns. */
    public static <T> T call(String name, double fraction, Callable<T> task) throws Exception {
        try (Share s = share(name, fraction)) {
            return s.call(task);
        }
    }

    /**
     * A control point: where the scheduler may suspend the calling thread when its share's turn is
     * over (woven control points do the same). For code that runs long without a woven one.
     * Without the agent the JIT compiles it to nothing; with it, to the scheduler's own fast path
     * (a few nanoseconds, no allocation, no lock, when nothing is pending).
     */
    public static void controlPoint() {
        Bridge.controlPoint();
    }

    /** Whether the agent runs a policy that schedules shares ({@code mtr-ls}); false means no-ops. */
    public static boolean scheduled() {
        Link k = Bridge.link();
        return k != null && k.active();
    }

    /** What top-level shares and groups may ask together now (1 without the agent). */
    public static double capacity() {
        return ROOT.fraction();
    }

    /** What top-level shares and groups ask together now. */
    public static double admitted() {
        return ROOT.admitted();
    }
}
