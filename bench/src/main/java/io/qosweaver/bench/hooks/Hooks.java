package io.qosweaver.bench.hooks;

import static io.qosweaver.bench.stats.Round.round;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.qosweaver.bench.app.AppProcess;
import io.qosweaver.bench.app.Progress;
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
import io.qosweaver.platform.ControlClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Experiment {@code hooks}: for each repeat, four river-monitor processes, one after the other in
 * an order rotated from repeat to repeat: no agent; the agent's hooks mode at every execution join
 * point of the app's packages; at every call and execution join point; the river monitor's policy.
 * Each serves its light page to an open-loop client (in this JVM, not the app's) through a warm-up
 * and a measured window. Every agent process records its class bytes ({@code recordClassBytes});
 * after the window the bench asks it for its hooks and their bytes ({@code ctl hooks}), unweaves
 * it and asks again (byte identity); the policy's process then serves a second warm-up and window:
 * the version after unweave. After its window (before any control command), every process serves
 * a CPU phase (its CPU time per request) and the hooks versions a counting phase ({@code ctl hooks
 * count start|stop}: hooks fired per request); with a JMH file of one idle hook's cost ({@link
 * HookCost}) the analysis computes the hooks' cost per request from these parts.
 */
public final class Hooks {
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(240);
    private static final Duration CONTROL_TIMEOUT = Duration.ofSeconds(120);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The processes of a repeat; the policy's also measures the version after unweave. */
    static final List<String> PROCESSES = List.of(HooksAnalysis.NONE, "execution", "all", "policy");

    private Hooks() {
    }

    public static HooksResult run(Layout layout, HooksParams p, boolean quick, Path reportDir, String command,
                                  Progress progress) throws IOException, InterruptedException {
        return run(layout, p, quick, reportDir, command, progress, null);
    }

    /** @param hookCost JMH JSON of {@code HooksBenchmark}, or null: read before any process starts */
    public static HooksResult run(Layout layout, HooksParams p, boolean quick, Path reportDir, String command,
                                  Progress progress, Path hookCost) throws IOException, InterruptedException {
        HookCost cost = hookCost == null ? null : HookCost.read(hookCost);
        layout.ensureBuilt(true);
        Files.createDirectories(reportDir);
        Path logs = Files.createDirectories(reportDir.resolve("logs"));
        Map<String, Object> params = p.asMap();
        params.putAll(layout.jarDates(true));
        List<HooksResult.Run> runs = new ArrayList<>();
        List<HooksResult.Memory> memory = new ArrayList<>();
        List<HooksResult.Identity> identity = new ArrayList<>();
        List<HooksResult.PerRequest> perRequest = new ArrayList<>();
        Map<String, String> errors = new LinkedHashMap<>();
        HttpClient http = LoadDriver.defaultClient();
        try (Snapshot jars = Snapshot.of(layout, true)) {
            params.put("policy", layout.root().relativize(layout.riverMonitorPolicy()).toString());
            if (p.driverWarmupS() > 0) {
                warmUpDriver(http, jars, p, logs, progress);
            }
            for (int rep = 1; rep <= p.repeats(); rep++) {
                for (int k = 0; k < PROCESSES.size(); k++) {
                    String version = PROCESSES.get((k + rep - 1) % PROCESSES.size());
                    try {
                        runProcess(http, jars, p, version, rep, k, logs, progress, runs, memory, identity, perRequest);
                    } catch (IOException e) {
                        errors.put("repeat " + rep + " " + version, e.getMessage());
                        progress.update("[hooks] repeat " + rep + " " + version + " FAILED: " + e.getMessage());
                    }
                }
            }
        }
        if (cost != null) {
            params.put("hook_cost", hookCost.toString());
        }
        HooksResult r = HooksAnalysis.assemble(quick, params, Machine.describe(), command, runs, memory, identity, errors,
                Instant.now().toString(), perRequest, cost);
        JsonWriter.write(r, reportDir.resolve("results.json"));
        Reports.draw(reportDir, progress, () -> HooksReport.write(reportDir, r));
        return r;
    }

    /** The load against an app without the agent, nothing measured: the driver's code compiled before any window. */
    private static void warmUpDriver(HttpClient http, Snapshot jars, HooksParams p, Path logs, Progress progress)
            throws IOException, InterruptedException {
        progress.update("[hooks] warming up the load driver: " + Format.cell(p.driverWarmupS()) + " s against an app"
                + " without the agent, not measured");
        try (AppProcess app = AppProcess.start(List.of(), List.of("-jar", jars.riverMonitorJar().toString()),
                appArgs(p), logs.resolve("driver-warmup.log"))) {
            URI base = app.awaitReady(STARTUP_TIMEOUT);
            new LoadDriver(http).run(List.of(levels(p, base)), Duration.ZERO,
                    Duration.ofMillis(Math.round(p.driverWarmupS() * 1000)), false);
        }
    }

    private static List<String> appArgs(HooksParams p) {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--generator-port", "0", "--rivers",
                Integer.toString(p.rivers()), "--no-collector"));
        args.addAll(p.extraAppArgs());
        return args;
    }

    private static LoadSpec levels(HooksParams p, URI base) {
        return LoadSpec.open("levels", p.ratePerS(), HooksParams.MAX_IN_FLIGHT, LoadSpec.Targets.fixed(base.resolve("/levels")));
    }

    /** The JVM flags of a process: none, the hooks mode, or the policy; every agent records class bytes. */
    static List<String> jvmFlags(String version, Path agentJar, Path policy) {
        return switch (version) {
            case HooksAnalysis.NONE -> List.of();
            case "execution", "all" -> List.of("-javaagent:" + agentJar + "=hooks=" + version + ",hooksInclude="
                    + HooksParams.APP_PACKAGES + ",recordClassBytes=true");
            case "policy" -> List.of(Snapshot.agentFlag(agentJar, policy) + ",recordClassBytes=true");
            default -> throw new IllegalArgumentException("no process runs version " + version);
        };
    }

    private static void runProcess(HttpClient http, Snapshot jars, HooksParams p, String version, int rep, int order,
                                   Path logs, Progress progress, List<HooksResult.Run> runs,
                                   List<HooksResult.Memory> memory, List<HooksResult.Identity> identity,
                                   List<HooksResult.PerRequest> perRequest) throws IOException, InterruptedException {
        Path log = logs.resolve("r" + rep + "-" + version + ".log");
        List<String> args = appArgs(p);
        progress.update("[hooks] repeat " + rep + "/" + p.repeats() + ", " + version + " ("
                + HooksAnalysis.VERSIONS.get(version) + ")");
        try (AppProcess app = AppProcess.start(jvmFlags(version, jars.agentJar(), jars.policy()),
                List.of("-jar", jars.riverMonitorJar().toString()), args, log)) {
            URI base = app.awaitReady(STARTUP_TIMEOUT);
            LoadSpec levels = levels(p, base);
            runs.add(measure(http, app, levels, p, version, rep, order, log, progress));
            if (p.phaseS() > 0) {
                perRequest.add(phases(http, app, levels, p, version, rep, progress));
            }
            if (version.equals(HooksAnalysis.NONE)) {
                return;
            }
            JsonNode woven = control(app.pid(), "hooks");
            JsonNode status = control(app.pid(), "--json status");
            memory.add(memory(rep, version, woven, status));
            ControlClient.Reply unweave = send(app.pid(), "unweave");
            if (!unweave.ok()) {
                throw new IOException("unweave refused: " + unweave.text().strip());
            }
            JsonNode after = control(app.pid(), "hooks").path("classBytes");
            List<String> differing = new ArrayList<>();
            after.path("differing").forEach(n -> differing.add(n.asText()));
            identity.add(new HooksResult.Identity(rep, version, after.path("classesWoven").asInt(),
                    after.path("identicalNow").asInt(), differing));
            if (version.equals("policy")) {
                runs.add(measure(http, app, levels, p, HooksAnalysis.UNWOVEN, rep, order, log, progress));
            }
        }
    }

    private static HooksResult.Run measure(HttpClient http, AppProcess app, LoadSpec levels, HooksParams p,
                                           String version, int rep, int order, Path log, Progress progress)
            throws IOException, InterruptedException {
        LoadResult measured = new LoadDriver(http).run(List.of(levels), Duration.ofMillis(Math.round(p.warmupS() * 1000)),
                Duration.ofMillis(Math.round(p.windowS() * 1000)), false);
        if (!app.isAlive()) {
            throw new IOException("the app died during the run; last lines:\n" + app.tail());
        }
        ClassResult c = measured.get("levels");
        progress.update(String.format(java.util.Locale.ROOT, "[hooks]   %s: %d pages (%d failed), mean %s ms, p50 %s ms,"
                + " p99 %s ms", version, c.requests(), c.errors(), Format.cell(c.meanMs()), Format.cell(c.p50Ms()),
                Format.cell(c.p99Ms())));
        return new HooksResult.Run(rep, order, version, c.requests(), c.errors(), round(c.throughputPerS()),
                c.meanMs() == null ? null : round(c.meanMs(), 4), c.p50Ms() == null ? null : round(c.p50Ms(), 4),
                c.p99Ms() == null ? null : round(c.p99Ms(), 4), "logs/" + log.getFileName());
    }

    /**
     * The phases after the window, at its load: the app's CPU time per request (nothing attached:
     * the idle hooks' process as measured), then, in the hooks versions, every hook counted per
     * request (counting costs CPU of its own, hence a phase apart).
     */
    private static HooksResult.PerRequest phases(HttpClient http, AppProcess app, LoadSpec levels, HooksParams p,
                                                 String version, int rep, Progress progress)
            throws IOException, InterruptedException {
        Duration phase = Duration.ofMillis(Math.round(p.phaseS() * 1000));
        Duration cpu0 = cpuTime(app.pid());
        ClassResult c = new LoadDriver(http).run(List.of(levels), Duration.ZERO, phase, false).get("levels");
        Duration cpu1 = cpuTime(app.pid());
        Double cpuMs = cpu0 == null || cpu1 == null ? null : cpuMsPerRequest(cpu1.minus(cpu0), c.requests());
        if (!version.equals("execution") && !version.equals("all")) {
            progress.update(String.format(java.util.Locale.ROOT, "[hooks]   %s: %s ms of CPU per request", version,
                    Format.cell(cpuMs)));
            return new HooksResult.PerRequest(rep, version, c.requests(), cpuMs, 0, null, null, null, null, null, null);
        }
        control(app.pid(), "hooks count start");
        ClassResult counted = new LoadDriver(http).run(List.of(levels), Duration.ZERO, phase, false).get("levels");
        JsonNode n = control(app.pid(), "hooks count stop");
        HooksResult.PerRequest r = perRequest(rep, version, c.requests(), cpuMs, counted.requests(),
                n.path("entered").asLong(), n.path("exited").asLong(), n.path("called").asLong());
        progress.update(String.format(java.util.Locale.ROOT, "[hooks]   %s: %s ms of CPU per request; per request %s"
                        + " entries, %s exits, %s calls", version, Format.cell(cpuMs), Format.cell(r.enteredPerRequest()),
                Format.cell(r.exitedPerRequest()), Format.cell(r.calledPerRequest())));
        return r;
    }

    /** Hooks fired over the requests completed in the counting phase; null per kind without requests. */
    static HooksResult.PerRequest perRequest(int rep, String version, long cpuRequests, Double cpuMs, long requests,
                                             long entered, long exited, long called) {
        return new HooksResult.PerRequest(rep, version, cpuRequests, cpuMs, requests, entered, exited, called,
                per(entered, requests), per(exited, requests), per(called, requests));
    }

    static Double cpuMsPerRequest(Duration cpu, long requests) {
        return requests <= 0 ? null : round(cpu.toNanos() / 1e6 / requests, 4);
    }

    private static Double per(long n, long requests) {
        return requests <= 0 ? null : round((double) n / requests, 2);
    }

    /** The process's CPU time, all threads (on Linux, /proc/PID/stat: clock ticks, 10 ms); null if unknown. */
    private static Duration cpuTime(long pid) {
        return ProcessHandle.of(pid).flatMap(h -> h.info().totalCpuDuration()).orElse(null);
    }

    /** From the agent's {@code hooks} and {@code --json status} answers while woven. */
    static HooksResult.Memory memory(int rep, String version, JsonNode hooks, JsonNode status) {
        Long executions = hooks.has("executions") ? hooks.get("executions").asLong() : null;
        Long calls = hooks.has("calls") ? hooks.get("calls").asLong() : null;
        Long sites = hooks.has("hookSites") ? hooks.get("hookSites").asLong() : null;
        long joinPoints;
        if (executions != null) {
            joinPoints = executions + (calls == null ? 0 : calls);
        } else {
            joinPoints = 0;
            for (JsonNode pc : status.path("pointcuts")) {
                joinPoints += pc.path("joinPoints").asLong();
            }
        }
        JsonNode bytes = hooks.path("classBytes");
        JsonNode meta = hooks.path("metaspace");
        long original = bytes.path("originalBytes").asLong();
        long woven = bytes.path("wovenBytes").asLong();
        long metaOriginal = meta.path("originalBytes").asLong();
        long metaWoven = meta.path("wovenBytes").asLong();
        return new HooksResult.Memory(rep, version, joinPoints, executions, calls, sites,
                bytes.path("classesWoven").asInt(), original, woven, metaOriginal, metaWoven,
                meta.path("failed").asInt(), HooksAnalysis.perUnit(woven - original, joinPoints),
                HooksAnalysis.perUnit(woven - original, sites), HooksAnalysis.perUnit(metaWoven - metaOriginal, joinPoints));
    }

    private static JsonNode control(long pid, String line) throws IOException {
        ControlClient.Reply r = send(pid, line);
        if (!r.ok()) {
            throw new IOException("'" + line + "' refused: " + r.text().strip());
        }
        return JSON.readTree(r.text());
    }

    /** One control request, bounded by {@link #CONTROL_TIMEOUT}. */
    private static ControlClient.Reply send(long pid, String line) throws IOException {
        return ControlClient.send(pid, line, CONTROL_TIMEOUT);
    }
}
