package io.qosweaver.bench.tracing;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.AppProcess;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.Warmup;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadDriver;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.load.LoadSpec;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Reports;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.Snapshot;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Experiment {@code tracing}: for each repeat, every configuration once (the order rotated from
 * repeat to repeat), each in a river-monitor process of its own with the agent and the river
 * monitor's policy: a light then a full warm-up, then a window of closed-loop chart clients
 * measured for throughput and response time. The tracer (when on) writes its trace and statistics
 * page when the process stops, after the window; the files are deleted once their size is noted.
 */
public final class Tracing {
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(240);

    private Tracing() {
    }

    public static TracingResult run(Layout layout, TracingParams p, boolean quick, Path reportDir, String command,
                                    Progress progress) throws IOException, InterruptedException {
        layout.ensureBuilt(true);
        Files.createDirectories(reportDir);
        Path logs = Files.createDirectories(reportDir.resolve("logs"));
        Map<String, Object> params = p.asMap();
        params.putAll(layout.jarDates(true));
        List<TracingResult.Run> runs = new ArrayList<>();
        Map<String, String> errors = new LinkedHashMap<>();
        HttpClient http = LoadDriver.defaultClient();
        try (Snapshot jars = Snapshot.of(layout, true)) {
            params.put("policy", layout.root().relativize(layout.riverMonitorPolicy()).toString());
            Path traces = Files.createDirectories(jars.dir().resolve("traces"));
            List<String> configs = p.configs();
            for (int rep = 1; rep <= p.repeats(); rep++) {
                for (int k = 0; k < configs.size(); k++) {
                    // rotated: repeat r starts with configuration r-1, so that each runs early and late
                    TracingConfig c = TracingConfig.named(configs.get((k + rep - 1) % configs.size()));
                    try {
                        runs.add(runOne(http, jars, p, c, rep, k, traces, logs, progress));
                    } catch (IOException e) {
                        errors.put("repeat " + rep + " " + c.name(), e.getMessage());
                        progress.update("[tracing] repeat " + rep + " " + c.name() + " FAILED: " + e.getMessage());
                    }
                }
            }
        }
        TracingResult r = TracingAnalysis.assemble(quick, params, Machine.describe(), command, p, runs, errors,
                Instant.now().toString());
        JsonWriter.write(r, reportDir.resolve("results.json"));
        Reports.draw(reportDir, progress, () -> TracingReport.write(reportDir, r));
        return r;
    }

    private static TracingResult.Run runOne(HttpClient http, Snapshot jars, TracingParams p, TracingConfig c, int rep,
                                            int order, Path traces, Path logs, Progress progress)
            throws IOException, InterruptedException {
        Path trace = traces.resolve("r" + rep + "-" + c.name() + ".pftrace");
        Path log = logs.resolve("r" + rep + "-" + c.name() + ".log");
        List<String> jvm = List.of(Snapshot.agentFlag(jars.agentJar(), jars.policy()) + c.agentArgs(trace, p.osHz()));
        List<String> args = new ArrayList<>(List.of("--port", "0", "--generator-port", "0", "--period",
                Format.number(TracingParams.PERIOD_S), "--rivers", Integer.toString(p.rivers()), "--no-collector"));
        args.addAll(p.extraAppArgs());
        LoadResult measured;
        progress.update("[tracing] repeat " + rep + "/" + p.repeats() + ", " + c.name() + " (" + c.description() + ")");
        try (AppProcess app = AppProcess.start(jvm, List.of("-jar", jars.riverMonitorJar().toString()), args, log)) {
            URI base = app.awaitReady(STARTUP_TIMEOUT);
            int first = RiverMonitorRunner.firstRiverId(http, base);
            LoadSpec charts = LoadSpec.closed("chart", p.chartClients(), seq -> base.resolve("/chart?river="
                    + (first + seq % p.rivers()) + "&hours=" + p.chartHours()));
            Warmup.light(http, app, List.of(charts), p.warmupS(), progress, "tracing " + c.name());
            measured = new LoadDriver(http).run(List.of(charts), Duration.ofMillis(Math.round(p.warmupS() * 1000)),
                    Duration.ofMillis(Math.round(p.windowS() * 1000)), false);
            if (!app.isAlive()) {
                throw new IOException("the app died during the run; last lines:\n" + app.tail());
            }
        }
        ClassResult cr = measured.get("chart");
        Long bytes = null;
        Long events = null;
        Long lost = null;
        if (c.levels() != null) {
            // What the tracer wrote when the process stopped: the trace's size, and its statistics
            // from the page beside it (the same numbers as the trace's closing instant).
            Path page = trace.resolveSibling(trace.getFileName().toString().replace(".pftrace", ".html"));
            if (Files.isRegularFile(trace)) {
                bytes = Files.size(trace);
            }
            if (Files.isRegularFile(page)) {
                String html = Files.readString(page, StandardCharsets.UTF_8);
                events = number(html, "eventsWritten");
                Long late = number(html, "lostLate");
                Long ring = number(html, "lostRingFull");
                Long pending = number(html, "lostPendingFull");
                Long cap = number(html, "lostSizeCap");
                lost = late == null || ring == null || pending == null || cap == null ? null : late + ring + pending + cap;
            }
            Files.deleteIfExists(trace);
            Files.deleteIfExists(Path.of(trace + ".part"));
            Files.deleteIfExists(page);
        }
        progress.update(String.format(java.util.Locale.ROOT, "[tracing]   %s: %d charts (%d failed), %.2f charts/s,"
                        + " mean %s ms, p99 %s ms%s", c.name(), cr.requests(), cr.errors(), cr.throughputPerS(), Format.cell(cr.meanMs()), Format.cell(cr.p99Ms()),
                bytes == null ? "" : ", trace " + bytes / 1024 + " KiB, " + events + " events, " + lost + " lost"));
        return new TracingResult.Run(rep, order, c.name(), cr.requests(), cr.errors(), round(cr.throughputPerS()),
                round(cr.meanMs()), round(cr.p50Ms()), round(cr.p99Ms()), bytes, events, lost,
                "logs/" + log.getFileName());
    }

    private static Long number(String html, String key) {
        Matcher m = Pattern.compile("\"" + key + "\":(\\d+)").matcher(html);
        return m.find() ? Long.parseLong(m.group(1)) : null;
    }
}
