package io.qosweaver.bench.load;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Per-class recording. Assumptions and guarantees: any number of client threads call
 * {@link #success} and {@link #error} concurrently (wait-free: a Recorder write and LongAdder
 * increments); exactly one reader at a time calls the {@code drain}/{@code window} methods,
 * which {@link LoadRun} ensures by holding its lock.
 *
 * <p>A window counts every response that arrives in it (its throughput), but takes latencies only
 * of requests issued in it: a closed loop's first responses after a warm-up were queued during
 * the warm-up, and their latencies say how the warm-up went, not how the window did (seen in the
 * deadline experiment, where they made the first 10 s of a 36 s window most of its p99). Their
 * count is reported ({@code issuedBeforeWindow}). A request completing while a window begins may
 * fall on either side of that rule.
 */
final class ClassStats {
    /** One hour in microseconds: a slower response is clamped (and still counted). */
    static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);

    final LoadSpec spec;
    private final Recorder recorder = new Recorder(HIGHEST_MICROS, 3);
    private final LongAdder errors = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder issuedBefore = new LongAdder();
    /** Written by the reader at each window's start, read by the clients. */
    private volatile long windowStartNanos = System.nanoTime();
    private final Map<String, LongAdder> errorKinds = new ConcurrentHashMap<>();

    // reader side, guarded by LoadRun's lock
    private Histogram interval;
    private final Histogram window = new Histogram(HIGHEST_MICROS, 3);
    private long errorsAtWindowStart;
    private final Map<String, Long> kindsAtWindowStart = new TreeMap<>();
    private long errorsAtLastSample;
    private long completedAtWindowStart;
    private long completedAtLastSample;
    private long issuedBeforeAtWindowStart;

    ClassStats(LoadSpec spec) {
        this.spec = spec;
    }

    /**
     * A successful response to a request issued (or, open loop, meant to be issued) at
     * {@code startNanos}, {@code latencyNanos} later.
     */
    void success(long startNanos, long latencyNanos) {
        completed.increment();
        if (startNanos - windowStartNanos >= 0) {
            recorder.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, latencyNanos / 1000)));
        } else {
            issuedBefore.increment();
        }
    }

    void error(String kind) {
        errors.increment();
        errorKinds.computeIfAbsent(kind, k -> new LongAdder()).increment();
    }

    /** Moves what was recorded since the last drain into the window histogram; returns that interval. */
    Histogram drain(boolean keep) {
        interval = recorder.getIntervalHistogram(interval);
        if (keep) {
            window.add(interval);
        }
        return interval;
    }

    /** Responses (whenever issued) since the last call. */
    long completedSinceLastSample() {
        long now = completed.sum();
        long d = now - completedAtLastSample;
        completedAtLastSample = now;
        return d;
    }

    long errorsSinceLastSample() {
        long now = errors.sum();
        long d = now - errorsAtLastSample;
        errorsAtLastSample = now;
        return d;
    }

    void beginWindow(long startNanos) {
        windowStartNanos = startNanos;
        completedAtWindowStart = completed.sum();
        completedAtLastSample = completedAtWindowStart;
        issuedBeforeAtWindowStart = issuedBefore.sum();
        drain(false);
        window.reset();
        errorsAtWindowStart = errors.sum();
        errorsAtLastSample = errorsAtWindowStart;
        kindsAtWindowStart.clear();
        errorKinds.forEach((k, v) -> kindsAtWindowStart.put(k, v.sum()));
    }

    ClassResult endWindow(double seconds) {
        drain(true);
        long errs = errors.sum() - errorsAtWindowStart;
        Map<String, Long> kinds = new TreeMap<>();
        errorKinds.forEach((k, v) -> {
            long n = v.sum() - kindsAtWindowStart.getOrDefault(k, 0L);
            if (n > 0) {
                kinds.put(k, n);
            }
        });
        long n = completed.sum() - completedAtWindowStart;
        boolean any = window.getTotalCount() > 0;
        return new ClassResult(spec.name(), spec.mode().name().toLowerCase(), spec.clients(),
                spec.mode() == LoadSpec.Mode.OPEN ? spec.ratePerSecond() : null,
                n, errs, kinds, seconds > 0 ? n / seconds : 0,
                any ? window.getMean() / 1000.0 : null,
                any ? window.getStdDeviation() / 1000.0 : null,
                any ? ms(window.getValueAtPercentile(50)) : null,
                any ? ms(window.getValueAtPercentile(90)) : null,
                any ? ms(window.getValueAtPercentile(99)) : null,
                any ? ms(window.getValueAtPercentile(99.9)) : null,
                any ? ms(window.getMaxValue()) : null,
                issuedBefore.sum() - issuedBeforeAtWindowStart);
    }

    static double ms(long micros) {
        return micros / 1000.0;
    }
}
