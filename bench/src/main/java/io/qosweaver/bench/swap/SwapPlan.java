package io.qosweaver.bench.swap;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The changes {@code bench swap} applies, in a cycle that visits every state the issue names:
 * swap to admission, unweave (no policy), swap back to importance, {@code lowLimit} 2, then 1
 * again, so that the cycle ends where the run began (importance, {@code lowLimit} 1).
 */
public final class SwapPlan {
    /** What the policy in force is called in results: its name and its {@code lowLimit}, or {@value #NONE}. */
    public static final String NONE = "none";

    private SwapPlan() {
    }

    /**
     * One change.
     *
     * @param command  the control request, e.g. {@code swap /abs/admission.yaml}, {@code unweave},
     *                 {@code set policy.lowLimit=2}
     * @param kind     {@code swap}, {@code unweave} or {@code set}
     * @param expected the label of the policy that should be in force once it has returned
     */
    public record Step(String command, String kind, String expected) {
        /** The command with a swap file named by its file name (results and progress lines). */
        public String shortCommand() {
            if (!kind.equals("swap")) {
                return command;
            }
            return "swap " + Path.of(command.substring("swap ".length())).getFileName();
        }
    }

    public static String label(String policy, String lowLimit) {
        return policy == null ? NONE : policy + " lowLimit=" + lowLimit;
    }

    /** The cycle, with absolute policy files (the agent refuses relative ones: its working directory is not ours). */
    public static List<Step> cycle(Path importance, Path admission) {
        if (!importance.isAbsolute() || !admission.isAbsolute()) {
            throw new IllegalArgumentException("swap files must be absolute: " + importance + ", " + admission);
        }
        return List.of(
                new Step("swap " + admission, "swap", label("admission", "1")),
                new Step("unweave", "unweave", NONE),
                new Step("swap " + importance, "swap", label("importance", "1")),
                new Step("set policy.lowLimit=2", "set", label("importance", "2")),
                new Step("set policy.lowLimit=1", "set", label("importance", "1")));
    }

    /** The first {@code n} steps of the cycle, repeated as often as needed. */
    public static List<Step> steps(List<Step> cycle, int n) {
        List<Step> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(cycle.get(i % cycle.size()));
        }
        return out;
    }
}
