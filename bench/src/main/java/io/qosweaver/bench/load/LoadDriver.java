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

    public LoadDriver() {
        this(defaultClient());
    }

    public LoadDriver(HttpClient client) {
        this.client = client;
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
        LoadRun run = new LoadRun(client, specs, timeSeries);
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
