package io.qosweaver.bench.mixed;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.AppProcess;
import io.qosweaver.bench.app.Proc;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.ThreadCpu;
import io.qosweaver.bench.load.AnswerCheck;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.load.LoadResult;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Reports;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.PolicyParams;
import io.qosweaver.bench.run.Snapshot;
import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.run.Versions.Version;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs {@code bench mixed}: every version of a third-party app, one after another, each in a fresh
 * server process, under the same load; then {@code results.json}, {@code index.html} and {@code RESULTS.md}.
 *
 * <p>Per version: start the server and wait until it answers (its data loaded); warm up with one heavy
 * client per core and the light stream; the full load (8 x cores heavy clients and the light stream) for a
 * warm-up, then the loaded window; 5 s later the idle window (the light stream alone). The heavy and the light
 * clients are two driver JVMs ({@link MixedDriver}), the heavy one at {@code nice 10}; both measure the same
 * wall-clock window, over which the harness reads the server's CPU time from {@code /proc}.
 */
public final class Mixed {
    static final String PARTIAL_RESULTS = "results.partial.json";
    /** Between the end of the loaded window and the idle window's start: the heavy requests left in the server end. */
    static final long IDLE_GAP_MS = 5000;
    static final Pattern PEER_INSTALLED = Pattern.compile("qosweaver-peers: \\S+ installed on .*");
    static final Pattern AGENT_STARTED = Pattern.compile("\\[qosweaver\\] agent started: .*");

    private Mixed() {
    }

    /** Runs the app's fetch script (the jar from Maven Central, nothing of it committed) and returns the jar's path (its last line of output). */
    public static Path fetch(Path root, MixedApp app, Progress progress) throws IOException, InterruptedException {
        Path script = root.resolve(app.fetchScript());
        if (!Files.isRegularFile(script)) {
            throw new IOException("the fetch script of app " + app.name() + " is missing: " + script);
        }
        progress.update("[mixed] fetching " + app.name() + " with " + app.fetchScript());
        Process p = new ProcessBuilder("bash", script.toString()).directory(root.toFile()).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        int rc = p.waitFor();
        String[] lines = out.strip().split("\n");
        Path jar = lines.length == 0 || lines[lines.length - 1].isBlank() ? null : Path.of(lines[lines.length - 1].strip());
        if (rc != 0 || jar == null || !Files.isRegularFile(jar)) {
            throw new IOException("fetching " + app.name() + " failed (" + app.fetchScript() + ", exit " + rc + "): "
                    + (err.isBlank() ? out.strip() : err.strip()));
        }
        return jar;
    }

    /** Runs the versions once, in the order given, and writes the report into {@code dir}. */
    public static MixedResult run(Layout layout, MixedApp app, MixedParams params, List<Version> versions, boolean quick,
            Path dir, String command, Progress progress) throws IOException, InterruptedException {
        return withSetup(layout, app, params, versions, plan(versions.size(), "", params.secondsPerVersion()),
                progress, (s, parameters) ->
                runRound(s, app, params, versions, quick, dir, command, parameters, progress));
    }

    /**
     * Runs every version {@code rounds} times, the order rotated by one per round (so that no version always
     * runs first on a host that drifts), each round a complete run in {@code dir/round-K}; then the spread over
     * the rounds into {@code dir}.
     */
    public static MixedRounds runRounds(Layout layout, MixedApp app, MixedParams params, List<Version> versions,
            int rounds, boolean quick, Path dir, String command, Progress progress)
            throws IOException, InterruptedException {
        if (rounds < 2) {
            throw new IllegalArgumentException("rounds must be at least 2 (one round is a plain run), got " + rounds);
        }
        List<String> names = versions.stream().map(Version::name).toList();
        return withSetup(layout, app, params, versions, plan(versions.size(), " x " + rounds + " rounds",
                rounds * params.secondsPerVersion()), progress, (s, parameters) -> {
            parameters.put("rounds", rounds);
            parameters.put("order", "rotated by one per round; see `order`");
            List<MixedResult> results = new ArrayList<>();
            List<List<String>> orders = new ArrayList<>();
            Map<String, String> errors = new LinkedHashMap<>();
            for (int k = 0; k < rounds; k++) {
                List<String> order = io.qosweaver.bench.run.Versions.rotated(names, k);
                orders.add(order);
                progress.update("[mixed] round " + (k + 1) + "/" + rounds + ", order " + order);
                List<Version> ordered = order.stream().map(n -> versions.get(names.indexOf(n))).toList();
                MixedResult r = runRound(s, app, params, ordered, quick, dir.resolve("round-" + (k + 1)), command,
                        parameters, progress);
                results.add(r);
                r.errors().forEach((v, e) -> errors.put("round-" + results.size() + " " + v, e));
            }
            MixedRounds all = MixedRounds.of(names, results, orders, command, quick, parameters, Machine.describe(),
                    results.get(0).app(), errors);
            JsonWriter.write(all, dir.resolve("results.json"));
            Reports.draw(dir, progress, () -> MixedRoundsReport.write(all, dir));
            return all;
        });
    }

    /**
     * The spread over the rounds of an earlier {@code --repeat} run, read again from {@code dir/round-K/results.json}
     * and written into {@code dir} (results.json, index.html, RESULTS.md), running nothing: after the rounds'
     * report gained a figure, the run's rounds need not be run again.
     */
    public static MixedRounds reportRounds(Path dir, Progress progress) throws IOException {
        List<MixedResult> results = new ArrayList<>();
        for (int k = 1; Files.isRegularFile(dir.resolve("round-" + k).resolve("results.json")); k++) {
            Path f = dir.resolve("round-" + k).resolve("results.json");
            try {
                results.add(JsonWriter.MAPPER.readValue(f.toFile(), MixedResult.class));
            } catch (IOException e) {
                throw new IOException("cannot read " + f + " as the results of a bench mixed round: " + e.getMessage(), e);
            }
        }
        if (results.size() < 2) {
            throw new IllegalArgumentException(dir + " holds " + results.size() + " round(s) (round-K/results.json from"
                    + " K = 1 on); the spread needs at least 2");
        }
        List<List<String>> orders = results.stream().map(r -> List.copyOf(r.versions().keySet())).toList();
        Map<String, String> errors = new LinkedHashMap<>();
        for (int k = 0; k < results.size(); k++) {
            int round = k + 1;
            results.get(k).errors().forEach((v, e) -> errors.put("round-" + round + " " + v, e));
        }
        MixedResult first = results.get(0);
        MixedRounds all = MixedRounds.of(orders.get(0), results, orders, first.command(), first.quick(),
                first.parameters(), first.machine(), first.app(), errors);
        JsonWriter.write(all, dir.resolve("results.json"));
        Reports.draw(dir, progress, () -> MixedRoundsReport.write(all, dir));
        return all;
    }

    /** The copies every round runs from: the app's jar, the agents, the app's data. */
    record Setup(Path tmp, Path appJar, Path agent, Path peers, Path data, Layout layout) {
    }

    interface Body<T> {
        T run(Setup s, Map<String, Object> parameters) throws IOException, InterruptedException;
    }

    /** The progress line that says what a run will do and about how long it takes. */
    static String plan(int versions, String times, double secondsPerVersion) {
        return String.format("[mixed] %d versions%s, about %.0f minutes", versions, times,
                versions * secondsPerVersion / 60);
    }

    /** Fetches the app and makes the private copies every process runs from, then runs {@code body}. */
    static <T> T withSetup(Layout layout, MixedApp app, MixedParams params, List<Version> versions, String plan,
            Progress progress, Body<T> body) throws IOException, InterruptedException {
        boolean needAgent = versions.stream().anyMatch(Version::usesAgent);
        boolean needPeers = versions.stream().anyMatch(Version::usesPeer);
        layout.ensureBuilt(false, needAgent, needPeers);
        Path jar = fetch(layout.root(), app, progress);
        Path tmp = Files.createTempDirectory("qosweaver-mixed-");
        Map<String, Object> parameters = parameters(layout, app, params, versions, jar, needAgent, needPeers);
        try {
            // private copies: others rebuild target/ while a long run goes on (bench/README.md, Snapshot)
            Path appJar = Files.copy(jar, tmp.resolve(jar.getFileName()));
            Path agent = needAgent ? Files.copy(layout.agentJar(), tmp.resolve("qosweaver-agent.jar")) : null;
            Path peers = needPeers ? Files.copy(layout.peersAgentJar(), tmp.resolve("qosweaver-peers-agent.jar")) : null;
            Path data = tmp.resolve("data");
            progress.update("[mixed] writing " + app.name() + "'s data");
            app.prepare(layout.root(), data);
            progress.update(plan);
            return body.run(new Setup(tmp, appJar, agent, peers, data, layout), parameters);
        } finally {
            deleteDir(tmp);
        }
    }

    /**
     * The version's policy file, copied into {@code tmp} the first time it is asked for: every round of a
     * run uses that copy, so that editing the working tree's file during a long run changes nothing in it.
     */
    static Path policyCopy(Path root, Version v, Path tmp) throws IOException {
        Path copy = tmp.resolve(Versions.fileName(v.name()) + ".yaml");
        if (Files.isRegularFile(copy)) {
            return copy;
        }
        Path from = root.resolve(v.policy());
        if (!Files.isRegularFile(from)) {
            throw new IOException("the policy of version " + v.name() + " is missing: " + from);
        }
        if (v.policyParams().isEmpty()) {
            return Files.copy(from, copy);
        }
        return Files.writeString(copy, PolicyParams.applyTo(from, v));
    }

    /** Runs {@code versions} in their order into {@code dir}: results.json, the report, the app logs. */
    private static MixedResult runRound(Setup s, MixedApp app, MixedParams params, List<Version> versions, boolean quick,
            Path dir, String command, Map<String, Object> parameters, Progress progress)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Map<String, VersionRun> runs = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        for (Version v : versions) {
            List<String> flags = new ArrayList<>(app.jvmFlags());
            flags.addAll(params.appJvmFlags());
            flags.addAll(v.jvmFlags());
            if (v.usesAgent()) {
                flags.add(Snapshot.agentFlag(s.agent(), policyCopy(s.layout().root(), v, s.tmp())));
            }
            if (v.usesPeer()) {
                flags.add("-javaagent:" + s.peers() + "=" + v.peer());
            }
            Path work = s.tmp().resolve("run-" + Versions.fileName(v.name()));
            deleteDir(work);
            copyDir(s.data(), work);
            Path appLog = dir.resolve("app-" + Versions.fileName(v.name()) + ".log");
            VersionRun r;
            try {
                r = runVersion(app, params, v, s.appJar(), flags, work, appLog, s.tmp(), progress);
            } catch (IOException e) {
                progress.update("[" + v.name() + "] FAILED: " + e.getMessage());
                errors.put(v.name(), e.getMessage());
                r = VersionRun.failed(v, flags, appLog, dir, e.getMessage());
            }
            runs.put(v.name(), gzipLog(r.withLightTailGc(appLog), appLog));
            MixedResult partial = result(app, params, quick, command, parameters, errors, runs, dir);
            JsonWriter.write(partial, dir.resolve(PARTIAL_RESULTS));
        }
        MixedResult result = result(app, params, quick, command, parameters, errors, runs, dir);
        JsonWriter.write(result, dir.resolve("results.json"));
        Files.deleteIfExists(dir.resolve(PARTIAL_RESULTS));
        Reports.draw(dir, progress, () -> MixedReport.write(result, dir));
        return result;
    }

    /** What one version measured, before the ratios against the unscheduled one. */
    record VersionRun(Version version, List<String> flags, String installLine, LoadResult idle, Double idleCpuCores,
                      LoadResult loaded, Double cpuCores, Double cpuMs, Integer heavyNice, Integer lightNice,
                      String appLog, String error, Double idleOtherCpuCores, Double otherCpuCores,
                      Map<String, Object> priority, Map<String, Object> lightTailGc) {
        static VersionRun failed(Version v, List<String> flags, Path appLog, Path dir, String error) {
            return new VersionRun(v, flags, null, null, null, null, null, null, null, null,
                    dir.relativize(appLog).toString(), error, null, null, null, null);
        }

        /** This run with the light tail matched to the app's GC pauses in its log. */
        VersionRun withLightTailGc(Path appLog) {
            if (loaded == null || !Files.isRegularFile(appLog)) {
                return this;
            }
            try {
                Map<String, Object> t = GcPauses.tail(loaded.get(MixedApp.LIGHT), GcPauses.read(appLog),
                        loaded.windowStartMs(), loaded.windowStartMs() + loaded.windowSeconds() * 1000);
                return new VersionRun(version, flags, installLine, idle, idleCpuCores, loaded, cpuCores, cpuMs, heavyNice,
                        lightNice, this.appLog, error, idleOtherCpuCores, otherCpuCores, priority, t);
            } catch (IOException | RuntimeException e) {
                return this; // no match: the figures stand without it
            }
        }
    }

    private static VersionRun runVersion(MixedApp app, MixedParams p, Version v, Path jar, List<String> flags, Path work,
            Path appLog, Path tmp, Progress progress) throws IOException, InterruptedException {
        int port = freePort();
        progress.update("[" + v.name() + "] starting " + app.name() + " on port " + port);
        try (AppProcess proc = AppProcess.start(flags, List.of("-jar", jar.toString()), app.appArgs(port), appLog,
                work)) {
            URI base = URI.create("http://127.0.0.1:" + port);
            lowerOutputReaders(proc, p, v.name(), progress);
            proc.awaitHttp(URI.create(base + app.readyPath()), Duration.ofSeconds(180));
            String install = null;
            if (v.usesAgent()) {
                install = proc.agentLine(AGENT_STARTED, Duration.ofSeconds(5));
                if (install == null) {
                    throw new IOException("the agent printed no 'agent started' line; first error: " + proc.firstError());
                }
            } else if (v.usesPeer()) {
                install = installLine(appLog, PEER_INSTALLED);
                if (install == null) {
                    throw new IOException("the peers agent did not install " + v.peer() + " into " + app.name()
                            + " (no 'installed on' line in " + appLog + ")");
                }
            }
            Target heavy = new Target(app.heavyTarget(base), app.heavyBody(), work, app.heavyAnswer());
            Target light = new Target(app.lightTarget(base), app.lightBody(), work);
            Path logs = tmp.resolve("drivers-" + Versions.fileName(v.name()));
            deleteDir(logs); // an earlier round's: a driver that writes nothing must not be read as this round's

            progress.update("[" + v.name() + "] warm-up " + (int) p.warmupS() + " s: " + MixedParams.CORES
                    + " heavy clients and the light stream");
            long now = System.currentTimeMillis();
            phase(p, heavy, light, app.lightIds(), MixedParams.CORES, now, now + 1000, now + 1000 + ms(p.warmupS()), logs, "warmup",
                    proc);

            progress.update("[" + v.name() + "] loaded: " + p.heavyClients() + " heavy clients (nice " + p.heavyNice()
                    + ") and " + p.lightRate() + " light/s, " + (int) p.warmupS() + " s warm-up then "
                    + (int) p.durationS() + " s measured");
            now = System.currentTimeMillis();
            long start = now + 1000 + ms(p.warmupS());
            Phase loaded = phase(p, heavy, light, app.lightIds(), p.heavyClients(), now, start, start + ms(p.durationS()), logs,
                    "loaded", proc);
            Map<String, Object> priority = v.usesAgent() ? priority(proc) : null;
            if (priority != null) {
                progress.update("[" + v.name() + "] OS priorities " + (Boolean.TRUE.equals(priority.get("effective"))
                        ? "applied (" + priority.get("changes") + " changes)" : "NOT applied: " + priority.get("reason")));
            }
            // The idle window comes last: by then the start-up's one-off pauses are over (Fuseki runs a full
            // collection requested by System.gc() 60-69 s after it starts, which fell in an idle window placed
            // before the load and moved the idle p99 by 3x); the drivers have closed their connections and
            // IDLE_GAP_MS lets the requests still running in the server finish.
            progress.update("[" + v.name() + "] idle window " + (int) p.idleS() + " s: the light stream alone");
            now = System.currentTimeMillis();
            long idleStart = now + IDLE_GAP_MS;
            Phase idle = phase(p, null, light, app.lightIds(), 0, now, idleStart, idleStart + ms(p.idleS()), logs, "idle", proc);
            if (!proc.isAlive()) {
                throw new IOException(app.name() + " exited during the run; its first error: " + proc.firstError());
            }
            VersionRun r = new VersionRun(v, flags, install, idle.result(), idle.cpuCores(), loaded.result(),
                    loaded.cpuCores(), loaded.cpuMs(), loaded.heavyNice(), loaded.lightNice(),
                    appLog.getFileName().toString(), null, idle.otherCpuCores(), loaded.otherCpuCores(), priority, null);
            ClassResult h = r.loaded().get(MixedApp.HEAVY);
            ClassResult l = r.loaded().get(MixedApp.LIGHT);
            ClassResult il = r.idle().get(MixedApp.LIGHT);
            progress.update(String.format("[%s] idle light p99 %s ms; loaded: heavy %.2f/s (errors %d), light p50/p99/max "
                    + "%s/%s/%s ms (errors %d), server CPU %.2f cores, other processes %s cores (idle window %s)",
                    v.name(), il.p99Ms(), h.throughputPerS(), h.errors(), l.p50Ms(), l.p99Ms(), l.maxMs(), l.errors(),
                    loaded.cpuCores(), loaded.otherCpuCores(), idle.otherCpuCores()));
            return r;
        }
    }

    /**
     * What the agent's {@code qosweaver_priority_effective} gauge says at the end of the loaded window (its
     * metrics endpoint, from the line it printed), or null when its policy sets no OS priority: a version
     * whose priorities could not be applied must say so, never pass the app without them off as itself.
     */
    private static Map<String, Object> priority(AppProcess proc) throws InterruptedException {
        URI metrics = proc.metrics(Duration.ofSeconds(1));
        return metrics == null ? null
                : RiverMonitorRunner.priority(RiverMonitorRunner.scrape(java.net.http.HttpClient.newHttpClient(), metrics));
    }

    /** One window's drivers, their merged results and the server's CPU over the window (by thread group too). */
    record Phase(LoadResult result, Double cpuCores, Double cpuMs, Integer heavyNice, Integer lightNice,
                 Double otherCpuCores, SchedCounters sched, List<ThreadCpu.Group> threadCpu) {
    }

    private static Long driversCpuMs(List<DriverProcess> drivers) {
        long sum = 0;
        for (DriverProcess d : drivers) {
            Long ms = Proc.cpuMs(d.pid());
            if (ms == null) {
                return null;
            }
            sum += ms;
        }
        return sum;
    }

    /**
     * What a driver sends: the URI template, and for a PUT or POST the method, the body's file (written by
     * {@link MixedApp#prepare} into the server's working directory) and its content type; and what a served
     * answer must contain (null: its status alone decides).
     */
    record Target(String uri, MixedApp.RequestBody body, Path dir, AnswerCheck answer) {
        Target(String uri, MixedApp.RequestBody body, Path dir) {
            this(uri, body, dir, null);
        }

        /** The driver's arguments for it. */
        List<String> driverArgs() {
            List<String> a = new ArrayList<>(List.of("--target", uri));
            if (body != null) {
                a.addAll(List.of("--method", body.method(), "--body", dir.resolve(body.file()).toString(),
                        "--content-type", body.contentType()));
            }
            if (answer != null) {
                a.addAll(List.of("--expect", answer.text(), "--expect-count", Integer.toString(answer.count())));
            }
            return a;
        }
    }

    static Phase phase(MixedParams p, Target heavy, Target light, int lightIds, int heavyClients, long now, long windowStart,
            long windowEnd, Path logs, String name, AppProcess proc) throws IOException, InterruptedException {
        List<DriverProcess> drivers = new ArrayList<>();
        try {
            DriverProcess h = null;
            if (heavy != null) {
                List<String> args = new ArrayList<>(List.of("--name", MixedApp.HEAVY, "--mode", "closed", "--clients",
                        Integer.toString(heavyClients), "--window-start-ms", Long.toString(windowStart),
                        "--window-end-ms", Long.toString(windowEnd), "--out", logs.resolve(name + "-heavy.json").toString(),
                        "--timeout-s", "120"));
                args.addAll(heavy.driverArgs());
                h = DriverProcess.start(MixedApp.HEAVY, p.heavyNice(), args, logs.resolve(name + "-heavy.json"),
                        logs.resolve(name + "-heavy.log"));
                drivers.add(h);
            }
            List<String> lightArgs = new ArrayList<>(List.of("--name", MixedApp.LIGHT, "--mode", "open", "--rate",
                    Double.toString(p.lightRate()), "--clients", Integer.toString(p.lightMaxInFlight()), "--ids",
                    Integer.toString(lightIds), "--window-start-ms", Long.toString(windowStart), "--window-end-ms",
                    Long.toString(windowEnd), "--out", logs.resolve(name + "-light.json").toString(), "--timeout-s", "60",
                    "--transport", p.lightClient().name().toLowerCase(java.util.Locale.ROOT)));
            if (p.lightFifo() > 0) {
                lightArgs.addAll(List.of("--fifo", Integer.toString(p.lightFifo())));
            }
            lightArgs.addAll(light.driverArgs());
            DriverProcess l = DriverProcess.start(MixedApp.LIGHT, 0, lightArgs, logs.resolve(name + "-light.json"),
                    logs.resolve(name + "-light.log"));
            drivers.add(l);
            Thread.sleep(Math.max(0, Math.min(500, windowStart - System.currentTimeMillis())));
            Integer heavyNice = h != null ? h.nice() : null;
            Integer lightNice = l.nice();
            sleepUntil(windowStart);
            checkLightFifo(p, l);
            Long cpu0 = Proc.cpuMs(proc.pid());
            SchedCounters.Reading sched0 = SchedCounters.read(proc.pid());
            Long busy0 = Proc.machineBusyMs();
            Long drivers0 = driversCpuMs(drivers);
            long t0 = System.nanoTime();
            ThreadCpu threads = ThreadCpu.start(proc.pid());
            List<ThreadCpu.Group> threadCpu;
            try {
                sleepUntil(windowEnd);
            } finally {
                threadCpu = threads == null ? List.of() : threads.stop();
            }
            Long cpu1 = Proc.cpuMs(proc.pid());
            SchedCounters.Reading sched1 = SchedCounters.read(proc.pid());
            Long busy1 = Proc.machineBusyMs();
            Long drivers1 = driversCpuMs(drivers);
            double seconds = (System.nanoTime() - t0) / 1e9;
            long wait = 60_000 + (windowEnd - System.currentTimeMillis());
            Map<String, ClassResult> classes = new LinkedHashMap<>();
            List<LoadResult.Sample> series = new ArrayList<>();
            double windowS = 0;
            for (DriverProcess d : drivers) {
                LoadResult r = d.await(wait);
                classes.putAll(r.classes());
                series.addAll(r.timeSeries());
                windowS = Math.max(windowS, r.windowSeconds());
            }
            series.sort(Comparator.comparingDouble(LoadResult.Sample::offsetS));
            Double cpuMs = cpu0 != null && cpu1 != null ? (double) (cpu1 - cpu0) : null;
            ClassResult hr = classes.get(MixedApp.HEAVY);
            Double perHeavy = cpuMs != null && hr != null && hr.requests() > 0 ? round(cpuMs / hr.requests(), 1) : null;
            // what else ran on the machine in the window: every busy tick less the server's and the drivers'
            Double other = cpuMs != null && busy0 != null && busy1 != null && drivers0 != null && drivers1 != null
                    ? round(Math.max(0, (busy1 - busy0) - cpuMs - (drivers1 - drivers0)) / 1000 / seconds, 3) : null;
            return new Phase(new LoadResult(windowStart, round(windowS), classes, List.copyOf(series)),
                    cpuMs != null ? round(cpuMs / 1000 / seconds, 3) : null, perHeavy, heavyNice, lightNice, other,
                    SchedCounters.between(sched0, sched1), threadCpu);
        } finally {
            drivers.forEach(DriverProcess::close);
        }
    }

    /**
     * The threads that copy the app's log run at the heavy driver's nice value, not the harness's:
     * the app logs every request, and at nice 0 they preempted its light path on the two cores
     * (bench/results/mixed-tika/critpath-2026-12-06/). Said, not fatal, when it cannot be done.
     */
    static void lowerOutputReaders(AppProcess proc, MixedParams p, String version, Progress progress)
            throws InterruptedException {
        String why = proc.outputReadersAtNice(p.heavyNice());
        if (why != null) {
            progress.update("[" + version + "] warning: the app's output readers stay at the harness's nice value: "
                    + why);
        }
    }

    /**
     * Fails the window when the light driver was asked for {@code SCHED_FIFO} and none of its threads is in it
     * by the window's start (its sending threads start with the JVM, well before): a window must never pass
     * for one measured with the light client at that priority when it was not.
     */
    static void checkLightFifo(MixedParams p, DriverProcess light) throws IOException {
        if (p.lightFifo() == 0) {
            return;
        }
        Integer n = Proc.threadsInPolicy(light.pid(), 1);
        if (n != null && n == 0 && light.isAlive()) {
            throw new IOException("the light driver's sending threads are not in SCHED_FIFO " + p.lightFifo()
                    + " at the window's start (log " + light.log() + ")");
        }
    }

    /**
     * Compresses the app's log (Fuseki logs every request: megabytes per version) and points the run at
     * the {@code .gz}; a log that cannot be compressed is left as it is.
     */
    static VersionRun gzipLog(VersionRun r, Path appLog) {
        Path gz = gzip(appLog);
        if (gz.equals(appLog)) {
            return r;
        }
        return new VersionRun(r.version(), r.flags(), r.installLine(), r.idle(), r.idleCpuCores(), r.loaded(),
                r.cpuCores(), r.cpuMs(), r.heavyNice(), r.lightNice(), gz.getFileName().toString(), r.error(),
                r.idleOtherCpuCores(), r.otherCpuCores(), r.priority(), r.lightTailGc());
    }

    /** Compresses {@code log} into {@code log.gz} and deletes it; returns the file that holds the log then. */
    static Path gzip(Path log) {
        if (!Files.isRegularFile(log)) {
            return log;
        }
        Path gz = log.resolveSibling(log.getFileName() + ".gz");
        try (InputStream in = Files.newInputStream(log);
             java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(gz))) {
            in.transferTo(out);
        } catch (IOException e) {
            return log;
        }
        try {
            Files.delete(log);
        } catch (IOException e) {
            return log;
        }
        return gz;
    }

    static String installLine(Path log, Pattern p) throws IOException {
        for (String line : Files.readAllLines(log)) {
            var m = p.matcher(line);
            if (m.find()) {
                return m.group();
            }
        }
        return null;
    }

    static long ms(double seconds) {
        return Math.round(seconds * 1000);
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        long wait;
        while ((wait = epochMs - System.currentTimeMillis()) > 0) {
            Thread.sleep(Math.min(wait, 1000));
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static Map<String, Object> parameters(Layout layout, MixedApp app, MixedParams p, List<Version> versions, Path jar,
            boolean agent, boolean peers) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("app", app.name());
        m.put("versions", versions.stream().map(Version::name).toList());
        m.put("heavy_clients", p.heavyClients());
        AnswerCheck answer = app.heavyAnswer();
        m.put("heavy_answer_check", answer == null ? "status below 400" : "status below 400 and '" + answer.text()
                + "' at least " + answer.count() + " times in the answer (else an error)");
        m.put("heavy_clients_rule", "8 x cores, closed loop, no think time");
        m.put("light_rate_per_s", p.lightRate());
        m.put("light_max_in_flight", p.lightMaxInFlight());
        m.put("light_client", p.lightClient().name().toLowerCase(java.util.Locale.ROOT));
        m.put("app_jvm_flags", p.appJvmFlags());
        m.put("warmup_s", p.warmupS());
        m.put("idle_s", p.idleS());
        m.put("duration_s", p.durationS());
        m.put("heavy_driver_nice", p.heavyNice());
        m.put("light_driver_fifo", p.lightFifo());
        m.put("drivers", "two JVMs (MixedDriver), the heavy one started as `nice -n " + p.heavyNice() + " java ...`, "
                + "the light one at the harness's nice value" + (p.lightFifo() > 0 ? ", its sending threads in "
                + "SCHED_FIFO " + p.lightFifo() + " (they wake at once, not after the running heavy driver thread's "
                + "slice)" : ", all its threads in the fair class") + "; both measure the same wall-clock window");
        m.put("app_output_readers_nice", p.heavyNice());
        m.put("app_jar", jar.getFileName().toString());
        Map<String, Object> dates = new LinkedHashMap<>();
        if (agent) {
            dates.put("agent_jar_built", modified(layout.agentJar()));
        }
        if (peers) {
            dates.put("peers_agent_jar_built", modified(layout.peersAgentJar()));
        }
        m.put("jars", dates);
        return m;
    }

    private static String modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toInstant().toString();
        } catch (IOException e) {
            return null;
        }
    }

    /** The results, with every ratio against the unscheduled version of the same run. */
    static MixedResult result(MixedApp app, MixedParams params, boolean quick, String command,
            Map<String, Object> parameters, Map<String, String> errors, Map<String, VersionRun> runs, Path dir) {
        // the baseline: the unscheduled app, the mean of its first and last runs when both ran
        List<VersionRun> bases = runs.values().stream()
                .filter(r -> MixedVersions.isBaseline(r.version().name()) && r.loaded() != null && r.idle() != null)
                .toList();
        Double idleP99 = mean(bases.stream().map(b -> b.idle().get(MixedApp.LIGHT).p99Ms()).toList());
        Double baseHeavy = mean(bases.stream().map(b -> b.loaded().get(MixedApp.HEAVY).throughputPerS()).toList());
        Map<String, MixedResult.VersionResult> versions = new LinkedHashMap<>();
        for (VersionRun r : runs.values()) {
            Version v = r.version();
            ClassResult heavy = r.loaded() != null ? r.loaded().get(MixedApp.HEAVY) : null;
            ClassResult light = r.loaded() != null ? r.loaded().get(MixedApp.LIGHT) : null;
            versions.put(v.name(), new MixedResult.VersionResult(v.name(), v.description(), r.flags(), v.policy(),
                    v.peer(), r.installLine(), r.idle() != null ? r.idle().get(MixedApp.LIGHT) : null, r.idleCpuCores(),
                    heavy, light, r.cpuCores(), r.cpuMs(),
                    light != null ? ratio(light.p99Ms(), idleP99) : null,
                    heavy != null ? ratio(heavy.throughputPerS(), baseHeavy) : null,
                    r.heavyNice(), r.lightNice(), r.appLog(), r.error(), r.idleOtherCpuCores(), r.otherCpuCores(),
                    r.priority(), r.lightTailGc(), r.loaded() != null ? r.loaded().timeSeries() : List.of()));
        }
        List<MixedResult.Goal> goals = MixedGoals.evaluate(versions);
        List<String> summary = MixedGoals.summary(versions, goals, idleP99);
        Map<String, Object> appFacts = new LinkedHashMap<>(app.describe());
        appFacts.put("description", app.description());
        return new MixedResult("mixed", Instant.now().toString(), command, quick, parameters, Machine.describe(),
                appFacts, summary, Map.copyOf(errors), goals, versions);
    }

    static Double mean(List<Double> xs) {
        List<Double> known = xs.stream().filter(java.util.Objects::nonNull).toList();
        return known.isEmpty() ? null : round(known.stream().mapToDouble(Double::doubleValue).average().orElseThrow(), 3);
    }

    static Double ratio(Double x, Double base) {
        return x == null || base == null || base == 0 ? null : round(x / base, 3);
    }

    static void copyDir(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.toList()) {
                Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    static void deleteDir(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
