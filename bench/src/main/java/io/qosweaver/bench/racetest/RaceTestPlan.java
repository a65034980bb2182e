package io.qosweaver.bench.racetest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs of {@code bench racetest}, in order: the capacity run, then each section's
 * configurations (bench/README.md, "racetest", says why these).
 */
final class RaceTestPlan {
    static final String UNMANAGED = "unmanaged", PRIORITIES = "java priorities", NICE = "nice", CGROUP = "cgroup",
            MTR_LS = "mtr-ls";
    /** Overhead: the paper's runner counts, and its two configurations (Table 3). */
    static final int[] OVERHEAD_RUNNERS = {1, 4, 10};
    static final double CONFIG1_FRACTION = 0.015, CONFIG2_TOTAL = 0.80;
    /** Fairness: ten runners at 9 % (Fig. 3). */
    static final int FAIRNESS_RUNNERS = 10;
    static final double FAIRNESS_FRACTION = 0.09;
    /** The reserved share of the fairness and partitioning runs (the policy's default). */
    static final double RESERVED = 0.05;
    /** Jitter: one runner at 80 %, the OS thread at 15 % or none (Table 2). */
    static final double JITTER_FRACTION = 0.80, JITTER_RESERVED = 0.15;

    private RaceTestPlan() {}

    /** A partitioning configuration: runners' fractions, and groups (name to fraction). */
    record Partition(String config, Map<String, Double> fractions, Map<String, String> groupOf,
                     Map<String, Double> groups) {
    }

    static List<Partition> partitions() {
        Map<String, Double> g3 = new LinkedHashMap<>();
        g3.put("g1", 0.20);
        g3.put("g2", 0.10);
        g3.put("g3", 0.10);
        g3.put("solo", 0.50);
        return List.of(
                new Partition("70/20", ordered("r70", 0.70, "r20", 0.20), Map.of(), Map.of()),
                new Partition("50/30/10", ordered("r50", 0.50, "r30", 0.30, "r10", 0.10), Map.of(), Map.of()),
                new Partition("three in a 40% group, one at 50%", g3,
                        Map.of("g1", "group40", "g2", "group40", "g3", "group40"), Map.of("group40", 0.40)));
    }

    private static Map<String, Double> ordered(Object... kv) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], (Double) kv[i + 1]);
        }
        return m;
    }

    /**
     * @param cgroupReason null when cgroup v2 weights can be applied here, else why not (the cgroup
     *                     runs are then left out, and the report says so)
     */
    static List<RunSpec> runs(RaceTestParams p, int machineCores, String cgroupReason) {
        List<RunSpec> runs = new ArrayList<>();
        double d = p.durationS();
        runs.add(plain("capacity", "capacity", "1 runner alone", UNMANAGED, false, false, d, equal(1, 0)));
        if (p.has("overhead")) {
            for (int n : OVERHEAD_RUNNERS) {
                // unmanaged before and after the managed runs: their mean is the baseline (drift)
                if (n > 1) {
                    runs.add(plain("overhead-" + n + "-unmanaged-a", "overhead", n + " runners", UNMANAGED, false,
                            false, d, equal(n, 0)));
                }
                runs.add(managed("overhead-" + n + "-config1", "overhead", n + " runners, each 1.5%", machineCores, 0.0,
                        false, d, equal(n, CONFIG1_FRACTION), Map.of()));
                runs.add(managed("overhead-" + n + "-config2", "overhead", n + " runners, equal, 80% in all",
                        machineCores, 0.0, false, d, equal(n, CONFIG2_TOTAL / n), Map.of()));
                runs.add(plain("overhead-" + n + "-unmanaged-b", "overhead", n + " runners", UNMANAGED, false, false, d,
                        equal(n, 0)));
            }
        }
        if (p.has("fairness")) {
            double f = p.fairnessDurationS();
            runs.add(plain("fairness-unmanaged", "fairness", "10 runners, priority 5", UNMANAGED, false, false, f,
                    equal(FAIRNESS_RUNNERS, FAIRNESS_FRACTION)));
            runs.add(managed("fairness-mtr-ls", "fairness", "10 runners at 9%", machineCores, RESERVED, false, f,
                    equal(FAIRNESS_RUNNERS, FAIRNESS_FRACTION), Map.of()));
        }
        if (p.has("partitioning")) {
            for (Partition part : partitions()) {
                String id = "partition-" + part.config().replaceAll("[^0-9a-z]+", "-");
                runs.add(managed(id + "-mtr-ls", "partitioning", part.config(), 1, RESERVED, false, d,
                        runners(part, false, false), part.groups()));
                runs.add(plain(id + "-priorities", "partitioning", part.config(), PRIORITIES, true, false, d,
                        runners(part, true, false)));
                runs.add(plain(id + "-nice", "partitioning", part.config(), NICE, true, false, d,
                        runners(part, false, true)));
                if (cgroupReason == null) {
                    runs.add(plain(id + "-cgroup", "partitioning", part.config(), CGROUP, true, false, d,
                            weighted(part)));
                }
            }
        }
        if (p.has("jitter")) {
            for (boolean load : new boolean[] {false, true}) {
                String l = load ? "loaded" : "idle";
                List<RunSpec.Runner> one = equal(1, JITTER_FRACTION);
                runs.add(plain("jitter-" + l + "-unmanaged", "jitter", l, UNMANAGED, false, load, d, one));
                runs.add(managed("jitter-" + l + "-mtr-ls-reserved-0", "jitter", l, 1, 0.0, load, d, one, Map.of()));
                runs.add(managed("jitter-" + l + "-mtr-ls-reserved-15", "jitter", l, 1, JITTER_RESERVED, load, d, one,
                        Map.of()));
            }
        }
        return runs;
    }

    private static RunSpec plain(String id, String section, String config, String version, boolean oneCpu,
            boolean load, double d, List<RunSpec.Runner> runners) {
        return new RunSpec(id, section, config, version, null, null, oneCpu, load, d, runners, Map.of());
    }

    private static RunSpec managed(String id, String section, String config, int cores, double reserved, boolean load,
            double d, List<RunSpec.Runner> runners, Map<String, Double> groups) {
        return new RunSpec(id, section, config, MTR_LS, cores, reserved, false, load, d, runners, groups);
    }

    private static List<RunSpec.Runner> equal(int n, double fraction) {
        List<RunSpec.Runner> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(new RunSpec.Runner("runner-" + i, fraction, Thread.NORM_PRIORITY, "-", null, null));
        }
        return l;
    }

    /** The fractions as asked (MTR-LS), or mapped to Java priorities or nice values (the baselines). */
    private static List<RunSpec.Runner> runners(Partition part, boolean priorities, boolean nice) {
        double max = part.fractions().values().stream().mapToDouble(Double::doubleValue).max().orElse(1);
        List<RunSpec.Runner> l = new ArrayList<>();
        part.fractions().forEach((name, f) -> l.add(new RunSpec.Runner(name, f,
                priorities ? javaPriority(f, max) : Thread.NORM_PRIORITY, part.groupOf().getOrDefault(name, "-"),
                nice ? niceValue(f, max) : null, null)));
        return l;
    }

    private static List<RunSpec.Runner> weighted(Partition part) {
        List<RunSpec.Runner> l = new ArrayList<>();
        part.fractions().forEach((name, f) -> l.add(new RunSpec.Runner(name, f, Thread.NORM_PRIORITY,
                part.groupOf().getOrDefault(name, "-"), null, cgroupWeight(f))));
        return l;
    }

    /** The largest fraction gets priority 10, the others in proportion (at least 1). */
    static int javaPriority(double f, double max) {
        return (int) Math.max(Thread.MIN_PRIORITY, Math.min(Thread.MAX_PRIORITY, Math.round(10 * f / max)));
    }

    /**
     * The nice value whose CFS weight is to the largest fraction's (nice 0) as {@code f} is to it:
     * each nice level is a factor of about 1.25 in weight. Only upward (an unprivileged process may
     * lower its threads' priority, not raise it).
     */
    static int niceValue(double f, double max) {
        return (int) Math.max(0, Math.min(19, Math.round(Math.log(max / f) / Math.log(1.25))));
    }

    /** cgroup v2 {@code cpu.weight} in proportion to the fraction (1..10000; 100 is the default). */
    static int cgroupWeight(double f) {
        return (int) Math.max(1, Math.min(10_000, Math.round(f * 1000)));
    }
}
