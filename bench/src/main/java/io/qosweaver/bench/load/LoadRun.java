package io.qosweaver.bench.load;

import static io.qosweaver.bench.stats.Round.round;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * A running load: client threads, pacing threads and a one-second sampler. All reads of the
 * recorders happen under {@code this} lock (the single-reader rule of {@code Recorder}).
 */
public final class LoadRun implements AutoCloseable {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final HttpClient client;
    private final List<ClassStats> stats = new ArrayList<>();
    private final boolean timeSeries;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean running;
    private final java.util.Set<SocketHttp> connections = java.util.concurrent.ConcurrentHashMap.newKeySet();

    // guarded by this
    private long windowStartNanos;
    private long windowStartMs;
    private final List<LoadResult.Sample> samples = new ArrayList<>();

    private final Runnable senderSetup;

    LoadRun(HttpClient client, List<LoadSpec> specs, boolean timeSeries, Runnable senderSetup) {
        this.client = client;
        this.timeSeries = timeSeries;
        this.senderSetup = senderSetup;
        for (LoadSpec s : specs) {
            stats.add(new ClassStats(s));
        }
    }

    synchronized void start() {
        running = true;
        beginWindow();
        for (ClassStats cs : stats) {
            LoadSpec s = cs.spec;
            if (s.mode() == LoadSpec.Mode.CLOSED) {
                AtomicLong seq = new AtomicLong();
                for (int i = 0; i < s.clients(); i++) {
                    threads.add(sender("load-" + s.name() + "-" + i, () -> closedLoop(cs, seq)));
                }
            } else if (s.transport() == LoadSpec.Transport.SOCKET) {
                long start = System.nanoTime();
                int n = s.socketThreads();
                for (int i = 0; i < n; i++) {
                    int first = i;
                    threads.add(sender("load-" + s.name() + "-" + i, () -> openLoopOnSockets(cs, start, first, n)));
                }
            } else {
                threads.add(sender("load-" + s.name() + "-pacer", () -> openLoop(cs)));
            }
        }
        threads.add(daemon("load-sampler", this::sampler));
        threads.forEach(Thread::start);
    }

    /** A thread that sends requests: it runs the driver's {@link LoadDriver#withSenderSetup setup} first. */
    private Thread sender(String name, Runnable r) {
        return daemon(name, () -> {
            senderSetup.run();
            r.run();
        });
    }

    private static Thread daemon(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private HttpRequest request(LoadSpec s, long seq) {
        return s.body().apply(HttpRequest.newBuilder(s.targets().uri(seq)).timeout(s.timeout())).build();
    }

    static final long DEFAULT_RETRY_NANOS = 100_000_000L;

    /** Discards the answer, or counts what {@link LoadSpec#answer} looks for in it. */
    static HttpResponse.BodyHandler<?> bodyHandler(LoadSpec s) {
        return s.answer() == null ? HttpResponse.BodyHandlers.discarding() : s.answer().handler();
    }

    /** Null when the answer is whole (or nothing is checked), else the error to record. */
    static String brokenAnswer(LoadSpec s, HttpResponse<?> resp) {
        return s.answer() == null ? null : s.answer().failure((Integer) resp.body());
    }

    /** The response's Retry-After (seconds, capped at 10 s), or {@link #DEFAULT_RETRY_NANOS}. */
    static long retryAfterNanos(HttpResponse<?> resp) {
        return resp.headers().firstValue("Retry-After").map(v -> {
            try {
                return Math.min(10_000_000_000L, Math.max(0, Long.parseLong(v.strip())) * 1_000_000_000L);
            } catch (NumberFormatException e) {
                return DEFAULT_RETRY_NANOS; // an HTTP date: not worth parsing for a bench client
            }
        }).orElse(DEFAULT_RETRY_NANOS);
    }

    private void closedLoop(ClassStats cs, AtomicLong seq) {
        LoadSpec s = cs.spec;
        long think = s.thinkTime().toNanos();
        while (running) {
            HttpRequest req = request(s, seq.getAndIncrement());
            long t0 = System.nanoTime();
            try {
                HttpResponse<?> resp = client.send(req, bodyHandler(s));
                long latency = System.nanoTime() - t0;
                if (!running) {
                    break;
                }
                String broken;
                if (resp.statusCode() < 400 && (broken = brokenAnswer(s, resp)) != null) {
                    cs.error(broken); // served, but not whole: not throughput
                } else if (resp.statusCode() < 400) {
                    cs.success(t0, latency);
                } else {
                    cs.error("status " + resp.statusCode());
                    // a refusal (429, 503) costs the server little and comes back at once: a
                    // client that retried at once would spin; wait as Retry-After says, or 100 ms
                    LockSupport.parkNanos(retryAfterNanos(resp));
                }
            } catch (InterruptedException e) {
                break;
            } catch (IOException | RuntimeException e) {
                if (!running) {
                    break;
                }
                cs.error(e.getClass().getSimpleName());
                // a refused connection fails at once: don't spin on it
                LockSupport.parkNanos(10_000_000L);
            }
            if (think > 0) {
                LockSupport.parkNanos(think);
            }
        }
    }

    /**
     * Intended start of request i is start + i / rate; the pacer sleeps until then and fires
     * even when late, so the latency (from the intended start) includes any stall.
     */
    private void openLoop(ClassStats cs) {
        LoadSpec s = cs.spec;
        double intervalNanos = SECOND / s.ratePerSecond();
        Semaphore inFlight = new Semaphore(s.clients());
        long start = System.nanoTime();
        for (long i = 0; running; i++) {
            long intended = start + (long) (i * intervalNanos);
            if (!parkUntil(intended)) {
                break;
            }
            if (!inFlight.tryAcquire()) {
                cs.error("overflow");
                continue;
            }
            client.sendAsync(request(s, i), bodyHandler(s))
                    .whenComplete((resp, err) -> {
                        inFlight.release();
                        if (!running) {
                            return;
                        }
                        String broken;
                        if (err != null) {
                            Throwable c = err.getCause() != null ? err.getCause() : err;
                            cs.error(c.getClass().getSimpleName());
                        } else if (resp.statusCode() < 400 && (broken = brokenAnswer(s, resp)) != null) {
                            cs.error(broken);
                        } else if (resp.statusCode() < 400) {
                            cs.success(intended, System.nanoTime() - intended);
                        } else {
                            cs.error("status " + resp.statusCode());
                        }
                    });
        }
    }

    /**
     * One of the {@code stride} threads of a {@link LoadSpec.Transport#SOCKET} open loop: requests
     * {@code first}, {@code first + stride}, ... each at its intended start ({@code start + i / rate}),
     * on this thread's own connection; a late one is sent at once and its latency counts from the
     * intended start.
     */
    private void openLoopOnSockets(ClassStats cs, long start, int first, int stride) {
        LoadSpec s = cs.spec;
        double intervalNanos = SECOND / s.ratePerSecond();
        try (SocketHttp conn = new SocketHttp((int) Math.min(Integer.MAX_VALUE, s.timeout().toMillis()))) {
            connections.add(conn); // only so that close() can unblock a read
            for (long i = first; running; i += stride) {
                long intended = start + (long) (i * intervalNanos);
                if (!parkUntil(intended)) {
                    break;
                }
                try {
                    int status = conn.exchange(s.targets().uri(i), s.body());
                    long latency = System.nanoTime() - intended;
                    if (!running) {
                        break;
                    }
                    if (status < 400) {
                        cs.success(intended, latency);
                    } else {
                        cs.error("status " + status);
                    }
                } catch (IOException | RuntimeException e) {
                    if (!running) {
                        break;
                    }
                    cs.error(e.getClass().getSimpleName());
                }
            }
        }
    }

    /** Parks until the {@code System.nanoTime()} instant {@code intended}; false when the run stopped meanwhile. */
    private boolean parkUntil(long intended) {
        long wait;
        while (running && (wait = intended - System.nanoTime()) > 0) {
            LockSupport.parkNanos(wait);
        }
        return running;
    }

    private void sampler() {
        long next = System.nanoTime() + SECOND;
        while (running) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
                continue;
            }
            next += SECOND;
            sample();
        }
    }

    private synchronized void sample() {
        if (!running) {
            return;
        }
        double offset = (System.nanoTime() - windowStartNanos) / 1e9;
        for (ClassStats cs : stats) {
            Histogram h = cs.drain(true);
            long errs = cs.errorsSinceLastSample();
            long done = cs.completedSinceLastSample();
            if (timeSeries) {
                boolean any = h.getTotalCount() > 0;
                samples.add(new LoadResult.Sample(round(offset), cs.spec.name(), done, errs,
                        any ? ClassStats.ms(h.getValueAtPercentile(50)) : null,
                        any ? ClassStats.ms(h.getValueAtPercentile(99)) : null));
            }
        }
    }


    /** Discards everything recorded so far: the measurement window starts now. */
    public synchronized void beginWindow() {
        windowStartNanos = System.nanoTime();
        windowStartMs = System.currentTimeMillis();
        samples.clear();
        stats.forEach(cs -> cs.beginWindow(windowStartNanos, windowStartMs));
    }

    /** The window so far, from {@link #beginWindow} to now; the load keeps running. */
    public synchronized LoadResult endWindow() {
        return window(System.nanoTime());
    }

    /**
     * Stops every client, then returns the window up to the moment of stopping. Unlike
     * {@link #endWindow}, the counts are a consistent snapshot: no client is still adding to them
     * while they are read.
     */
    public LoadResult stopWindow() {
        long end = System.nanoTime();
        close(); // outside the monitor: the sampler thread may be waiting for it
        synchronized (this) {
            return window(end);
        }
    }

    private LoadResult window(long endNanos) {
        double seconds = (endNanos - windowStartNanos) / 1e9;
        Map<String, ClassResult> out = new LinkedHashMap<>();
        for (ClassStats cs : stats) {
            out.put(cs.spec.name(), cs.endWindow(seconds));
        }
        return new LoadResult(windowStartMs, round(seconds), Collections.unmodifiableMap(out), List.copyOf(samples));
    }

    public boolean isRunning() {
        return running;
    }

    /** Stops every client; in-flight requests are abandoned, not counted. */
    @Override
    public void close() {
        running = false;
        connections.forEach(SocketHttp::close); // a blocking read is not interruptible
        for (Thread t : threads) {
            t.interrupt();
        }
        for (Thread t : threads) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
