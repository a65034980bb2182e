package io.qosweaver.bench.swap;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.AppProcess;
import io.qosweaver.bench.app.CollectionRecord;
import io.qosweaver.bench.app.CollectionsParser;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.ThreadDump;
import io.qosweaver.bench.app.Warmup;
import io.qosweaver.bench.load.LoadDriver;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Reports;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.Snapshot;
import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Experiment {@code swap} (issue 15): one river-monitor process with the agent, started under the
 * importance policy; a light then a full warm-up; then, under the full flash crowd, a change of
 * policy every {@code interval} through the agent's control socket ({@link SwapPlan}: admission,
 * unweave, importance, {@code lowLimit} 2, 1, ...), for {@code duration}. Then the load stops,
 * each client waiting for its last answer ({@link CountingLoad}), and the app is checked for
 * threads left parked, by the scheduler's counter and by the JVM's thread dump.
 */
public final class Swap {
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(240);
    private static final Duration CONTROL_TIMEOUT = Duration.ofSeconds(30);
    /** One change's bound: far above the goal (1 s), so that a slow change is measured, a hung one not waited for. */
    static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(120);

    private Swap() {
    }

    public static SwapResult run(Layout layout, SwapParams p, boolean quick, Path reportDir, String command,
                                 Progress progress) throws IOException, InterruptedException {
        layout.ensureBuilt(true);
        Versions.Version importance = Versions.get(Versions.QOSWEAVER);
        Versions.Version admission = Versions.get("admission");
        for (Path jar : List.of(layout.riverMonitorJar(), layout.agentJar())) {
            if (!Files.isRegularFile(jar)) {
                throw new IOException(jar + " is missing after the build");
            }
        }
        Files.createDirectories(reportDir);
        // the files the agent swaps in, on record beside the results, by absolute path (the agent's rule)
        Path policies = Files.createDirectories(reportDir.resolve("policies")).toAbsolutePath();
        Path importanceFile = copy(layout.root().resolve(importance.policy()), policies);
        Path admissionFile = copy(layout.root().resolve(admission.policy()), policies);
        Map<String, Object> params = p.asMap();
        params.put("cycle", SwapPlan.cycle(importanceFile, admissionFile).stream()
                .map(SwapPlan.Step::shortCommand).toList());
        params.put("start_policy", SwapPlan.label("importance", "1") + " (" + importance.policy() + ")");
        params.put("swap_files", List.of(importance.policy(), admission.policy()));
        params.putAll(layout.jarDates(true));
        Path log = reportDir.resolve("app.log");
        SwapResult r;
        try (Snapshot jars = Snapshot.of(layout, List.of(importance))) {
            List<String> jvm = List.of(Snapshot.agentFlag(jars.agentJar(), importanceFile));
            r = runApp(p, quick, jvm, jars.riverMonitorJar(), importanceFile, admissionFile, params, reportDir, log,
                    command, progress);
        }
        JsonWriter.write(r, reportDir.resolve("results.json"));
        SwapResult done = r;
        Reports.draw(reportDir, progress, () -> SwapReport.write(reportDir, done));
        return r;
    }

    private static Path copy(Path from, Path dir) throws IOException {
        if (!Files.isRegularFile(from)) {
            throw new IOException("policy file missing: " + from);
        }
        return Files.copy(from, dir.resolve(from.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }

    private static SwapResult runApp(SwapParams p, boolean quick, List<String> jvm, Path riverMonitorJar,
                                     Path importanceFile, Path admissionFile, Map<String, Object> params,
                                     Path reportDir, Path log, String command, Progress progress)
            throws IOException, InterruptedException {
        HttpClient http = LoadDriver.defaultClient();
        List<String> args = new ArrayList<>(List.of("--port", "0", "--generator-port", "0", "--period",
                Format.number(p.periodS()), "--rivers", Integer.toString(p.rivers())));
        args.addAll(p.extraAppArgs());
        Map<String, String> errors = new LinkedHashMap<>();
        progress.update("[swap] starting the river monitor with the agent (period " + Format.number(p.periodS())
                + " s, " + p.rivers() + " rivers); log " + log);
        try (AppProcess app = AppProcess.start(jvm, List.of("-jar", riverMonitorJar.toString()), args, log)) {
            URI base = app.awaitReady(STARTUP_TIMEOUT);
            ControlSteps.Control control = ControlSteps.Control.of(app.pid(), CHANGE_TIMEOUT);
            String startPolicy = awaitControl(app, control);
            progress.update("[swap] ready at " + base + ", pid " + app.pid() + ", policy in force: " + startPolicy);
            int firstRiver = RiverMonitorRunner.firstRiverId(http, base);
            CountingLoad load = new CountingLoad(http, seq -> base.resolve("/chart?river="
                    + (firstRiver + seq % p.rivers()) + "&hours=" + p.chartHours()));
            load.clients(Math.min(p.chartClients(), Warmup.lightClients()));
            progress.update("[swap] warm-up " + Format.number(p.warmupS()) + " s with " + Warmup.lightClients()
                    + " client(s), then " + Format.number(p.warmupS()) + " s with " + p.chartClients());
            Thread.sleep(Math.round(p.warmupS() * 1000));
            load.clients(p.chartClients());
            Thread.sleep(Math.round(p.warmupS() * 1000));

            long t0 = System.currentTimeMillis();
            load.phase(0);
            List<SwapPlan.Step> plan = SwapPlan.steps(SwapPlan.cycle(importanceFile, admissionFile), p.steps());
            List<SwapResult.StepResult> steps = new ArrayList<>();
            List<long[]> bounds = new ArrayList<>();
            List<String> labels = new ArrayList<>(List.of(startPolicy));
            bounds.add(new long[] {t0, 0});
            long intervalMs = Math.round(p.intervalS() * 1000);
            long durationMs = Math.round(p.durationS() * 1000);
            for (int k = 1; k <= plan.size(); k++) {
                sleepUntil(t0 + k * intervalMs);
                if (!app.isAlive()) {
                    errors.put("app", "the app exited during the run, before change #" + k);
                    break;
                }
                long sentAt = System.currentTimeMillis();
                int phase = k;
                long[] answeredAt = new long[1];
                SwapResult.StepResult s = ControlSteps.apply(k, (sentAt - t0) / 1000.0, plan.get(k - 1), control,
                        () -> {
                            // the new policy is in force from the answer on: the next phase starts here
                            answeredAt[0] = System.currentTimeMillis();
                            load.phase(phase);
                        });
                steps.add(s);
                bounds.get(bounds.size() - 1)[1] = answeredAt[0];
                bounds.add(new long[] {answeredAt[0], 0});
                labels.add(s.inForce() != null ? s.inForce() : labels.get(labels.size() - 1));
                progress.update(String.format(java.util.Locale.ROOT,
                        "[swap] %5.1f s #%d %s: %s in %.1f ms%s, in force: %s%s", (sentAt - t0) / 1000.0, k,
                        s.command(), s.ok() ? "ok" : "FAILED", s.roundTripMs(),
                        s.agentMs() == null ? "" : " (agent: " + Format.number(s.agentMs()) + " ms)", s.inForce(),
                        s.ok() ? "" : " (" + s.message() + ")"));
            }
            sleepUntil(t0 + durationMs);
            long endMs = System.currentTimeMillis();
            bounds.get(bounds.size() - 1)[1] = endMs;
            progress.update("[swap] load stopping; every client waits for its last answer");
            CountingLoad.Totals totals = load.stop(CountingLoad.REQUEST_TIMEOUT.plusSeconds(10));
            long stoppedMs = System.currentTimeMillis();

            // parked threads: the scheduler's count, polled until 0 or the grace period ends, then the thread dump
            Integer suspended = null;
            String policyAtEnd = labels.get(labels.size() - 1);
            long graceEnd = stoppedMs + Math.round(p.graceS() * 1000);
            while (true) {
                try {
                    ControlSteps.Status st = ControlSteps.status(control);
                    suspended = st.suspendedThreads();
                    policyAtEnd = st.label();
                } catch (IOException e) {
                    errors.put("status at end", e.getMessage());
                }
                if (suspended == null || suspended == 0 || System.currentTimeMillis() >= graceEnd) {
                    break;
                }
                Thread.sleep(200);
            }
            double waitedS = round((System.currentTimeMillis() - stoppedMs) / 1000.0);
            String dump = ThreadDump.take(app.pid(), reportDir.resolve("app-threads-at-end.txt"));
            List<String> parked = dump == null ? null : ThreadDumps.parkedInQosweaver(dump);
            if (parked != null && !parked.isEmpty()) {
                progress.update("[swap] threads parked in QoSWeaver code after the load: " + parked);
            }
            awaitCollectionsEnded(http, base, endMs, 2 * p.periodMs() + 30_000);
            List<CollectionRecord> collections = collections(http, base);
            long nowMs = System.currentTimeMillis();
            boolean alive = app.isAlive();
            SwapResult.Accounting acc = new SwapResult.Accounting(totals.sent(), totals.completed(), totals.failed(),
                    totals.httpErrors(), totals.exceptions(), totals.failureKinds(), totals.lost(), totals.drained(),
                    suspended, parked == null ? null : parked.size(), waitedS, policyAtEnd, alive);
            List<SwapAnalysis.PhaseInput> phases = new ArrayList<>();
            for (int i = 0; i < bounds.size(); i++) {
                phases.add(new SwapAnalysis.PhaseInput(i, labels.get(i), bounds.get(i)[0], bounds.get(i)[1],
                        load.phaseLoad(i)));
            }
            params.put("app_pid", app.pid());
            // a change slower than the interval delays the next ones: the load then runs longer than asked
            params.put("measured_load_s", round((endMs - t0) / 1000.0));
            return assemble(quick, params, Machine.describe(), command, steps, phases, t0, collections, p.periodMs(),
                    nowMs, acc, errors, log);
        }
    }

    /** Results from what a run recorded (a seam: tests assemble them without processes). */
    static SwapResult assemble(boolean quick, Map<String, Object> params, Map<String, Object> machine, String command,
                               List<SwapResult.StepResult> steps, List<SwapAnalysis.PhaseInput> phases, long t0,
                               List<CollectionRecord> collections, long periodMs, long nowMs,
                               SwapResult.Accounting acc, Map<String, String> errors, Path log) {
        List<SwapResult.PhaseResult> ps = SwapAnalysis.phases(phases, t0, collections, periodMs, nowMs);
        Map<String, SwapResult.PolicyResult> by = SwapAnalysis.byPolicy(phases, ps);
        SwapResult.LatencyStats latency = SwapAnalysis.latency(steps.stream().map(SwapResult.StepResult::roundTripMs)
                .toList());
        List<SwapResult.Goal> goals = SwapAnalysis.goals(steps, acc, latency);
        List<String> summary = new ArrayList<>(SwapAnalysis.summary(goals, by));
        if (params.get("measured_load_s") instanceof Double measured && params.get("duration_s") instanceof Double asked
                && measured > asked + 1) {
            summary.add("The changes took longer than their interval: the load ran " + Format.number(measured)
                    + " s instead of " + Format.number(asked) + " s, the later changes late.");
        }
        return new SwapResult("swap", Instant.now().toString(), command, quick, params, machine, List.copyOf(steps),
                ps, by, latency, SwapAnalysis.latencyByKind(steps), acc, goals, List.copyOf(summary),
                new LinkedHashMap<>(errors), log.toString());
    }

    /** The agent's control socket answers once its premain has run; the policy then in force. */
    private static String awaitControl(AppProcess app, ControlSteps.Control control)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + CONTROL_TIMEOUT.toNanos();
        IOException last = null;
        while (System.nanoTime() < deadline && app.isAlive()) {
            try {
                return ControlSteps.status(control).label();
            } catch (IOException e) {
                last = e;
                Thread.sleep(200);
            }
        }
        throw new IOException("the agent's control socket did not answer within " + CONTROL_TIMEOUT.toSeconds()
                + " s: " + (last == null ? "the app exited" : last.getMessage()) + "; last lines:\n" + app.tail());
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        long left;
        while ((left = epochMs - System.currentTimeMillis()) > 0) {
            Thread.sleep(left);
        }
    }

    private static List<CollectionRecord> collections(HttpClient http, URI base) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("/status/collections"))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET /status/collections: status " + r.statusCode());
        }
        return CollectionsParser.parse(r.body());
    }

    /** Until every collection that started before {@code t} has ended, or the time-out. */
    private static void awaitCollectionsEnded(HttpClient http, URI base, long t, long timeoutMs)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (System.currentTimeMillis() < deadline) {
            try {
                if (collections(http, base).stream().noneMatch(c -> c.startMs() < t && !c.finished())) {
                    return;
                }
            } catch (IOException ignored) {
                // keep trying until the deadline
            }
            Thread.sleep(500);
        }
    }
}
