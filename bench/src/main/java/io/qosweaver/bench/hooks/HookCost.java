package io.qosweaver.bench.hooks;

import static io.qosweaver.bench.stats.Round.round;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The cost of one idle hook, from a JMH run of {@code io.qosweaver.jmh.HooksBenchmark} (and its
 * not-inlined variant, {@code HooksNotInlinedBenchmark}): each hooked method against the same
 * method unhooked, in the same run. An entry+exit pair costs {@code entryExit - baseline}, so one
 * execution hook half of that; a call hook {@code call - baseline}. The upper bound takes each
 * score's error the unfavourable way (hooked + error, baseline - error): the goal's verdict uses it.
 * Differences below zero (a hooked method measured faster) count as zero.
 *
 * <p>When the file has the {@code *Loop} benchmarks (from 2026-11-27; {@value #LOOP} hooked steps
 * per invocation, a resolution that many times finer), they are used instead: every difference is
 * divided by {@value #LOOP}. Older files have only the one-hook benchmarks and are read as before.
 *
 * @param execNs one entry or exit hook, inlined as the JIT chooses (point estimate)
 * @param execNsUpper the same, upper bound
 * @param callNs one call hook
 * @param callNsUpper the same, upper bound
 * @param execNsNotInlined one entry or exit hook with the hooks never inlined (the worst case); null if not run
 * @param callNsNotInlined one call hook, never inlined; null if not run
 * @param source the JMH file read
 */
public record HookCost(double execNs, double execNsUpper, double callNs, double callNsUpper, Double execNsNotInlined,
                       Double callNsNotInlined, String source) {
    static final String INLINED = "io.qosweaver.jmh.HooksBenchmark.";
    static final String NOT_INLINED = "io.qosweaver.jmh.HooksNotInlinedBenchmark.";
    /** {@code HooksBenchmark.LOOP}: hooked steps per invocation of a loop benchmark. */
    static final int LOOP = 16;

    /** Reads JMH's {@code -rf json} output; the inlined class's three benchmarks are required. */
    public static HookCost read(Path jmhJson) throws IOException {
        JsonNode root = new ObjectMapper().readTree(jmhJson.toFile());
        if (!root.isArray()) {
            throw new IOException(jmhJson + ": not JMH's JSON (an array of results expected)");
        }
        boolean loops = find(root, INLINED + "baselineLoop") != null;
        String suffix = loops ? "Loop" : "";
        int n = loops ? LOOP : 1;
        double[] base = score(root, INLINED + "baseline" + suffix, jmhJson);
        double[] pair = score(root, INLINED + "entryExit" + suffix, jmhJson);
        double[] call = score(root, INLINED + "call" + suffix, jmhJson);
        Double execNi = null;
        Double callNi = null;
        if (find(root, NOT_INLINED + "baseline" + suffix) != null) {
            double[] b = score(root, NOT_INLINED + "baseline" + suffix, jmhJson);
            execNi = per(diff(score(root, NOT_INLINED + "entryExit" + suffix, jmhJson)[0], b[0]), 2 * n);
            callNi = per(diff(score(root, NOT_INLINED + "call" + suffix, jmhJson)[0], b[0]), n);
        }
        return new HookCost(per(diff(pair[0], base[0]), 2 * n), per(diff(pair[0] + pair[1], base[0] - base[1]), 2 * n),
                per(diff(call[0], base[0]), n), per(diff(call[0] + call[1], base[0] - base[1]), n), execNi, callNi,
                jmhJson.toString());
    }

    /** Nanoseconds of idle hooks per request: entries and exits at the execution cost, calls at the call cost. */
    static double nsPerRequest(double enteredPerRequest, double exitedPerRequest, double calledPerRequest,
                               double execNs, double callNs) {
        return (enteredPerRequest + exitedPerRequest) * execNs + calledPerRequest * callNs;
    }

    private static double per(double difference, int hooks) {
        return round(difference / hooks, 4);
    }

    private static double diff(double hooked, double baseline) {
        return round(Math.max(0, hooked - baseline), 4);
    }

    /** {score, scoreError} in ns/op. */
    private static double[] score(JsonNode root, String name, Path file) throws IOException {
        JsonNode b = find(root, name);
        if (b == null) {
            throw new IOException(file + ": no result for " + name + " (run HooksBenchmark, see jmh/RESULTS.md)");
        }
        JsonNode m = b.path("primaryMetric");
        if (!"ns/op".equals(m.path("scoreUnit").asText())) {
            throw new IOException(file + ": " + name + " is in " + m.path("scoreUnit").asText() + ", not ns/op");
        }
        double err = m.path("scoreError").asDouble(0);
        return new double[] {m.path("score").asDouble(), Double.isNaN(err) ? 0 : err};
    }

    private static JsonNode find(JsonNode root, String name) {
        for (JsonNode b : root) {
            if (name.equals(b.path("benchmark").asText())) {
                return b;
            }
        }
        return null;
    }
}
