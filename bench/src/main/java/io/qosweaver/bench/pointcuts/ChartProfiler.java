package io.qosweaver.bench.pointcuts;

import io.qosweaver.bench.app.AppProcess;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.load.LoadDriver;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Profiles chart requests of the river monitor with the agent's profiling mode, one chart per
 * profile file, as the paper profiled "the execution of the application generating a chart"
 * (5.3): the app runs without its collector, so a recording holds the chart's thread only, and
 * the charts are requested one at a time over the agent's loopback control
 * ({@code POST /profile/start}, the chart, {@code POST /profile/stop}). Two charts before
 * (class loading, weaving, JIT) and one recorded chart (the first recording deoptimizes the
 * probed code) are not used.
 *
 * <p>Then the same charts are timed on the app without the profiling agent, warmed up for
 * {@link #UNPROFILED_WARMUP_S} seconds of one chart after another, {@link #UNPROFILED_CHARTS}
 * charts: how much longer a chart took recorded is the profile's slowdown, which the generator
 * needs to read the profile's time as real time. Not with the profile merely stopped: the probes
 * stay woven and cost even paused (about +65 % with Marlin woven, agent/README.md).
 */
public final class ChartProfiler {
    static final Pattern CONTROL = Pattern.compile("profile control on (http://\\S+?)/profile/");
    static final Pattern STOPPED = Pattern.compile("^profile (.+): (\\d+) join points, (\\d+) threads");

    /**
     * @param jvmArgs    the app's JVM flags, the agent's {@code -javaagent:...=profile=...} among them
     * @param charts     charts recorded (one file each)
     * @param rivers     the app's {@code --rivers}; the charts go to rivers 1..charts (or 0-based)
     */
    public record Plan(List<String> jvmArgs, List<String> appCommand, List<String> appArgs, int chartHours,
                       int charts, Path logFile) {
        public Plan {
            jvmArgs = List.copyOf(jvmArgs);
            appCommand = List.copyOf(appCommand);
            appArgs = List.copyOf(appArgs);
            if (charts < 1) {
                throw new IllegalArgumentException("at least one chart must be profiled, got " + charts);
            }
        }
    }

    /** One recorded chart: its file, join points, and the chart's response time while recorded. */
    public record Recorded(Path file, long joinPoints, int threads, double chartMs) {
    }

    /** Unprofiled charts timed, after {@link #UNPROFILED_WARMUP_S} of warm-up. */
    static final int UNPROFILED_CHARTS = 5;
    static final double UNPROFILED_WARMUP_S = 15;

    /**
     * The recordings and the same charts timed without the profiling agent.
     *
     * @param unprofiledChartMs response times of charts on the app without the agent, one client
     */
    public record Profiled(List<Recorded> charts, List<Double> unprofiledChartMs) {
        public Profiled {
            charts = List.copyOf(charts);
            unprofiledChartMs = List.copyOf(unprofiledChartMs);
        }

        /** Median recorded chart time over median unprofiled chart time (NaN without both). */
        public double slowdown() {
            return median(charts.stream().map(Recorded::chartMs).toList()) / median(unprofiledChartMs);
        }
    }

    static double median(List<Double> xs) {
        if (xs.isEmpty()) {
            return Double.NaN;
        }
        double[] v = xs.stream().mapToDouble(d -> d).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    }

    private final HttpClient http = LoadDriver.defaultClient();
    private final Progress progress;

    public ChartProfiler(Progress progress) {
        this.progress = progress;
    }

    public Profiled run(Plan plan) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--generator-port", "0", "--no-collector"));
        args.addAll(plan.appArgs());
        progress.update("[profile] starting the river monitor under the profiling agent; log " + plan.logFile());
        List<Recorded> out = new ArrayList<>();
        try (AppProcess app = AppProcess.start(plan.jvmArgs(), plan.appCommand(), args, plan.logFile())) {
            URI base = app.awaitReady(Duration.ofSeconds(240));
            String control = app.agentLine(CONTROL, Duration.ofSeconds(10));
            if (control == null) {
                throw new IOException("the profiling agent announced no control endpoint (profile control on ...); "
                        + "last lines:\n" + app.tail());
            }
            URI c = URI.create(control);
            int first = RiverMonitorRunner.firstRiverId(http, base);
            for (int i = 0; i < 2; i++) {
                progress.update("[profile] warm-up chart " + (i + 1) + "/2: " + fmtMs(chart(base, first, plan)) + " ms");
            }
            Recorded throwaway = record(c, base, first, plan);
            Files.deleteIfExists(throwaway.file());
            for (int i = 0; i < plan.charts(); i++) {
                Recorded r = null;
                for (int attempt = 0; attempt < 3 && r == null; attempt++) {
                    Recorded x = record(c, base, first + i, plan);
                    if (x.threads() == 1) {
                        r = x;
                    } else {
                        // another thread ran profiled code meanwhile (a stray request): record again
                        progress.update("[profile] " + x.threads() + " threads in " + x.file() + "; again");
                        Files.deleteIfExists(x.file());
                    }
                }
                if (r == null) {
                    throw new IOException("could not record chart " + (i + 1) + " on one thread in 3 attempts");
                }
                progress.update("[profile] chart " + (i + 1) + "/" + plan.charts() + ": " + r.joinPoints()
                        + " join points in " + fmtMs(r.chartMs()) + " ms (recorded): " + r.file());
                out.add(r);
            }
        }
        List<Double> unprofiled = unprofiled(plan, args);
        Profiled p = new Profiled(out, unprofiled);
        progress.update(String.format(java.util.Locale.ROOT, "[profile] the same charts without the profiling agent: "
                + "%s ms (median %s ms): the profile ran %.1fx slower", unprofiled.stream().map(ChartProfiler::fmtMs)
                .toList(), fmtMs(median(unprofiled)), p.slowdown()));
        return p;
    }

    /** The plan's charts on the app without any {@code -javaagent}, after a warm-up. */
    private List<Double> unprofiled(Plan plan, List<String> appArgs) throws IOException, InterruptedException {
        List<String> jvm = plan.jvmArgs().stream().filter(a -> !a.startsWith("-javaagent:")).toList();
        Path log = plan.logFile().resolveSibling("app-unprofiled.log");
        progress.update("[profile] timing the same charts on the river monitor without the agent; log " + log);
        try (AppProcess app = AppProcess.start(jvm, plan.appCommand(), appArgs, log)) {
            URI base = app.awaitReady(Duration.ofSeconds(240));
            int first = RiverMonitorRunner.firstRiverId(http, base);
            long until = System.nanoTime() + (long) (UNPROFILED_WARMUP_S * 1e9);
            int n = 0;
            while (System.nanoTime() - until < 0) {
                chart(base, first + n++ % plan.charts(), plan);
            }
            List<Double> ms = new ArrayList<>();
            for (int i = 0; i < UNPROFILED_CHARTS; i++) {
                ms.add(chart(base, first + i % plan.charts(), plan));
            }
            return ms;
        }
    }

    private Recorded record(URI control, URI base, int river, Plan plan) throws IOException, InterruptedException {
        String started = post(control.resolve("/profile/start"));
        if (!started.startsWith("recording")) {
            throw new IOException("profile start: " + started);
        }
        double ms = chart(base, river, plan);
        String stopped = post(control.resolve("/profile/stop"));
        Matcher m = STOPPED.matcher(stopped);
        if (!m.find()) {
            throw new IOException("profile stop: " + stopped);
        }
        if (stopped.contains("PARTIAL") || stopped.contains("DROPPED") || stopped.contains("FAILED")) {
            throw new IOException("incomplete profile: " + stopped);
        }
        return new Recorded(Path.of(m.group(1)), Long.parseLong(m.group(2)), Integer.parseInt(m.group(3)), ms);
    }

    private double chart(URI base, int river, Plan plan) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        String path = "/chart?river=" + river + "&hours=" + plan.chartHours();
        HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofMinutes(5))
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        if (r.statusCode() != 200) {
            String body = new String(r.body(), java.nio.charset.StandardCharsets.UTF_8).strip();
            throw new IOException("GET " + path + ": status " + r.statusCode() + ": "
                    + body.substring(0, Math.min(200, body.length())));
        }
        return (System.nanoTime() - t0) / 1e6;
    }

    private String post(URI u) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(u).POST(HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofMinutes(2)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("POST " + u + ": status " + r.statusCode() + ": " + r.body().strip());
        }
        return r.body().strip();
    }

    private static String fmtMs(double ms) {
        return String.format(java.util.Locale.ROOT, "%.0f", ms);
    }
}
