package io.qosweaver.bench.tracing;

import java.util.List;
import java.util.Map;

/**
 * What {@code bench tracing} writes to {@code results.json}.
 *
 * @param runs every run, in the order they ran
 * @param configs each configuration's runs summarised, and its overhead against the tracer off,
 *                paired within each repeat
 * @param thesis the thesis' overhead tables (3.2, 3.4, 3.6), for the report's comparison
 */
public record TracingResult(String experiment, String generatedAt, String command, boolean quick,
        Map<String, Object> parameters, Map<String, Object> machine, List<Run> runs, List<ConfigSummary> configs,
        List<ThesisRow> thesis, List<Goal> goals, List<String> summary, Map<String, String> errors) {

    /**
     * One run: one app process, one configuration, its measured window.
     *
     * @param order its place within the repeat (0: first)
     * @param traceBytes the trace file's size, or null without tracing (or when none was written)
     * @param traceEvents events the tracer wrote and lost, from its statistics page (null: none written)
     */
    public record Run(int repeat, int order, String config, long requests, long errors, double throughputPerS,
                      Double meanMs, Double p50Ms, Double p99Ms, Long traceBytes, Long traceEvents, Long traceLost,
                      String log) {
    }

    /**
     * A configuration over its runs. Overheads are paired: each repeat's run against the same repeat's
     * run with the tracer off (positive: worse with the tracer); median and range over the repeats.
     */
    public record ConfigSummary(String config, String levels, String description, int runs,
                                Double throughputMedianPerS, Double throughputMinPerS, Double throughputMaxPerS,
                                Double meanMsMedian, Double p99MsMedian,
                                Double throughputLossPctMedian, Double throughputLossPctMin, Double throughputLossPctMax,
                                Double meanIncreasePctMedian, Double meanIncreasePctMin, Double meanIncreasePctMax,
                                Long traceBytesMedian, Long traceLostMax) {
    }

    /** One row of the thesis' overhead tables (execution time of LU kernels in ms, 4 threads). */
    public record ThesisRow(String table, String what, String size, long originalMs, long instrumentedMs,
                            double overheadPct) {
    }

    public record Goal(String goal, Boolean met, String detail) {
    }
}
