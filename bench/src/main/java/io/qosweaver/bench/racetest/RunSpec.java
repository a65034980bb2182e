package io.qosweaver.bench.racetest;

import java.util.List;
import java.util.Map;

/**
 * One run of RaceTest: a JVM of its own with its runners, managed or not.
 *
 * @param version   {@code unmanaged} (all at priority 5), {@code java priorities}, {@code nice},
 *                  {@code cgroup} (the baselines) or {@code mtr-ls} (the Java API under the agent)
 * @param cores     the policy's P ({@code cores}), null without the agent
 * @param reserved  the policy's reserved share, null without the agent
 * @param oneCpu    the JVM restricted to one CPU ({@code taskset}): the baselines of partitioning,
 *                  whose fractions are of one core as MTR-LS's with P = 1 are
 * @param competingLoad a CPU load outside the JVM during the run (the paper's GenLoad)
 */
record RunSpec(String id, String section, String config, String version, Integer cores, Double reserved,
               boolean oneCpu, boolean competingLoad, double durationS, List<Runner> runners,
               Map<String, Double> groups) {

    RunSpec {
        runners = List.copyOf(runners);
        groups = Map.copyOf(groups);
    }

    boolean managed() {
        return cores != null;
    }

    /**
     * A runner: its fraction (asked under MTR-LS, mapped for the baselines), Java priority, group,
     * and the nice value or cgroup weight the baselines give its thread (null: none).
     */
    record Runner(String name, double fraction, int priority, String group, Integer nice, Integer weight) {
    }
}
