package io.qosweaver.cli.profile;

import io.qosweaver.pointcuts.BinaryProfileFormat;
import io.qosweaver.pointcuts.BinaryProfileReader;
import io.qosweaver.pointcuts.SlotProfile;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code qosweaver profile --request CMD}: profiles one kind of request with the probe's whole cost
 * taken out of the profile's time, measured rather than estimated.
 *
 * <p>The agent takes out of the recorded times what each chunk's own gaps say a probe costs, but a
 * probe also costs the code around it (the compiler inlines less and unrolls fewer loops), which no
 * gap shows: on the river monitor's chart a profile with the estimate alone ran about twice as
 * long as the application. Only a run without probes can tell that part, so this runs the
 * application twice and sends it the same requests, one at a time:
 * <ol>
 *   <li><b>Reference</b>: the java command without the agent; {@code warmUp} requests, then
 *   {@code requests} requests, each timed by the CPU time of the application's threads (R: their
 *   median).</li>
 *   <li><b>Profiled</b>: with the agent, paused; {@code warmUp} requests; a first recording that is
 *   thrown away (starting the probes recompiles the code they are in); a second that measures: the
 *   median of its requests' CPU times (T), what the agent took out as the probe's cost (P) and its
 *   join points, per request, give the share of what the estimate left that was the application's
 *   own work, {@code R / (T - P)} (at most 1); the third recording keeps that share of every gap
 *   once the estimate is out, and becomes the profile.</li>
 * </ol>
 * A share rather than a cost per join point: the first design took {@code (T - R - P) / J} out of
 * every gap, but where gaps are shorter than that (a parser's calls a nanosecond or two apart) a
 * gap cannot lose more than itself, and the profile stayed 1.3x (the chart) to 3.7x (a document
 * parser) as long as the application. The share takes the measured total out and empties no gap.
 * Medians, because on a shared machine one request in a few takes half as long again (another
 * process's load, a collection): a sum would carry that into every join point.
 * Both JVMs are stopped at the end; their output goes to {@code OUT.reference.log} and {@code
 * OUT.profiled.log}.
 */
final class RequestProfiler {
    private final List<String> javaCommand;
    private final List<String> profiledCommand;
    private final Path out;
    private final String request;
    private final int requests;
    private final int warmUp;
    private final Duration readyTimeout;
    private final int controlPort;
    private final PrintStream err;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /**
     * What the two runs measured, per request (medians of CPU times; the agent's figures divided by
     * the requests), for the summary and for tests.
     */
    record Result(long referenceNanos, long measuredNanos, long probeRemovedNanos, long joinPoints, double workShare,
            long profileNanos) {
        /**
         * The kept profile's time per unit of the application's own (the stretch left): its
         * timelines' time per request against the unprofiled CPU time per request.
         */
        double stretch() {
            return referenceNanos == 0 ? Double.NaN : (double) profileNanos / referenceNanos;
        }

        /**
         * The share of what the estimate left ({@code measured - removed}) that makes it the
         * reference, in parts per million: at most all of it, at least 1 ppm.
         */
        static long workSharePpm(long reference, long measured, long removed) {
            long left = measured - removed;
            if (left <= reference) {
                return PPM; // the estimate took out as much already, or more: keep everything
            }
            return Math.max(1, Math.round((double) reference / left * PPM));
        }
    }

    private static final long PPM = 1_000_000;

    /**
     * @param profiledCommand the java command with the agent's profiling arguments, paused, its control on
     *     {@code controlPort}
     */
    RequestProfiler(List<String> javaCommand, List<String> profiledCommand, Path out, String request, int requests,
            int warmUp, Duration readyTimeout, int controlPort, PrintStream err) {
        this.javaCommand = List.copyOf(javaCommand);
        this.profiledCommand = List.copyOf(profiledCommand);
        this.out = out;
        this.request = request;
        this.requests = requests;
        this.warmUp = warmUp;
        this.readyTimeout = readyTimeout;
        this.controlPort = controlPort;
        this.err = err;
    }

    /** A free loopback port for the agent's control endpoint. */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    Result run() throws IOException, InterruptedException {
        long reference;
        Path refLog = sibling(".reference.log");
        err.println("qosweaver profile: reference run without the agent (output in " + refLog + ")");
        Process app = start(javaCommand, refLog);
        try {
            awaitReady(app, refLog);
            send(warmUp, app, refLog, "warm-up");
            reference = median(send(requests, app, refLog, "reference"));
        } finally {
            stop(app);
        }
        err.printf("qosweaver profile: a request took %.1f ms of the application's CPU without the agent (the median of"
                + " %d)%n", reference / 1e6, requests);

        Path profLog = sibling(".profiled.log");
        err.println("qosweaver profile: profiled run (output in " + profLog + ")");
        app = start(profiledCommand, profLog);
        try {
            awaitReady(app, profLog);
            send(warmUp, app, profLog, "warm-up");
            record(app, profLog, new long[requests]); // thrown away: the probes' start recompiles the code they are in
            long[] cpu = new long[requests];
            Path measured = record(app, profLog, cpu);
            BinaryProfileReader.Summary s = BinaryProfileReader.summary(measured);
            if (s.joinPoints() == 0) {
                throw new IllegalStateException("the requests made no call from the included packages: nothing to"
                        + " profile (check --include against the classes that serve the request)");
            }
            long removed = metaLong(s, BinaryProfileFormat.PROBE_REMOVED_NANOS, measured) / requests;
            long joinPoints = s.joinPoints() / requests;
            long ppm = Result.workSharePpm(reference, median(cpu), removed);
            err.printf("qosweaver profile: profiled, a request took %.1f ms of CPU; the agent's estimate took out %.1f ms"
                    + " (%d join points per request); %.1f %% of the rest is the application's own work, the other"
                    + " %.1f %% the probe's cost to the code around it%n", median(cpu) / 1e6, removed / 1e6, joinPoints,
                    ppm / 1e4, 100 - ppm / 1e4);
            control("POST", "/profile/work-share?ppm=" + ppm);
            Path last = record(app, profLog, new long[requests]);
            Result r = new Result(reference, median(cpu), removed, joinPoints, ppm / (double) PPM,
                    timelinesNanos(last) / requests);
            for (Path p : ProfileCommand.written(out)) {
                if (!p.equals(last)) {
                    Files.delete(p);
                }
            }
            Files.move(last, out, StandardCopyOption.REPLACE_EXISTING);
            err.printf("qosweaver profile: the profile's time is %.2fx the application's own (per request: %.1f ms in"
                    + " the profile's timelines, against %.1f ms of CPU without the agent)%n", r.stretch(),
                    r.profileNanos() / 1e6, reference / 1e6);
            return r;
        } finally {
            stop(app);
        }
    }

    /**
     * The time the profile's timelines span, all threads together, in the profile's (corrected)
     * time: with request spans, the time inside them (a pooled thread's wait for the next request is
     * not the request's).
     */
    static long timelinesNanos(Path profile) throws IOException {
        SlotProfile p = SlotProfile.read(List.of(profile), BinaryProfileReader.summary(profile).slotNanos());
        long sum = 0;
        for (int t = 0; t < p.timelines(); t++) {
            sum += p.timelineEnd(t) - p.timelineStart(t);
        }
        return sum;
    }

    private Path sibling(String suffix) {
        return out.resolveSibling(out.getFileName() + suffix);
    }

    /** One recording of {@code requests} requests, their CPU times into {@code cpu}; the file the agent wrote. */
    private Path record(Process app, Path log, long[] cpu) throws IOException, InterruptedException {
        List<Path> before = ProfileCommand.written(out);
        control("POST", "/profile/start");
        System.arraycopy(send(requests, app, log, "recorded"), 0, cpu, 0, requests);
        control("POST", "/profile/stop");
        List<Path> after = new ArrayList<>(ProfileCommand.written(out));
        after.removeAll(before);
        if (after.size() != 1) {
            throw new IllegalStateException("the agent wrote " + after + " for one recording; see " + log);
        }
        return after.get(0);
    }

    private String control(String method, String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + controlPort + path))
                .timeout(Duration.ofSeconds(60)).method(method, HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(method + " " + path + " answered " + r.statusCode() + ": " + r.body().strip());
        }
        return r.body();
    }

    private static Process start(List<String> command, Path log) throws IOException {
        Files.deleteIfExists(log);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void stop(Process app) throws InterruptedException {
        app.destroy(); // SIGTERM: the agent's shutdown hook closes any open profile
        if (!app.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
            app.destroyForcibly().waitFor();
        }
    }

    /** Sends the request until it succeeds, at most {@link #readyTimeout}. */
    private void awaitReady(Process app, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + readyTimeout.toNanos();
        int last;
        do {
            if (!app.isAlive()) {
                throw new IllegalStateException("the application exited with " + app.exitValue()
                        + " before the request succeeded; its output: " + log);
            }
            last = runRequest();
            if (last == 0) {
                return;
            }
            Thread.sleep(250);
        } while (System.nanoTime() < deadline);
        throw new IllegalStateException("the request command did not succeed within " + readyTimeout.toSeconds()
                + " s (last exit status " + last + "): " + request + "; the application's output: " + log);
    }

    /** Sends {@code n} requests one at a time; each one's CPU time of the application's threads. */
    private long[] send(int n, Process app, Path log, String what) throws IOException, InterruptedException {
        long[] cpu = new long[n];
        Map<Integer, Long> before = AppThreadsCpu.read(app.pid());
        for (int i = 0; i < n; i++) {
            int exit = runRequest();
            Map<Integer, Long> after = AppThreadsCpu.read(app.pid());
            cpu[i] = AppThreadsCpu.between(before, after);
            before = after;
            if (exit != 0) {
                throw new IllegalStateException("the request command failed with exit status " + exit + " (" + what
                        + " request " + (i + 1) + " of " + n + "): " + request + (app.isAlive() ? ""
                        : "; the application has exited") + "; its output: " + log);
            }
        }
        return cpu;
    }

    static long median(long[] values) {
        long[] v = values.clone();
        java.util.Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private int runRequest() throws IOException, InterruptedException {
        return new ProcessBuilder("sh", "-c", request).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start().waitFor();
    }

    private static long metaLong(BinaryProfileReader.Summary s, String key, Path file) {
        String v = s.meta().get(key);
        if (v == null) {
            throw new IllegalStateException(file + " has no " + key + " record: the agent did not take the probe's cost"
                    + " out (profiles from --request need the default slot summaries and probe cost)");
        }
        return Long.parseLong(v);
    }
}
