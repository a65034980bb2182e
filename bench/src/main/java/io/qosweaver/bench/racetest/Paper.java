package io.qosweaver.bench.racetest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Q-JVM paper's RaceTest numbers (section 4; a SPARC uniprocessor, green threads, Solaris),
 * put beside ours in the report and in {@code results.json}.
 */
final class Paper {
    private Paper() {}

    /** Table 1 and 3: the standard JVM's aggregate throughput (loops/s, lightly loaded) for 1, 4, 10 runners. */
    static final long[] STANDARD = {602_797, 602_084, 601_040};
    /** Table 3: Q-JVM, configuration 1 (each runner 1.5 %) and 2 (equal fractions, 80 % in all). */
    static final long[] CONFIG1 = {601_399, 599_860, 599_714};
    static final long[] CONFIG2 = {601_582, 600_939, 599_882};

    /** The paper's throughput loss of a configuration against the standard JVM, in %, for runner count index i. */
    static double lossPct(long[] config, int i) {
        return (STANDARD[i] - config[i]) * 100.0 / STANDARD[i];
    }

    static Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("table1_aggregate_loops_per_s_lightly_loaded", List.of(602_797, 602_084, 601_040));
        m.put("table1_aggregate_loops_per_s_heavily_loaded", List.of(268_221, 303_672, 333_136));
        m.put("table1_jitter_sd_pct_lightly_loaded", List.of(2.52, 22.05, 26.04));
        m.put("table1_jitter_sd_pct_heavily_loaded", List.of(10.53, 27.70, 33.97));
        m.put("table1_runners", List.of(1, 4, 10));
        m.put("table2_one_runner_at_80pct", Map.of(
                "lightly_loaded_ts", List.of(601_582, 2.76), "busy_ts", List.of(315_971, 16.44),
                "lightly_loaded_rt_os_thread_15pct", List.of(521_247, 1.84),
                "busy_rt_os_thread_15pct", List.of(507_638, 2.65)));
        m.put("table3_config1_each_1_5pct", List.of(601_399, 599_860, 599_714));
        m.put("table3_config2_equal_80pct", List.of(601_582, 600_939, 599_882));
        m.put("table3_loss_pct", "0.19 to 0.36");
        m.put("fig3_fairness_10_runners_9pct", "Q-JVM: every runner within 0.1% of the mean; standard JVM: about 1%");
        m.put("table4_partition_70_20_loops_per_s", List.of(442_728, 158_069));
        m.put("table4_partition_70_20_share_of_capacity", List.of(0.73, 0.26));
        return m;
    }
}
