package io.qosweaver.bench.mixed;

import io.qosweaver.bench.app.AgentSwitch;
import io.qosweaver.bench.app.AppProcess;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.mixed.MixedPairedResult.Run;
import io.qosweaver.bench.mixed.MixedPairedResult.Window;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Reports;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.Snapshot;
import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.run.Versions.Version;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs {@code bench mixed --paired N}: every version in one process of its own, whose loaded windows alternate
 * between the version switched off and on, N pairs (off then on, then on then off, so that neither state always
 * comes later in the process's life); then {@code results.json}, {@code index.html} and {@code RESULTS.md}.
 *
 * <p>Switched off means the unscheduled app in the same process: a QoSWeaver version is unwoven
 * ({@code ctl unweave}: every woven class back to its original bytes, the scheduler uninstalled) and swapped in
 * again ({@code ctl swap} of its policy file); a peer is bypassed through its switch file (peers/README.md).
 * Every window is preceded by the full load for the warm-up, unmeasured, so that what ran across the switch
 * (a request begun unwoven runs unmanaged until it ends) and the JIT's recompilation are behind it. After the
 * last pair the version is switched off for the idle window: the unscheduled app's idle light p99, once per
 * process; the light goal's reference is the median of them over the run.
 */
public final class MixedPaired {
    /** A swap re-weaves the app's classes; on a loaded 2-core machine it took up to 1.4 s (bench/results/swap/). */
    static final Duration SWITCH_TIMEOUT = Duration.ofSeconds(120);
    /**
     * The least warm-up of a window right after a switch, in seconds. A switch retransforms the woven classes, which
     * throws their compiled code away, and the agent then runs the JIT's compiler threads at nice -20 for 30 s
     * (agent/README.md, "Changing the policy at run time under load"): a window that starts earlier measures that
     * transient, not the state switched to. On Tika with a 10 s warm-up the on window's light p99 was 15.3 ms, every
     * request at or above it in the window's first 11 s; with 40 s, 9.8 ms (one pair each,
     * bench/results/mixed-tika/switch-2026-12-01/).
     */
    static final double AFTER_SWITCH_WARMUP_S = 40;

    private MixedPaired() {
    }

    /** Turns a version off (the unscheduled app) and on again in its running process. */
    interface Switch {
        /** Puts the version in the given state and returns once it is in force. */
        void set(boolean on) throws IOException, InterruptedException;
    }

    /** QoSWeaver: {@code unweave} to switch off, {@code swap POLICY} to switch on, each checked by {@code status}. */
    static Switch agentSwitch(AgentSwitch.Control control, Path policy) {
        return on -> AgentSwitch.set(control, on ? policy : null);
    }

    /**
     * A peer: writes {@code on} or {@code off} into its switch file and waits until the peer's state file says
     * that state (the peer polls every 50 ms).
     */
    static Switch fileSwitch(Path file, Duration timeout) {
        Path state = file.resolveSibling(file.getFileName() + ".state");
        return on -> {
            String want = on ? "on" : "off";
            Files.writeString(file, want + "\n", StandardCharsets.UTF_8);
            long deadline = System.nanoTime() + timeout.toNanos();
            String seen = null;
            while (System.nanoTime() < deadline) {
                try {
                    seen = Files.readString(state, StandardCharsets.UTF_8).strip();
                } catch (NoSuchFileException e) {
                    seen = null;
                }
                if (want.equals(seen)) {
                    return;
                }
                Thread.sleep(20);
            }
            throw new IOException("the peer did not switch " + want + " within " + timeout.toMillis() + " ms ("
                    + state + " says " + (seen == null ? "nothing" : "'" + seen + "'") + "); is it installed?");
        };
    }

    /** The order of the states in pair {@code i} (0-based): off then on for even pairs, on then off for odd. */
    static List<Boolean> order(int i) {
        return i % 2 == 0 ? List.of(false, true) : List.of(true, false);
    }

    /** Refuses what paired mode cannot run: no pair, or the unscheduled app named (every process measures it). */
    public static void check(List<Version> versions, int pairs) {
        if (pairs < 1) {
            throw new IllegalArgumentException("--paired must be at least 1 pair, got " + pairs);
        }
        for (Version v : versions) {
            if (MixedVersions.isBaseline(v.name())) {
                throw new IllegalArgumentException("version '" + v.name() + "' does not apply to --paired: every "
                        + "process measures the unscheduled app itself, switched off");
            }
            if (!v.usesAgent() && !v.usesPeer()) {
                throw new IllegalArgumentException("version '" + v.name() + "' has nothing to switch off");
            }
        }
    }

    /** The versions {@code --paired} runs when none is named: the defaults less the unscheduled ones. */
    public static List<String> defaults(MixedApp app) {
        return MixedVersions.defaults(app).stream().filter(n -> !MixedVersions.isBaseline(n)).toList();
    }

    public static MixedPairedResult run(Layout layout, MixedApp app, MixedParams params, List<Version> versions,
            int pairs, boolean quick, Path dir, String command, Progress progress)
            throws IOException, InterruptedException {
        check(versions, pairs);
        String plan = Mixed.plan(versions.size(), " x " + pairs + " pair(s) of windows, each in one process",
                secondsPerVersion(params, pairs));
        return Mixed.withSetup(layout, app, params, versions, plan, progress, (s, parameters) -> {
            parameters.put("pairs", pairs);
            parameters.put("after_switch_warmup_s", AFTER_SWITCH_WARMUP_S);
            parameters.put("pairing", "one process per version; its loaded windows alternate switched off (the "
                    + "unscheduled app: QoSWeaver unwoven, a peer bypassed) and on, off-on then on-off; each window "
                    + "after the full load for the warm-up, unmeasured; the idle window last, switched off, after "
                    + idleGapMs(idleFollowsSwitch(pairs)) / 1000 + " s of the light stream alone");
            Files.createDirectories(dir);
            List<Run> runs = new ArrayList<>();
            Map<String, String> errors = new LinkedHashMap<>();
            for (Version v : versions) {
                Run r = runVersion(s, app, params, v, pairs, dir, progress);
                if (r.error() != null) {
                    errors.put(v.name(), r.error());
                }
                runs.add(r);
                JsonWriter.write(result(app, params, quick, pairs, command, parameters, errors, runs),
                        dir.resolve(Mixed.PARTIAL_RESULTS));
            }
            MixedPairedResult result = result(app, params, quick, pairs, command, parameters, errors, runs);
            JsonWriter.write(result, dir.resolve("results.json"));
            Files.deleteIfExists(dir.resolve(Mixed.PARTIAL_RESULTS));
            Reports.draw(dir, progress, () -> MixedPairedReport.write(result, dir));
            return result;
        });
    }

    /**
     * The windows with their light tails matched to the GC pauses of the process's log; as they were when the log
     * cannot be read (the figures stand without the match).
     */
    static List<Window> withLightTailGc(List<Window> windows, Path appLog) {
        List<double[]> pauses;
        try {
            pauses = GcPauses.read(appLog);
        } catch (IOException | RuntimeException e) {
            return windows;
        }
        return windows.stream().map(w -> w.withLightTailGc(pauses)).toList();
    }

    /** Roughly how long one version takes: start-up, the warm-up and the settling, 2N windows with their warm-ups, idle. */
    static double secondsPerVersion(MixedParams p, int pairs) {
        return 20 + p.warmupS() + settleSeconds(p) + 2 * pairs * (p.warmupS() + p.durationS() + 3)
                + switchedWindows(pairs) * (warmupS(p, true) - p.warmupS()) + p.idleS()
                + idleGapMs(idleFollowsSwitch(pairs)) / 1000.0 + 4;
    }

    /** Whether the last loaded window is switched on, so that the idle window (switched off) follows a switch. */
    static boolean idleFollowsSwitch(int pairs) {
        List<Boolean> last = order(pairs - 1);
        return last.get(last.size() - 1);
    }

    /**
     * The light stream alone, unmeasured, before the idle window. Right after the switch off it is
     * {@link #AFTER_SWITCH_WARMUP_S}: the unweave throws the woven classes' compiled code away and the agent's
     * compiler boost runs for 30 s, the same transient a loaded window waits out (the first process of
     * bench/results/mixed-tika/fifo-2026-12-05/full/ had a second of slow light requests 15 s into such an idle window).
     */
    static long idleGapMs(boolean afterSwitch) {
        return afterSwitch ? Math.max(Mixed.IDLE_GAP_MS, Math.round(AFTER_SWITCH_WARMUP_S * 1000)) : Mixed.IDLE_GAP_MS;
    }

    /** How many of the 2N windows follow a switch: the process starts switched on, then {@link #order}. */
    static int switchedWindows(int pairs) {
        boolean state = true;
        int n = 0;
        for (int i = 0; i < pairs; i++) {
            for (boolean on : order(i)) {
                n += on != state ? 1 : 0;
                state = on;
            }
        }
        return n;
    }

    /** The warm-up before a window: the run's, and at least {@link #AFTER_SWITCH_WARMUP_S} right after a switch. */
    static double warmupS(MixedParams p, boolean afterSwitch) {
        return afterSwitch ? Math.max(p.warmupS(), AFTER_SWITCH_WARMUP_S) : p.warmupS();
    }

    /** The full load, unmeasured, between the warm-up and the first pair: four warm-ups, at least a minute. */
    static double settleSeconds(MixedParams p) {
        return Math.max(60, 4 * p.warmupS());
    }

    private static MixedPairedResult result(MixedApp app, MixedParams params, boolean quick, int pairs,
            String command, Map<String, Object> parameters, Map<String, String> errors, List<Run> runs) {
        Map<String, Object> appFacts = new LinkedHashMap<>(app.describe());
        appFacts.put("description", app.description());
        return MixedPairedResult.of(Instant.now().toString(), command, quick, pairs, parameters, Machine.describe(),
                appFacts, errors, runs);
    }

    private static Run runVersion(Mixed.Setup s, MixedApp app, MixedParams p, Version v, int pairs, Path dir,
            Progress progress) throws InterruptedException {
        List<String> flags = new ArrayList<>(app.jvmFlags());
        flags.addAll(p.appJvmFlags());
        flags.addAll(v.jvmFlags());
        Path appLog = dir.resolve("app-" + Versions.fileName(v.name()) + ".log");
        List<Window> windows = new ArrayList<>();
        Run measured;
        try {
            Path switchFile = s.tmp().resolve("switch-" + Versions.fileName(v.name()));
            Files.deleteIfExists(switchFile);
            Path policy = null;
            if (v.usesAgent()) {
                policy = Mixed.policyCopy(s.layout().root(), v, s.tmp());
                flags.add(Snapshot.agentFlag(s.agent(), policy));
            }
            if (v.usesPeer()) {
                flags.add("-javaagent:" + s.peers() + "=" + v.peer() + ",switchFile=" + switchFile);
            }
            Path work = s.tmp().resolve("run-" + Versions.fileName(v.name()));
            Mixed.deleteDir(work);
            Mixed.copyDir(s.data(), work);
            int port = Mixed.freePort();
            progress.update("[" + v.name() + "] starting " + app.name() + " on port " + port);
            try (AppProcess proc = AppProcess.start(flags, List.of("-jar", s.appJar().toString()), app.appArgs(port),
                    appLog, work)) {
                URI base = URI.create("http://127.0.0.1:" + port);
                Mixed.lowerOutputReaders(proc, p, v.name(), progress);
                proc.awaitHttp(URI.create(base + app.readyPath()), Duration.ofSeconds(180));
                String install;
                Switch sw;
                if (v.usesAgent()) {
                    install = proc.agentLine(Mixed.AGENT_STARTED, Duration.ofSeconds(5));
                    if (install == null) {
                        throw new IOException("the agent printed no 'agent started' line; first error: "
                                + proc.firstError());
                    }
                    long pid = proc.pid();
                    sw = agentSwitch(AgentSwitch.Control.of(pid, SWITCH_TIMEOUT), policy);
                } else {
                    install = Mixed.installLine(appLog, Mixed.PEER_INSTALLED);
                    if (install == null) {
                        throw new IOException("the peers agent did not install " + v.peer() + " into " + app.name()
                                + " (no 'installed on' line in " + appLog + ")");
                    }
                    sw = fileSwitch(switchFile, Duration.ofSeconds(10));
                }
                Mixed.Target heavy = new Mixed.Target(app.heavyTarget(base), app.heavyBody(), work, app.heavyAnswer());
                Mixed.Target light = new Mixed.Target(app.lightTarget(base), app.lightBody(), work);
                Path logs = s.tmp().resolve("drivers-" + Versions.fileName(v.name()));
                Mixed.deleteDir(logs);

                progress.update("[" + v.name() + "] warm-up " + (int) p.warmupS() + " s, switched on: "
                        + MixedParams.CORES + " heavy clients and the light stream");
                long now = System.currentTimeMillis();
                Mixed.phase(p, heavy, light, app.lightIds(), MixedParams.CORES, now, now + 1000,
                        now + 1000 + Mixed.ms(p.warmupS()), logs, "warmup", proc);
                // A process keeps getting faster for minutes under the full load (Fuseki: 16 to 20 heavy/s over
                // its first six windows, bench/results/mixed-fuseki/paired-1/); the first pair would carry it.
                double settleS = settleSeconds(p);
                progress.update("[" + v.name() + "] settling " + (int) settleS + " s, switched on: the full load, "
                        + "unmeasured");
                now = System.currentTimeMillis();
                Mixed.phase(p, heavy, light, app.lightIds(), p.heavyClients(), now, now + 1000,
                        now + 1000 + Mixed.ms(settleS), logs, "settle", proc);
                boolean state = true;
                for (int i = 0; i < pairs; i++) {
                    for (boolean on : order(i)) {
                        double switchMs = 0;
                        boolean switched = on != state;
                        if (switched) {
                            long t0 = System.nanoTime();
                            sw.set(on);
                            switchMs = (System.nanoTime() - t0) / 1e6;
                            state = on;
                        }
                        String name = "pair-" + (i + 1) + "-" + (on ? MixedPairedResult.ON : MixedPairedResult.OFF);
                        double warmupS = warmupS(p, switched);
                        progress.update(String.format("[%s] pair %d/%d, switched %s%s: %d s warm-up then %d s measured",
                                v.name(), i + 1, pairs, on ? "on" : "off",
                                switchMs > 0 ? String.format(" (in %.0f ms)", switchMs) : "", (int) warmupS,
                                (int) p.durationS()));
                        now = System.currentTimeMillis();
                        long start = now + 1000 + Mixed.ms(warmupS);
                        Mixed.Phase ph = Mixed.phase(p, heavy, light, app.lightIds(), p.heavyClients(), now, start,
                                start + Mixed.ms(p.durationS()), logs, name, proc);
                        ClassResult h = ph.result().get(MixedApp.HEAVY);
                        ClassResult l = ph.result().get(MixedApp.LIGHT);
                        windows.add(new Window(i + 1, on ? MixedPairedResult.ON : MixedPairedResult.OFF,
                                Math.round(switchMs * 10) / 10.0, h, l, ph.cpuCores(), ph.cpuMs(), ph.otherCpuCores(),
                                ph.heavyNice(), ph.lightNice(), ph.sched(), ph.threadCpu(), start,
                                start + Mixed.ms(p.durationS()), null));
                        progress.update(String.format("[%s] %s: heavy %.2f/s (errors %d), light p50/p99 %s/%s ms "
                                + "(errors %d), CPU %s ms per heavy, others' CPU %s cores", v.name(), name,
                                h.throughputPerS(), h.errors(), l.p50Ms(), l.p99Ms(), l.errors(), ph.cpuMs(),
                                ph.otherCpuCores()));
                        if (!proc.isAlive()) {
                            throw new IOException(app.name() + " exited during the run; its first error: "
                                    + proc.firstError());
                        }
                    }
                }
                if (state) {
                    sw.set(false);
                }
                long gapMs = idleGapMs(state);
                progress.update("[" + v.name() + "] idle window " + (int) p.idleS() + " s, switched off: the light "
                        + "stream alone" + (state ? ", after " + gapMs / 1000 + " s of it unmeasured (the switch's "
                        + "recompilation)" : ""));
                now = System.currentTimeMillis();
                long idleStart = now + gapMs;
                Mixed.Phase idle = Mixed.phase(p, null, light, app.lightIds(), 0, now, idleStart,
                        idleStart + Mixed.ms(p.idleS()), logs, "idle", proc);
                ClassResult il = idle.result().get(MixedApp.LIGHT);
                progress.update("[" + v.name() + "] idle light p99 " + il.p99Ms() + " ms (switched off)");
                measured = new Run(v, flags, install, null, null, windows, il, idle.otherCpuCores());
            }
            // the process has ended: its log is complete
            List<Window> matched = withLightTailGc(windows, appLog);
            return new Run(v, flags, measured.installLine(), dir.relativize(Mixed.gzip(appLog)).toString(), null,
                    matched, measured.idleLight(), measured.idleOtherCpuCores());
        } catch (IOException e) {
            progress.update("[" + v.name() + "] FAILED: " + e.getMessage());
            String log = dir.relativize(Mixed.gzip(appLog)).toString();
            return new Run(v, flags, null, log, e.getMessage(), windows, null, null);
        }
    }
}
