package io.qosweaver.bench.load;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;

/**
 * A small load driver for HTTP/1.1 on the JDK's {@link HttpClient}: closed-loop clients and
 * open-loop constant-rate classes (see {@link LoadSpec}), latencies in HdrHistogram
 * {@code Recorder}s (many writers, one reader), throughput and errors per class, and
 * optionally a per-second time series.
 *
 * <p>Why our own driver and the JDK client: README.md of this module (Hyperfoil brings Vert.x,
 * Netty and log4j-core, 17 MB, and is built to run as a controller with agents). The driver
 * shares two cores with the server it loads, so it keeps one platform thread per closed-loop
 * client (they block in {@code send}), one pacing thread per open-loop class, and a sampler.
 *
 * <p>Use: {@code try (LoadRun run = driver.start(specs, true)) { warm up; run.beginWindow();
 * wait; LoadResult r = run.endWindow(); }}, or {@link #run} for the common case.
 */
public final class LoadDriver {
    private final HttpClient client;
    private final Runnable senderSetup;

    public LoadDriver() {
        this(defaultClient());
    }

    public LoadDriver(HttpClient client) {
        this(client, () -> { });
    }

    private LoadDriver(HttpClient client, Runnable senderSetup) {
        this.client = client;
        this.senderSetup = senderSetup;
    }

    /**
     * This driver with {@code setup} run first by every thread that sends requests (a closed-loop client, a
     * socket sender, the JDK client's pacer), e.g. to change the thread's scheduling class
     * ({@link RealtimeThreads}). The JDK client's own threads, which read its answers, do not run it.
     */
    public LoadDriver withSenderSetup(Runnable setup) {
        return new LoadDriver(client, java.util.Objects.requireNonNull(setup, "setup"));
    }

    public static HttpClient defaultClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /** Starts every class now; the first window begins at once (call {@link LoadRun#beginWindow} to restart it). */
    public LoadRun start(List<LoadSpec> specs, boolean timeSeries) {
        LoadRun run = new LoadRun(client, specs, timeSeries, senderSetup);
        run.start();
        return run;
    }

    /** Runs {@code warmup}, then measures for {@code duration}, then stops. */
    public LoadResult run(List<LoadSpec> specs, Duration warmup, Duration duration, boolean timeSeries)
            throws InterruptedException {
        try (LoadRun run = start(specs, timeSeries)) {
            Thread.sleep(warmup.toMillis());
            run.beginWindow();
            Thread.sleep(duration.toMillis());
            return run.stopWindow();
        }
    }
}
