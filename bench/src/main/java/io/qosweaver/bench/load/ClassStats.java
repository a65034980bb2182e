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
 */
final class ClassStats {
    /** One hour in microseconds: a slower response is clamped (and still counted). */
    static final long HIGHEST_MICROS = TimeUnit.HOURS.toMicros(1);

    final LoadSpec spec;
    private final Recorder recorder = new Recorder(HIGHEST_MICROS, 3);
    private final LongAdder errors = new LongAdder();
    private final Map<String, LongAdder> errorKinds = new ConcurrentHashMap<>();

    // reader side, guarded by LoadRun's lock
    private Histogram interval;
    private final Histogram window = new Histogram(HIGHEST_MICROS, 3);
    private long errorsAtWindowStart;
    private final Map<String, Long> kindsAtWindowStart = new TreeMap<>();
    private long errorsAtLastSample;

    ClassStats(LoadSpec spec) {
        this.spec = spec;
    }

    void success(long latencyNanos) {
        recorder.recordValue(Math.min(HIGHEST_MICROS, Math.max(0, latencyNanos / 1000)));
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

    long errorsSinceLastSample() {
        long now = errors.sum();
        long d = now - errorsAtLastSample;
        errorsAtLastSample = now;
        return d;
    }

    void beginWindow() {
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
        long n = window.getTotalCount();
        boolean any = n > 0;
        return new ClassResult(spec.name(), spec.mode().name().toLowerCase(), spec.clients(),
                spec.mode() == LoadSpec.Mode.OPEN ? spec.ratePerSecond() : null,
                n, errs, kinds, seconds > 0 ? n / seconds : 0,
                any ? window.getMean() / 1000.0 : null,
                any ? window.getStdDeviation() / 1000.0 : null,
                any ? ms(window.getValueAtPercentile(50)) : null,
                any ? ms(window.getValueAtPercentile(90)) : null,
                any ? ms(window.getValueAtPercentile(99)) : null,
                any ? ms(window.getValueAtPercentile(99.9)) : null,
                any ? ms(window.getMaxValue()) : null);
    }

    static double ms(long micros) {
        return micros / 1000.0;
    }
}
