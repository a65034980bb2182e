package io.qosweaver.bench.adaptive;

import io.qosweaver.bench.load.ClassResult;
import java.util.List;
import java.util.Map;

/**
 * What {@code bench adaptive} writes to {@code results.json}.
 *
 * @param feasible     the up-to-date pages/s measured here with the low limit fixed at lowMax (the
 *                     least) and at lowMin (the most): the range a target can be held in
 * @param targets      the targets run, in pages/s on this machine, with the paper target each stands for
 * @param fig25Target  the target of the Fig. 24/25 comparison and of the run with collection
 * @param runs         every run by name, in the order run
 * @param sweep        Fig. 26: one point per target run
 * @param noise        how far a fixed limit's own moving average strays (the probes), and the settling
 *                     times within that band
 * @param goals        the goals and whether they were met (null: not measured)
 * @param paper        the paper's figures beside ours, one row each
 */
public record AdaptiveResult(String experiment, String generatedAt, String command, boolean quick,
                             Map<String, Object> parameters, Map<String, Object> machine, FeasibleRange feasible,
                             List<Target> targets, Double fig25Target, Map<String, Run> runs, List<SweepPoint> sweep,
                             NoiseFloor noise, List<Goal> goals, List<PaperRow> paper, List<String> summary,
                             Map<String, String> errors) {

    /** Middle pages/s at the two fixed limits; {@code low} = at lowMax chart threads. */
    public record FeasibleRange(Double low, Double high, int lowMax, int lowMin, String how) {
        public boolean contains(double target) {
            return low != null && high != null && target >= low && target <= high;
        }
    }

    /** A target here and the paper's target it was scaled from (null: given with --targets). */
    public record Target(double target, Double paperTarget) {
    }

    /**
     * One run (one app process).
     *
     * @param kind              {@code probe} (fixed low limit), {@code original} (no agent),
     *                          {@code target} (the adaptive policy) or {@code collector} (with collection)
     * @param middlePerS        up-to-date pages/s over the steady part (after {@code settle_s})
     * @param errorPct          (middle_per_s - target) / target, percent
     * @param settlingS         seconds after the up-to-date clients arrived until the 3 s centred moving
     *                          average stays within 2 % of the target to the window's end; null: never
     * @param settling5S        the same on a 5 s centred moving average (the paper's averaging)
     * @param fiveSecondWithin  of the steady part's 5 s averages (the paper's), how many are within 2 %
     * @param lowLimitMin       the adaptive low limit's range over the steady part (the agent's cap gauge)
     * @param middleOutsidePerS with collection: up-to-date pages/s in the seconds outside collections
     * @param middleDuringPerS  and in the seconds mostly inside one
     * @param series            the window per second: completions, moving average, low limit, running charts
     */
    public record Run(String name, String kind, Double target, Integer fixedLowLimit, boolean collector,
                      List<String> jvmFlags, String policy, String appLog, String error, double windowS,
                      double settleS, Double middlePerS, Double errorPct, Double settlingS, Double settling5S,
                      Integer fiveSecondBlocks, Integer fiveSecondWithin, Double chartPerS,
                      Double middleMeanMs, Double middleP99Ms, Double chartMeanMs, Double lowLimitMin,
                      Double lowLimitMax, Double lowLimitMean, Integer collections, Double collectionTimeMeanMs,
                      Double middleOutsidePerS, Double middleDuringPerS, ClassResult levels, ClassResult chart,
                      String appFirstError, List<Second> series) {
    }

    /** One second of a run's window. */
    public record Second(int t, long middle, long chart, double middleMa3, Double lowLimit, Double runningCharts,
                         boolean collecting) {
    }

    /** Fig. 26: a target, what was achieved, and the low limit that held it. */
    public record SweepPoint(double target, Double paperTarget, boolean feasible, Double achieved, Double errorPct,
                             Double settlingS, Double settling5S, Double lowLimitMean, Double lowLimitMin, Double lowLimitMax) {
    }

    /**
     * The noise floor of the settling measure: with the limit fixed (the probes) the up-to-date pages'
     * 3 s centred moving average still strays from its own mean by up to {@code ma3MaxPct} (over the
     * steady part, the larger of the probes); {@code bandPct} = the larger of that and the goal's 2 %;
     * {@code settlingS}: per target or step run, the settling time in that band.
     */
    public record NoiseFloor(Double ma3MaxPct, Double bandPct, String how, Map<String, Double> settlingS) {
    }

    /** A goal of issue 14, what was measured, and whether it holds. */
    public record Goal(String goal, String measured, Boolean met) {
    }

    /** A figure of the paper's 5.5 beside ours. */
    public record PaperRow(String figure, String metric, String paper, String ours) {
    }
}
