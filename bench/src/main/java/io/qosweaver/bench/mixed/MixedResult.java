package io.qosweaver.bench.mixed;

import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadResult;
import java.util.List;
import java.util.Map;

/**
 * What {@code results.json} of {@code bench mixed} holds.
 *
 * @param parameters the load, the windows, the app's data, the jars' dates
 * @param app        facts about the third-party application
 * @param goals      issue 13's goals, evaluated for every QoSWeaver version
 * @param versions   by name, in the order run
 */
public record MixedResult(String experiment, String generatedAt, String command, boolean quick,
                          Map<String, Object> parameters, Map<String, Object> machine, Map<String, Object> app,
                          List<String> summary, Map<String, String> errors, List<Goal> goals,
                          Map<String, VersionResult> versions) {

    /**
     * One version's run.
     *
     * @param idleLight        the light stream alone (after the first warm-up)
     * @param heavy            the heavy clients in the loaded window
     * @param light            the light stream in the loaded window
     * @param serverCpuCores   the server's CPU time over the loaded window / its length (2.0 = both cores)
     * @param serverCpuMsPerHeavy the server's CPU time in the loaded window per completed heavy request
     * @param lightP99ToIdle   loaded light p99 / the unscheduled baseline's idle light p99 (the mean of
     *                         {@code unscheduled} and {@code unscheduled-end} when both ran; issue 13's "idle
     *                         light p99"); null without that baseline
     * @param heavyThroughputToUnscheduled heavy throughput / the unscheduled baseline's (the same mean)
     * @param heavyNice        the heavy driver's nice value, read from /proc
     * @param lightNice        the light driver's nice value, read from /proc
     * @param installLine      the line the agent or the peer printed when it was installed
     * @param idleOtherCpuCores CPU the machine spent on anything but the server and the drivers during the idle
     *                         window (/proc/stat less their /proc/PID/stat), in cores: others' builds on a
     *                         shared machine
     * @param otherCpuCores    the same over the loaded window
     * @param priority         for a policy that sets OS priorities, what the agent's
     *                         {@code qosweaver_priority_effective} said at the end of the loaded window
     *                         ({@code mechanism}, {@code effective}, {@code reason}, {@code changes},
     *                         {@code failures}); null otherwise
     * @param lightTailGc      the loaded window's light requests at or above its p99 matched to the app's GC
     *                         pauses (its {@code -Xlog:gc} with wall-clock times): how many overlapped one, the
     *                         mean pause time inside them, and the window's pauses and their share of it; null
     *                         when the log has no times
     * @param timeSeries       the loaded window second by second: per class, completions, errors, p50 and p99
     */
    public record VersionResult(String name, String description, List<String> jvmFlags, String policy, String peer,
                                String installLine, ClassResult idleLight, Double idleServerCpuCores,
                                ClassResult heavy, ClassResult light, Double serverCpuCores,
                                Double serverCpuMsPerHeavy, Double lightP99ToIdle,
                                Double heavyThroughputToUnscheduled, Integer heavyNice, Integer lightNice,
                                String appLog, String error, Double idleOtherCpuCores,
                                Double otherCpuCores, Map<String, Object> priority,
                                Map<String, Object> lightTailGc, List<LoadResult.Sample> timeSeries) {
    }

    /** One goal for one version: met, not met, or null when it could not be measured. */
    public record Goal(String version, String goal, Double value, String target, Boolean met) {
    }
}
