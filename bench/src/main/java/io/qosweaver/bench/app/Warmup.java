package io.qosweaver.bench.app;

import io.qosweaver.bench.load.LoadDriver;
import io.qosweaver.bench.load.LoadRun;
import io.qosweaver.bench.load.LoadSpec;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.net.http.HttpClient;
import java.util.List;

/**
 * The light first phase of every warm-up: one client per core before the full load.
 *
 * <p>Why: 40 chart threads started on a cold JVM starve the JIT's compiler threads (same
 * priority, 20 times as many runnable threads), so the charts run interpreted for minutes. Measured
 * on the river monitor without collector, 40 clients from a cold start served 4-7 charts/s and
 * were still below 8/s after two minutes; after 20 s of 2 clients they served 9-12/s from the
 * first second. A flash crowd hits a server that normal traffic has warmed, so warming it with a
 * light load first is also the realistic start.
 */
public final class Warmup {
    private Warmup() {
    }

    /** Clients of the light phase: one per core of this machine (the app runs on the same one). */
    public static int lightClients() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /**
     * Runs {@code specs} with at most {@link #lightClients()} clients each for {@code seconds}; nothing
     * is measured. Fails when the app dies meanwhile.
     */
    public static void light(HttpClient http, AppProcess app, List<LoadSpec> specs, double seconds,
                             Progress progress, String version) throws IOException, InterruptedException {
        if (seconds <= 0 || specs.isEmpty()) {
            return;
        }
        int n = lightClients();
        progress.update("[" + version + "] light warm-up " + Format.number(seconds) + " s with " + n
                + " client(s) per request class (the JIT compiles before the crowd arrives)");
        List<LoadSpec> light = specs.stream().map(s -> s.withClients(Math.min(s.clients(), n))).toList();
        LoadRun run = new LoadDriver(http).start(light, false);
        try {
            Thread.sleep(Math.round(seconds * 1000));
        } finally {
            run.close();
        }
        if (!app.isAlive()) {
            throw new IOException("the app died during the light warm-up; last lines:\n" + app.tail());
        }
    }
}
