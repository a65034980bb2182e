package io.qosweaver.bench.hooks;

import java.util.List;
import java.util.Map;

/**
 * What {@code bench hooks} writes to {@code results.json}.
 *
 * @param versions each version's runs summarised; ratios are paired with the no-agent run of the same repeat
 * @param memory per process with hooks: join points, class bytes and metaspace, original and woven
 * @param identity per unweave: the woven classes and how many the JVM defined byte-identical to their original
 * @param resolutionPct the no-agent runs' own spread of the mean response time (max - min) / median, in %:
 *     a difference smaller than this is not resolved; null with fewer than two such runs
 * @param paper the paper's numbers (Fig. 7 and the text), for the report's comparison
 * @param perRequest per process, from the phases after its window: CPU per request, and hooks fired per request
 * @param hookCost one idle hook's cost from JMH ({@code --hook-cost FILE}); null when not given
 * @param cost per hooked version: hooks per request x ns per hook over the CPU per request
 */
public record HooksResult(String experiment, String generatedAt, String command, boolean quick,
        Map<String, Object> parameters, Map<String, Object> machine, List<Run> runs, List<VersionSummary> versions,
        List<Memory> memory, List<Identity> identity, Double resolutionPct, List<PaperRow> paper, List<Goal> goals,
        List<String> summary, Map<String, String> errors, List<PerRequest> perRequest, HookCost hookCost,
        List<Cost> cost) {

    /** One measured window of one version; {@code order}: the process's place within the repeat. */
    public record Run(int repeat, int order, String version, long requests, long errors, double throughputPerS,
                      Double meanMs, Double p50Ms, Double p99Ms, String log) {
    }

    /** A version over its runs: medians and ranges, and its ratio to the no-agent run of the same repeat. */
    public record VersionSummary(String version, String description, int runs, Double meanMsMedian, Double meanMsMin,
                                 Double meanMsMax, Double p50MsMedian, Double p99MsMedian, Double p99MsMin,
                                 Double p99MsMax, Double meanRatioMedian, Double meanRatioMin, Double meanRatioMax,
                                 Double p99RatioMedian) {
    }

    /**
     * What the hooks of one process take. Join points: executions + calls for the hooks versions,
     * the policy's woven join points for the policy. Metaspace: both versions of every woven class
     * defined in class loaders of the agent's own (parsing only), medians of five.
     *
     * @param hookSites hook instructions (an entry, each return, each call); null for the policy
     */
    public record Memory(int repeat, String version, long joinPoints, Long executions, Long calls, Long hookSites,
                         int classesWoven, long originalClassBytes, long wovenClassBytes, long metaspaceOriginalBytes,
                         long metaspaceWovenBytes, int metaspaceFailed, Double codeBytesPerJoinPoint,
                         Double codeBytesPerHookSite, Double metaspaceBytesPerJoinPoint) {
    }

    /** After one {@code ctl unweave}: classes the taps saw woven, and those now byte-identical to their original. */
    public record Identity(int repeat, String version, int classesWoven, int identical, List<String> differing) {
    }

    /** One of the paper's versions of MyServer: mean response time in microseconds (null where the paper gives none). */
    public record PaperRow(String version, Double responseUs, Double ratio, String note) {
    }

    /**
     * One process's phases after its measured window, both at the window's load: a CPU phase (the
     * app process's CPU time over it, all its threads: JIT, GC and timers too, so a request's CPU is
     * over-stated and a cost in % of it under-stated only by those) and, in the hooks versions, a
     * counting phase ({@code ctl hooks count start|stop}: every hook the process fires, background
     * threads' too, over the requests completed in the phase). Null where not measured.
     */
    public record PerRequest(int repeat, String version, long cpuRequests, Double cpuMsPerRequest, long countRequests,
                             Long entered, Long exited, Long called, Double enteredPerRequest,
                             Double exitedPerRequest, Double calledPerRequest) {
    }

    /**
     * The computed cost of a hooks version: hooks per request (medians over its processes) x ns per
     * hook (JMH) over the no-agent processes' CPU per request (median). Null figures: not measured.
     *
     * @param pct point estimate, the hooks inlined as the JIT chooses
     * @param pctUpper with JMH's errors the unfavourable way (the verdict's figure)
     * @param pctNotInlined the worst case: hooks never inlined
     */
    public record Cost(String version, Double hooksPerRequest, Double enteredPerRequest, Double exitedPerRequest,
                       Double calledPerRequest, Double cpuMsPerRequest, Double nsPerRequest, Double pct,
                       Double pctUpper, Double pctNotInlined) {
    }

    public record Goal(String goal, Boolean met, String detail) {
    }
}
