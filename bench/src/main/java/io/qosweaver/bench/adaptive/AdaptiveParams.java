package io.qosweaver.bench.adaptive;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The knobs of {@code bench adaptive}, full and quick (bench/README.md says why these values).
 *
 * @param rivers         rivers of the app: the up-to-date page is a table of all of them
 * @param chartHours     chart window (the paper's 5.5: 12 h)
 * @param historyHours   history seeded at start-up (what the charts read)
 * @param chartClients   closed-loop chart clients (paper: 40)
 * @param levelsClients  closed-loop clients of the up-to-date page (paper: 100)
 * @param warmupS        each warm-up phase: one client per core of each class, then the full load
 * @param preStepS       charts alone before the up-to-date clients arrive (the change of load
 *                       the settling time is measured from; at least two policy periods, so the
 *                       policy has seen a period without middle demand)
 * @param windowS        the measured window, from the arrival of the up-to-date clients
 * @param settleS        seconds at the window's start left out of the steady-state figures
 * @param collectorPeriodS the collector's period in the run with collection (d)
 * @param collectorWindowS the measured window of that run
 * @param lowMin         the policy's smallest low limit (also the fixed limit of the upper probe)
 * @param lowMax         the largest (also the fixed limit of the lower probe)
 * @param middleCap      running up-to-date pages while a collection runs (paper: 15)
 * @param paperTargets   the paper's sweep (Fig. 26), scaled into the range measured here
 * @param paperFig25Target the paper's single target (Fig. 25)
 * @param withBaseline   run the app without QoSWeaver too (Fig. 24)
 * @param withCollector  run (d), with the collector (Fig. 27)
 * @param driverWarmupS  an unmeasured run first, so that the load driver (in this JVM) is compiled
 *                       before the first measured run; 0: none
 * @param policyParams   extra {@code policy:} parameters of every target run (e.g. {@code dither},
 *                       {@code gain}); the probes fix the limit, so they do not need them
 * @param oneProcess     every run without the collector in one app process (swapped, unwoven for
 *                       the baseline); false: a process per run
 */
public record AdaptiveParams(int rivers, int chartHours, int historyHours, int chartClients, int levelsClients,
                             double warmupS, double preStepS, double windowS, double settleS,
                             double collectorPeriodS, double collectorWindowS, int lowMin, int lowMax, int middleCap,
                             List<Double> paperTargets, double paperFig25Target, boolean withBaseline,
                             boolean withCollector, double driverWarmupS, Map<String, String> policyParams,
                             boolean oneProcess) {

    /** The paper's sweep (Fig. 26: 25 to 250 pages/s in steps of 25) and the range it tracked. */
    public static final List<Double> PAPER_TARGETS = List.of(25.0, 50.0, 75.0, 100.0, 125.0, 150.0, 175.0, 200.0,
            225.0, 250.0);
    public static final double PAPER_TRACKED_LOW = 125;
    public static final double PAPER_TRACKED_HIGH = 200;
    public static final double PAPER_FIG25_TARGET = 150;
    /** The changes of target measured in one process: from Fig. 25's 150 up to 175, then down to 125 (paper scale). */
    public static final double PAPER_STEP_UP = 175;
    public static final double PAPER_STEP_DOWN = 125;

    public AdaptiveParams {
        paperTargets = List.copyOf(paperTargets);
        policyParams = Map.copyOf(new java.util.TreeMap<>(policyParams));
        for (String k : List.of("target", "lowMin", "lowMax", "lowInitial", "middleCap", "middlePacing")) {
            if (policyParams.containsKey(k)) {
                throw new IllegalArgumentException("the policy parameter " + k + " is set by the experiment itself"
                        + " (see --targets and --low-max)");
            }
        }
        if (rivers < 1 || chartClients < 1 || levelsClients < 1 || windowS <= settleS || lowMin < 1 || lowMax < lowMin) {
            throw new IllegalArgumentException("rivers, clients and lowMin must be positive, the window longer "
                    + "than its settling part, lowMax >= lowMin");
        }
    }

    /**
     * The full run: 100 rivers (the up-to-date page's table; the app's default), 12 h charts as
     * in the paper's 5.5, 60 s measured after 10 s of settling, a collection every 15 s over 120 s.
     */
    public static AdaptiveParams full() {
        return new AdaptiveParams(100, 12, 12, 40, 100, 15, 5, 70, 10, 15, 120, 1, 6, 15, PAPER_TARGETS,
                PAPER_FIG25_TARGET, true, true, 60, Map.of(), true);
    }

    /** CI-sized: 3 h charts, short phases, the two probes and one target; no baseline, no collector. */
    public static AdaptiveParams quick() {
        return new AdaptiveParams(100, 3, 3, 40, 100, 10, 3, 25, 8, 15, 45, 1, 6, 15, List.of(),
                PAPER_FIG25_TARGET, false, false, 30, Map.of(), true);
    }

    public AdaptiveParams withPaperTargets(List<Double> t) {
        return new AdaptiveParams(rivers, chartHours, historyHours, chartClients, levelsClients, warmupS, preStepS,
                windowS, settleS, collectorPeriodS, collectorWindowS, lowMin, lowMax, middleCap, t, paperFig25Target,
                withBaseline, withCollector, driverWarmupS, policyParams, oneProcess);
    }

    public AdaptiveParams withWindows(double window, double settle) {
        return new AdaptiveParams(rivers, chartHours, historyHours, chartClients, levelsClients, warmupS, preStepS,
                window, settle, collectorPeriodS, collectorWindowS, lowMin, lowMax, middleCap, paperTargets,
                paperFig25Target, withBaseline, withCollector, driverWarmupS, policyParams, oneProcess);
    }

    /** The same with lowMax set: the range of the adaptive limit (and the lower probe). */
    public AdaptiveParams withLowMax(int max) {
        return new AdaptiveParams(rivers, chartHours, historyHours, chartClients, levelsClients, warmupS, preStepS,
                windowS, settleS, collectorPeriodS, collectorWindowS, lowMin, max, middleCap, paperTargets,
                paperFig25Target, withBaseline, withCollector, driverWarmupS, policyParams, oneProcess);
    }

    /** These extra policy parameters in every target run. */
    public AdaptiveParams withPolicyParams(Map<String, String> params) {
        return new AdaptiveParams(rivers, chartHours, historyHours, chartClients, levelsClients, warmupS, preStepS,
                windowS, settleS, collectorPeriodS, collectorWindowS, lowMin, lowMax, middleCap, paperTargets,
                paperFig25Target, withBaseline, withCollector, driverWarmupS, params, oneProcess);
    }

    /** The same with every run without the collector in one process (true) or each in its own. */
    public AdaptiveParams withOneProcess(boolean one) {
        return new AdaptiveParams(rivers, chartHours, historyHours, chartClients, levelsClients, warmupS, preStepS,
                windowS, settleS, collectorPeriodS, collectorWindowS, lowMin, lowMax, middleCap, paperTargets,
                paperFig25Target, withBaseline, withCollector, driverWarmupS, policyParams, one);
    }

    /** The changes of target run in the full experiment (not in quick: they need the sweep's range). */
    public boolean withSteps() {
        return withBaseline;
    }

    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rivers", rivers);
        m.put("chart_hours", chartHours);
        m.put("history_hours", historyHours);
        m.put("chart_clients", chartClients);
        m.put("levels_clients", levelsClients);
        m.put("warmup_s", warmupS);
        m.put("warmup", "two phases of warmup_s each: one client per core of each class, then the full load");
        m.put("pre_step_s", preStepS);
        m.put("window_s", windowS);
        m.put("settle_s", settleS);
        m.put("collector_period_s", collectorPeriodS);
        m.put("collector_window_s", collectorWindowS);
        m.put("low_min", lowMin);
        m.put("low_max", lowMax);
        m.put("middle_cap", middleCap);
        m.put("paper_targets", paperTargets);
        m.put("paper_fig25_target", paperFig25Target);
        m.put("driver_warmup_s", driverWarmupS);
        m.put("moving_average_s", AdaptiveAnalysis.MA_WIDTH);
        m.put("moving_average", "centred: the buckets t-1, t and t+1");
        m.put("tolerance", AdaptiveAnalysis.TOLERANCE);
        m.put("policy_params", policyParams);
        m.put("one_process", oneProcess);
        m.put("processes", oneProcess ? "every run without the collector in one app process: each run's policy file"
                + " swapped in, unwoven for the baseline" : "one app process per run");
        return m;
    }
}
