package io.qosweaver.bench.load;

import java.util.List;
import java.util.Map;

/**
 * A measurement window of a {@link LoadDriver} run.
 *
 * @param windowStartMs wall-clock start of the window (epoch ms)
 * @param windowSeconds length of the window, measured
 * @param classes       per request class, in the order given
 * @param timeSeries    one sample per second of the window when asked for, else empty
 */
public record LoadResult(long windowStartMs, double windowSeconds, Map<String, ClassResult> classes,
                         List<Sample> timeSeries) {

    /** One second of one class: completions, errors and latency percentiles (of requests issued in the window) of that second. */
    public record Sample(double offsetS, String name, long requests, long errors, Double p50Ms, Double p99Ms) {
    }

    public ClassResult get(String name) {
        return classes.get(name);
    }
}
