package io.qosweaver.bench.mixed;

import io.qosweaver.bench.mixed.MixedResult.Goal;
import io.qosweaver.bench.mixed.MixedResult.VersionResult;
import io.qosweaver.bench.stats.Format;
import io.qosweaver.bench.stats.Samples;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What {@code results.json} of a repeated {@code bench mixed} holds: every version run once per round,
 * the order rotated by one per round, each round a complete run of its own (in {@code round-K/}, its ratios
 * against the unscheduled app of the same round), and here each figure's value per round with its median
 * and range. One process of a third-party server can differ from the next by tens of percent in CPU per
 * request on this host, so a version's figure is its spread over processes, not one process's.
 *
 * @param order    the version order of each round
 * @param othersMax per round, the most CPU anything outside the server and the drivers took in one of its
 *                 windows (idle or loaded), in cores: another job, or the host taking this VM's CPU (steal)
 * @param disturbed per round, whether {@code othersMax} exceeded {@link #DISTURBED_CORES}
 * @param versions by name, in the order given
 * @param goals    issue 13's goals per version, met in how many rounds; {@code met} only when met in every
 *                 round
 */
public record MixedRounds(String experiment, String generatedAt, String command, boolean quick, int rounds,
                          Map<String, Object> parameters, Map<String, Object> machine, Map<String, Object> app,
                          List<String> summary, Map<String, String> errors, List<List<String>> order,
                          List<Double> othersMax, List<Boolean> disturbed, Map<String, Map<String, Metric>> versions,
                          List<RoundGoal> goals) {

    /**
     * Others' CPU above which a round is disturbed: the quiet runs here had 0.00-0.05 cores, the
     * disturbed ones 0.11-0.54 and idle light p99s of 100-940 ms. Every ratio of a round is paired
     * with its unscheduled process and its peers, so one disturbed process disturbs the round.
     */
    public static final double DISTURBED_CORES = 0.05;

    /** One figure over the rounds: its value in each (null where not measured), median (nearest rank), range. */
    public record Metric(List<Double> perRound, Double median, Double min, Double max) {
        static Metric of(List<Double> perRound) {
            Samples s = Samples.of(perRound.stream().filter(Objects::nonNull).toList());
            return new Metric(perRound, s.quantile(0.5), s.quantile(0), s.max());
        }

        /** "median [min-max]", or the one value. */
        public String cell() {
            if (median == null) {
                return "-";
            }
            return Objects.equals(min, max) ? Format.cell(median)
                    : Format.cell(median) + " [" + Format.cell(min) + "-" + Format.cell(max) + "]";
        }
    }

    /**
     * One goal of one version over the rounds; {@code metUndisturbed}: met in every undisturbed round in which
     * it was measured (null when none was).
     */
    public record RoundGoal(String version, String goal, String target, List<Double> perRound, int metRounds,
                            int measuredRounds, Boolean met, int metUndisturbedRounds, int measuredUndisturbedRounds,
                            Boolean metUndisturbed) {
    }

    /**
     * The version's light p99 over the median of the idle light p99 of every process of the round:
     * one process's idle p99 moves by up to 7x with whether its idle window caught a collection
     * (Fuseki, `bench/results/mixed-fuseki/run-5/`), and the round's median of all is a steadier
     * reference for the same server than the unscheduled process's alone.
     */
    static final String LIGHT_P99_TO_ROUND_IDLE = "light_p99_to_round_idle";

    /** The figures kept per version, in the order the report shows them. */
    static final Map<String, Function<VersionResult, Double>> FIGURES = figures();

    private static Map<String, Function<VersionResult, Double>> figures() {
        Map<String, Function<VersionResult, Double>> m = new LinkedHashMap<>();
        m.put("light_p99_to_idle", VersionResult::lightP99ToIdle);
        m.put("heavy_to_unscheduled", VersionResult::heavyThroughputToUnscheduled);
        m.put("heavy_per_s", v -> v.heavy() == null ? null : v.heavy().throughputPerS());
        m.put("light_p99_ms", v -> v.light() == null ? null : v.light().p99Ms());
        m.put("idle_light_p99_ms", v -> v.idleLight() == null ? null : v.idleLight().p99Ms());
        m.put("errors", v -> v.heavy() == null || v.light() == null ? null
                : (double) (v.heavy().errors() + v.light().errors()));
        m.put("cpu_ms_per_heavy", VersionResult::serverCpuMsPerHeavy);
        m.put("light_tail_with_gc_pause", v -> number(v.lightTailGc(), "tail_with_gc_pause"));
        m.put("light_tail_requests", v -> number(v.lightTailGc(), "tail_requests"));
        m.put("other_cpu_cores", VersionResult::otherCpuCores);
        m.put("idle_other_cpu_cores", VersionResult::idleOtherCpuCores);
        return m;
    }

    /** The median (nearest rank) of the idle light p99 of the round's processes that ran; null when none. */
    static Double medianIdleP99(MixedResult r) {
        List<Double> idle = new ArrayList<>();
        for (VersionResult v : r.versions().values()) {
            if (v.error() == null && v.idleLight() != null) {
                idle.add(v.idleLight().p99Ms());
            }
        }
        return idle.isEmpty() ? null : Samples.of(idle).quantile(0.5);
    }

    private static Double number(Map<String, Object> m, String key) {
        Object o = m == null ? null : m.get(key);
        return o instanceof Number n ? n.doubleValue() : null;
    }

    /** The rounds' results side by side; {@code names}: the versions in the order given. */
    static MixedRounds of(List<String> names, List<MixedResult> rounds, List<List<String>> order, String command,
            boolean quick, Map<String, Object> parameters, Map<String, Object> machine, Map<String, Object> app,
            Map<String, String> errors) {
        List<Double> roundIdle = new ArrayList<>();
        for (MixedResult r : rounds) {
            roundIdle.add(medianIdleP99(r));
        }
        Map<String, Map<String, Metric>> versions = new LinkedHashMap<>();
        for (String name : names) {
            Map<String, Metric> figures = new LinkedHashMap<>();
            for (Map.Entry<String, Function<VersionResult, Double>> f : FIGURES.entrySet()) {
                List<Double> values = new ArrayList<>();
                for (MixedResult r : rounds) {
                    VersionResult v = r.versions().get(name);
                    values.add(v == null || v.error() != null ? null : f.getValue().apply(v));
                }
                figures.put(f.getKey(), Metric.of(values));
                if (f.getKey().equals("light_p99_to_idle")) {
                    List<Double> toRound = new ArrayList<>();
                    for (int i = 0; i < rounds.size(); i++) {
                        VersionResult v = rounds.get(i).versions().get(name);
                        Double idle = roundIdle.get(i);
                        toRound.add(v == null || v.error() != null || v.light() == null || idle == null || idle <= 0
                                ? null : v.light().p99Ms() / idle);
                    }
                    figures.put(LIGHT_P99_TO_ROUND_IDLE, Metric.of(toRound));
                }
            }
            versions.put(name, figures);
        }
        List<Double> othersMax = new ArrayList<>();
        List<Boolean> disturbed = new ArrayList<>();
        for (MixedResult r : rounds) {
            Double m = othersMax(r);
            othersMax.add(m);
            disturbed.add(m != null && m > DISTURBED_CORES);
        }
        List<RoundGoal> goals = goals(rounds, disturbed);
        return new MixedRounds("mixed", java.time.Instant.now().toString(), command, quick, rounds.size(), parameters,
                machine, app, summary(versions, goals, rounds, othersMax, disturbed), Map.copyOf(errors), List.copyOf(order),
                othersMax, disturbed, versions, goals);
    }

    /** The most CPU others took in any window of the round's processes; null when none was measured. */
    static Double othersMax(MixedResult r) {
        Double max = null;
        for (VersionResult v : r.versions().values()) {
            for (Double d : new Double[] {v.idleOtherCpuCores(), v.otherCpuCores()}) {
                if (d != null && (max == null || d > max)) {
                    max = d;
                }
            }
        }
        return max;
    }

    /** The version whose window had {@link #othersMax}, for the report. */
    private static String othersMaxVersion(MixedResult r, double max) {
        for (VersionResult v : r.versions().values()) {
            if (Objects.equals(v.idleOtherCpuCores(), max) || Objects.equals(v.otherCpuCores(), max)) {
                return v.name();
            }
        }
        return "?";
    }

    /** Each round's goals grouped by version and goal, in the order they first appear. */
    static List<RoundGoal> goals(List<MixedResult> rounds, List<Boolean> disturbed) {
        List<Map<String, Goal>> perRound = new ArrayList<>();
        Map<String, Goal> firstSeen = new LinkedHashMap<>();
        for (MixedResult r : rounds) {
            Map<String, Goal> m = new LinkedHashMap<>();
            for (Goal g : r.goals()) {
                m.put(g.version() + "\u0000" + g.goal(), g);
                firstSeen.putIfAbsent(g.version() + "\u0000" + g.goal(), g);
            }
            perRound.add(m);
        }
        List<RoundGoal> out = new ArrayList<>();
        for (Map.Entry<String, Goal> e : firstSeen.entrySet()) {
            List<Double> values = new ArrayList<>();
            List<String> targets = new ArrayList<>();
            int met = 0;
            int measured = 0;
            int quietMet = 0;
            int quietMeasured = 0;
            for (int i = 0; i < perRound.size(); i++) {
                Goal g = perRound.get(i).get(e.getKey());
                values.add(g == null ? null : g.value());
                if (g != null && !targets.contains(g.target())) {
                    targets.add(g.target());
                }
                if (g != null && g.met() != null) {
                    measured++;
                    met += g.met() ? 1 : 0;
                    if (!disturbed.get(i)) {
                        quietMeasured++;
                        quietMet += g.met() ? 1 : 0;
                    }
                }
            }
            // a peer's figures differ per round, so its goal's target does too
            String target = targets.size() == 1 ? targets.get(0) : "per round: " + String.join("; ", targets);
            out.add(new RoundGoal(e.getValue().version(), e.getValue().goal(), target, values, met, measured,
                    measured == 0 ? null : met == rounds.size(), quietMet, quietMeasured,
                    quietMeasured == 0 ? null : quietMet == quietMeasured));
        }
        return out;
    }

    static List<String> summary(Map<String, Map<String, Metric>> versions, List<RoundGoal> goals,
            List<MixedResult> results, List<Double> othersMax, List<Boolean> disturbed) {
        int rounds = results.size();
        List<String> out = new ArrayList<>();
        out.add(rounds + " rounds, the version order rotated by one per round; each figure is the median over the "
                + "rounds [range]; ratios are against the unscheduled app of the same round.");
        for (int i = 0; i < rounds; i++) {
            if (disturbed.get(i)) {
                double max = othersMax.get(i);
                out.add(String.format(java.util.Locale.ROOT, "round %d DISTURBED: others' CPU up to %.2f cores (%s's"
                        + " window), above %.2f: its figures are given, its goals counted apart", i + 1, max,
                        othersMaxVersion(results.get(i), max), DISTURBED_CORES));
            }
        }
        for (Map.Entry<String, Map<String, Metric>> v : versions.entrySet()) {
            Map<String, Metric> f = v.getValue();
            out.add(String.format("%s: light p99 %s x idle (%s x the round's median idle, %s ms), heavy %s of"
                    + " unscheduled (%s/s), CPU ms per heavy %s, errors %s", v.getKey(), f.get("light_p99_to_idle").cell(),
                    f.get(LIGHT_P99_TO_ROUND_IDLE).cell(), f.get("light_p99_ms").cell(),
                    f.get("heavy_to_unscheduled").cell(), f.get("heavy_per_s").cell(), f.get("cpu_ms_per_heavy").cell(),
                    f.get("errors").cell()));
        }
        for (RoundGoal g : goals) {
            if (!Boolean.TRUE.equals(g.met())) {
                out.add("goal " + (g.met() == null ? "not measured" : "NOT met in every round") + ": " + g.version()
                        + ": " + g.goal() + " (target " + g.target() + "): met in " + g.metRounds() + " of " + rounds
                        + " rounds" + (disturbed.contains(true) ? " (" + g.metUndisturbedRounds() + " of "
                        + g.measuredUndisturbedRounds() + " undisturbed)" : "") + ", values "
                        + g.perRound().stream().map(Format::cell).toList());
            }
        }
        long met = goals.stream().filter(g -> Boolean.TRUE.equals(g.met())).count();
        out.add(met + " of " + goals.size() + " goals met in every round.");
        if (disturbed.contains(true)) {
            long quiet = goals.stream().filter(g -> Boolean.TRUE.equals(g.metUndisturbed())).count();
            out.add(quiet + " of " + goals.size() + " goals met in every undisturbed round (" + disturbed.stream()
                    .filter(d -> !d).count() + " of " + rounds + " rounds undisturbed).");
        }
        return out;
    }
}
