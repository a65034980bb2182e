package io.qosweaver.bench.racetest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The knobs of {@code bench racetest}, full and quick.
 *
 * @param durationS         measured seconds per run (one sample a second)
 * @param warmupS           seconds before the first sample (the JIT, the first rounds of L)
 * @param fairnessDurationS measured seconds of the fairness runs: whole 10 s windows
 * @param sections          which parts run ({@link #SECTIONS}); the capacity run always does
 * @param policyParams      extra parameters of the managed runs' mtr-ls policy ({@code quantum},
 *                          {@code sample}, ...: scheduler/README.md), checked by the policy itself
 *                          at the agent's start; none by default
 */
public record RaceTestParams(double durationS, double warmupS, double fairnessDurationS, List<String> sections,
                             Map<String, String> policyParams) {
    public static final List<String> SECTIONS = List.of("overhead", "fairness", "partitioning", "jitter");
    /** The fairness window: equal shares within 1 % of the mean over 10 s windows. */
    public static final int WINDOW_S = 10;

    /** Managed runs' parameters that the harness sets itself (P, the reserved share). */
    static final Set<String> HARNESS_KEYS = Set.of("name", "cores", "reserved");

    public RaceTestParams(double durationS, double warmupS, double fairnessDurationS, List<String> sections) {
        this(durationS, warmupS, fairnessDurationS, sections, Map.of());
    }

    public RaceTestParams {
        sections = List.copyOf(sections);
        policyParams = Map.copyOf(policyParams);
        for (String k : policyParams.keySet()) {
            if (HARNESS_KEYS.contains(k) || !k.matches("[A-Za-z][A-Za-z0-9.]*")) {
                throw new IllegalArgumentException("policy parameter '" + k + "' cannot be set here ("
                        + (HARNESS_KEYS.contains(k) ? "each run sets it" : "not a parameter name") + ")");
            }
        }
        for (String v : policyParams.values()) {
            if (!v.matches("[A-Za-z0-9.%-]+")) { // durations, fractions, 1x, on-demand: no YAML syntax
                throw new IllegalArgumentException("policy parameter value '" + v + "' is not a plain value");
            }
        }
        if (durationS < 2 || warmupS < 0 || fairnessDurationS < WINDOW_S) {
            throw new IllegalArgumentException("runs need at least 2 measured seconds, the fairness runs at least one "
                    + WINDOW_S + " s window, and the warm-up cannot be negative (duration " + durationS
                    + " s, fairness " + fairnessDurationS + " s, warm-up " + warmupS + " s)");
        }
        for (String s : sections) {
            if (!SECTIONS.contains(s)) {
                throw new IllegalArgumentException("unknown section '" + s + "'; choose among " + SECTIONS);
            }
        }
    }

    /** 30 s runs, 60 s (six windows) for fairness: about 20 minutes. */
    public static RaceTestParams full() {
        return new RaceTestParams(30, 5, 60, SECTIONS);
    }

    /** 5 s runs, one 10 s window for fairness: about 4 minutes. */
    public static RaceTestParams quick() {
        return new RaceTestParams(5, 2, WINDOW_S, SECTIONS);
    }

    public RaceTestParams withSections(List<String> s) {
        return new RaceTestParams(durationS, warmupS, fairnessDurationS, s, policyParams);
    }

    public RaceTestParams withPolicyParams(Map<String, String> params) {
        return new RaceTestParams(durationS, warmupS, fairnessDurationS, sections, params);
    }

    boolean has(String section) {
        return Set.copyOf(sections).contains(section);
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("duration_s", durationS);
        m.put("warmup_s", warmupS);
        m.put("fairness_duration_s", fairnessDurationS);
        m.put("fairness_window_s", WINDOW_S);
        m.put("sections", sections);
        m.put("policy_params", new java.util.TreeMap<>(policyParams));
        return m;
    }
}
