package io.qosweaver.bench.load;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
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
    /** How many of the window's slowest requests are kept with their start times. */
    static final int SLOWEST = 64;
    /** One hour in microseconds: a slower response is clamped (and still counted). */
    static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);

    final LoadSpec spec;
    private final Recorder recorder = new Recorder(HIGHEST_MICROS, 3);
    private final LongAdder errors = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder issuedBefore = new LongAdder();
    /** Written by the reader at each window's start, read by the clients. */
    private volatile long windowStartNanos = System.nanoTime();
    private volatile long windowStartMs = System.currentTimeMillis();
    /**
     * The window's slowest requests, {latency ns, start ns} (a min-heap by latency); a client takes its
     * lock only for a request slower than {@link #slowFloor}, the fastest kept once full.
     */
    private final PriorityQueue<long[]> slowest = new PriorityQueue<>(Comparator.comparingLong(a -> a[0]));
    private volatile long slowFloor = -1;
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
            if (latencyNanos > slowFloor) {
                keepIfSlow(startNanos, latencyNanos);
            }
        } else {
            issuedBefore.increment();
        }
    }

    private void keepIfSlow(long startNanos, long latencyNanos) {
        synchronized (slowest) {
            if (slowest.size() < SLOWEST) {
                slowest.add(new long[] {latencyNanos, startNanos});
            } else if (latencyNanos > slowest.peek()[0]) {
                slowest.poll();
                slowest.add(new long[] {latencyNanos, startNanos});
            }
            if (slowest.size() == SLOWEST) {
                slowFloor = slowest.peek()[0];
            }
        }
    }

    /** The window's slowest requests so far, slowest first. */
    private List<ClassResult.Slow> slowest() {
        List<long[]> all;
        synchronized (slowest) {
            all = new ArrayList<>(slowest);
        }
        all.sort(Comparator.comparingLong((long[] a) -> a[0]).reversed());
        long startNs = windowStartNanos;
        long startMs = windowStartMs;
        List<ClassResult.Slow> out = new ArrayList<>(all.size());
        for (long[] a : all) {
            out.add(new ClassResult.Slow(startMs + Math.round((a[1] - startNs) / 1e6), a[0] / 1e6));
        }
        return out;
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

    void beginWindow(long startNanos, long startMs) {
        synchronized (slowest) {
            slowest.clear();
            slowFloor = -1;
        }
        windowStartMs = startMs;
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
                issuedBefore.sum() - issuedBeforeAtWindowStart, slowest());
    }

    static double ms(long micros) {
        return micros / 1000.0;
    }
}
