package io.qosweaver.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Test helper: configurations for the importance policy. */
final class Configs {
    private Configs() {}

    static SchedulerConfig importance(int lowLimit) {
        return importance(lowLimit, "collect", "chart", "update");
    }

    /** high, low and normal class names. */
    static SchedulerConfig importance(int lowLimit, String high, String low, String normal) {
        List<SchedulerConfig.TaskClassSpec> classes = new ArrayList<>();
        classes.add(new SchedulerConfig.TaskClassSpec(high, Map.of("importance", "high")));
        classes.add(new SchedulerConfig.TaskClassSpec(low, Map.of("importance", "low")));
        classes.add(new SchedulerConfig.TaskClassSpec(normal, Map.of()));
        return new SchedulerConfig(classes,
                new SchedulerConfig.PolicySpec("importance", Map.of("lowLimit", Integer.toString(lowLimit))));
    }

    /** A manually advanced clock. */
    static final class FakeTicker implements Ticker {
        long now = 1_000_000_000L;

        @Override
        public long nanos() {
            return now;
        }

        void advanceMillis(long ms) {
            now += ms * 1_000_000L;
        }
    }
}
