package io.qosweaver.bench.load;

import java.util.List;
import java.util.Map;

/**
 * What one request class did during a measurement window. Latencies are in milliseconds;
 * they cover successful responses only (status below 400); errors are counted apart, by kind
 * ({@code status 503}, {@code HttpTimeoutException}, {@code overflow} for an open-loop request
 * that could not start because {@code clients} were already in flight).
 *
 * <p>{@code requests} and {@code throughputPerS} count every success that arrived in the window;
 * the latencies are those of the requests issued in it. {@code issuedBeforeWindow} of the
 * {@code requests} were issued before the window began (during a warm-up) and have no latency
 * here.
 *
 * <p>{@code slowest}: the slowest successful requests issued in the window (at most
 * {@link ClassStats#SLOWEST}), slowest first, each with its (intended) start on the wall clock:
 * to match a tail to what the server did at that time (its GC pauses, say).
 */
public record ClassResult(String name, String mode, int clients, Double targetRatePerS,
                          long requests, long errors, Map<String, Long> errorKinds,
                          double throughputPerS,
                          Double meanMs, Double stddevMs, Double p50Ms, Double p90Ms, Double p99Ms,
                          Double p999Ms, Double maxMs, long issuedBeforeWindow, List<Slow> slowest) {

    /** A class without the slowest requests recorded. */
    public ClassResult(String name, String mode, int clients, Double targetRatePerS, long requests, long errors,
            Map<String, Long> errorKinds, double throughputPerS, Double meanMs, Double stddevMs, Double p50Ms,
            Double p90Ms, Double p99Ms, Double p999Ms, Double maxMs, long issuedBeforeWindow) {
        this(name, mode, clients, targetRatePerS, requests, errors, errorKinds, throughputPerS, meanMs, stddevMs, p50Ms,
                p90Ms, p99Ms, p999Ms, maxMs, issuedBeforeWindow, List.of());
    }

    /** One slow request: when it started (epoch ms; open loop: when it was meant to) and how long it took. */
    public record Slow(long startMs, double latencyMs) {
    }
}
