package io.qosweaver.bench.swap;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongFunction;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop clients that account for every request they send. The shared load driver
 * ({@code bench.load}) abandons the requests in flight when it stops, which is right for a
 * throughput window but cannot show that none was lost; here a client that is told to stop first
 * waits for its request's answer, so that after {@link #stop} every request sent is either
 * completed (status below 400) or failed (a status of 400 or more, or an exception), and
 * {@code sent - completed - failed} is what was lost.
 *
 * <p>Completions are recorded in the phase current when they complete ({@link #phase}), so that a
 * phase's throughput and latency are those of the requests that ended under its policy.
 */
final class CountingLoad {
    /** No request may take longer: a chart that slow is a failure, not a latency. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(120);
    private static final long HIGHEST_MICROS = 3_600_000_000L;

    private final HttpClient http;
    private final LongFunction<URI> target;
    private final AtomicLong seq = new AtomicLong();
    private final LongAdder sent = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder httpErrors = new LongAdder();
    private final LongAdder exceptions = new LongAdder();
    private final Map<String, LongAdder> failureKinds = new ConcurrentHashMap<>();
    private final Map<Integer, Phase> phases = new ConcurrentHashMap<>();
    private final List<Thread> clients = new ArrayList<>();
    private volatile int phase = -1;
    private volatile boolean stopping;

    /** One phase's completions: a latency recorder (many writers) and its failures. */
    private static final class Phase {
        final Recorder latency = new Recorder(HIGHEST_MICROS, 3);
        final LongAdder completed = new LongAdder();
        final LongAdder failed = new LongAdder();
        /** What the recorder had, accumulated by the reader (one at a time: {@link #phaseLoad} is synchronized). */
        final Histogram total = new Histogram(HIGHEST_MICROS, 3);
    }

    /** What the clients did, once they have stopped. */
    record Totals(long sent, long completed, long httpErrors, long exceptions, Map<String, Long> failureKinds,
                  long inFlight, boolean drained) {
        long failed() {
            return httpErrors + exceptions;
        }

        /** Sent but neither completed nor failed. */
        long lost() {
            return sent - completed - failed();
        }
    }

    /** One phase's completions: their count, failures and latencies. */
    record PhaseLoad(long completed, long failed, Histogram latencyMicros) {
    }

    CountingLoad(HttpClient http, LongFunction<URI> target) {
        this.http = http;
        this.target = target;
    }

    /** Adds clients until there are {@code n}; each starts its loop at once. */
    synchronized void clients(int n) {
        if (stopping) {
            throw new IllegalStateException("the load has stopped");
        }
        while (clients.size() < n) {
            Thread t = new Thread(this::loop, "swap-load-" + clients.size());
            t.setDaemon(true);
            clients.add(t);
            t.start();
        }
    }

    /** From now on, completions count in phase {@code p} (warm-up: -1, not reported as a phase). */
    void phase(int p) {
        phase = p;
    }

    private void loop() {
        while (!stopping) {
            HttpRequest req = HttpRequest.newBuilder(target.apply(seq.getAndIncrement())).timeout(REQUEST_TIMEOUT)
                    .build();
            sent.increment();
            long t0 = System.nanoTime();
            String failure;
            try {
                HttpResponse<Void> r = http.send(req, HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() < 400) {
                    completed.increment();
                    Phase ph = phases.computeIfAbsent(phase, k -> new Phase());
                    ph.latency.recordValue(Math.min(HIGHEST_MICROS, (System.nanoTime() - t0) / 1000));
                    ph.completed.increment();
                    continue;
                }
                httpErrors.increment();
                failure = "status " + r.statusCode();
            } catch (InterruptedException e) {
                // never interrupted by stop(): only a harness shutting down gets here; the request is lost
                return;
            } catch (IOException | RuntimeException e) {
                exceptions.increment();
                failure = e.getClass().getSimpleName();
            }
            failureKinds.computeIfAbsent(failure, k -> new LongAdder()).increment();
            phases.computeIfAbsent(phase, k -> new Phase()).failed.increment();
            try {
                Thread.sleep(100); // a refused connection fails at once: do not spin on it
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Stops the clients: none sends again, each waits for the answer of the request it has in
     * flight (not interrupted), for at most {@code timeout} in all.
     */
    Totals stop(Duration timeout) throws InterruptedException {
        List<Thread> all;
        synchronized (this) {
            stopping = true;
            all = List.copyOf(clients);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean drained = true;
        for (Thread t : all) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                t.join(Math.max(1, left / 1_000_000));
            }
            drained &= !t.isAlive();
        }
        return totals(drained);
    }

    /** The counters now (a snapshot while clients run; final after {@link #stop}). */
    Totals totals(boolean drained) {
        Map<String, Long> kinds = new TreeMap<>();
        failureKinds.forEach((k, v) -> kinds.put(k, v.sum()));
        // read the outcomes before the sends: a request counted as ended was counted as sent before
        long c = completed.sum();
        long h = httpErrors.sum();
        long x = exceptions.sum();
        long s = sent.sum();
        return new Totals(s, c, h, x, kinds, s - c - h - x, drained);
    }

    /** Phase {@code p}'s completions so far. */
    synchronized PhaseLoad phaseLoad(int p) {
        Phase ph = phases.get(p);
        if (ph == null) {
            return new PhaseLoad(0, 0, new Histogram(HIGHEST_MICROS, 3));
        }
        ph.total.add(ph.latency.getIntervalHistogram());
        return new PhaseLoad(ph.completed.sum(), ph.failed.sum(), ph.total.copy());
    }
}
