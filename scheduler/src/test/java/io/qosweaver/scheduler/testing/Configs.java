package io.qosweaver.scheduler.testing;

import io.qosweaver.scheduler.SchedulerConfig;
import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.Ticker;
import java.util.List;
import java.util.Map;

/** Test helper: configurations, a fake clock, the calling thread's scope depth. */
public final class Configs {
    private Configs() {}

    /** The river monitor's classes: collect (high), chart (low), update (not observed). */
    public static List<TaskClassSpec> riverClasses() {
        return List.of(new TaskClassSpec("collect", Map.of("importance", "high")),
                new TaskClassSpec("chart", Map.of("importance", "low")),
                new TaskClassSpec("update", Map.of()));
    }

    public static SchedulerConfig importance(int lowLimit) {
        return config("importance", Map.of("lowLimit", Integer.toString(lowLimit)));
    }

    public static SchedulerConfig config(String policy, Map<String, String> parameters) {
        return new SchedulerConfig(riverClasses(), new SchedulerConfig.PolicySpec(policy, parameters));
    }

    /** Parameters per built-in policy, with the low-importance limit where the policy has one. */
    public static Map<String, String> parameters(String policy, int lowLimit) {
        switch (policy) {
            case "importance":
            case "admission":
            case "deadlock-aware":
            case "adaptive":
                return Map.of("lowLimit", Integer.toString(lowLimit));
            case "java-priority":
            case "linux-priority":
                return Map.of();
            case "mtr-ls":
                // The river classes are high (urgent) and low (a normal priority's fraction). The
                // contract expects every worker to run once the high task ends: P above the workers.
                return Map.of("cores", "8");
            default:
                throw new AssertionError("policy '" + policy + "' is registered but not in the contract"
                        + " test: add its parameters to Configs.parameters");
        }
    }

    public static SchedulerConfig config(String policy, int lowLimit) {
        return config(policy, parameters(policy, lowLimit));
    }

    /** The calling thread's scope depth. */
    public static int depth() {
        ThreadState t = ThreadStates.peek();
        return t == null ? 0 : t.depth();
    }

    /** A manually advanced clock. */
    public static final class FakeTicker implements Ticker {
        public long now = 1_000_000_000L;

        @Override
        public long nanos() {
            return now;
        }

        public void advanceMillis(long ms) {
            now += ms * 1_000_000L;
        }
    }
}
