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
 */
public record HooksResult(String experiment, String generatedAt, String command, boolean quick,
        Map<String, Object> parameters, Map<String, Object> machine, List<Run> runs, List<VersionSummary> versions,
        List<Memory> memory, List<Identity> identity, Double resolutionPct, List<PaperRow> paper, List<Goal> goals,
        List<String> summary, Map<String, String> errors) {

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

    public record Goal(String goal, Boolean met, String detail) {
    }
}
