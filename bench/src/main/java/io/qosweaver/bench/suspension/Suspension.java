package io.qosweaver.bench.suspension;

import io.qosweaver.bench.report.Reports;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.FlashCrowdConfig;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.RunResult;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.Snapshot;
import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.stats.Format;
import io.qosweaver.bench.stats.Samples;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Experiment {@code suspension} (issue 4; paper QoSWeaver 5.2, Fig. 16): under the flash crowd,
 * the running low-importance (chart) threads over time, from the scheduler's own timeline, and
 * for every collection the time from its start until no more than the allowed chart threads
 * still run. Only versions the agent runs can be observed this way; the others have no
 * scheduler that knows which thread does what.
 */
public final class Suspension {
    public static final List<String> DEFAULT_VERSIONS = List.of("admission", Versions.QOSWEAVER);
    public static final int DEFAULT_HOURS = 12;
    /** Task classes of the river-monitor policies: the periodic job and the heavy request. */







    private Suspension() {
    }

    /** The versions named, each checked to run under the agent (else nothing can be observed). */
    public static List<Versions.Version> resolve(List<String> names) {
        List<Versions.Version> vs = Versions.resolve(names);
        for (Versions.Version v : vs) {
            if (!v.usesAgent()) {
                throw new IllegalArgumentException("version '" + v.name() + "' runs without the QoSWeaver agent, so "
                        + "no scheduler can tell its chart threads from the others; suspension observes: "
                        + String.join(", ", Versions.known().stream().filter(n -> Versions.get(n).usesAgent())
                        .toList()));
            }
        }
        return vs;
    }

    public static SuspensionResult run(Layout layout, FlashCrowdParams p, int hours, int allowed, boolean quick,
                             List<String> versionNames, Path reportDir, String command, Progress progress)
            throws IOException, InterruptedException {
        List<Versions.Version> versions = resolve(versionNames);
        layout.ensureBuilt(true);
        Map<String, Object> params = p.asMap();
        params.remove("idle_s");
        params.put("chart_hours", hours);
        params.put("allowed_running_low_threads", allowed);
        params.put("versions", versionNames);
        params.putAll(layout.jarDates(true));
        RiverMonitorRunner runner = new RiverMonitorRunner(progress, RiverMonitorRunner.Observe.GAUGE_AND_TIMELINE);
        Map<String, SuspensionResult.VersionResult> out = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        Files.createDirectories(reportDir);
        try (Snapshot jars = Snapshot.of(layout, versions)) {
            for (Versions.Version v : versions) {
                Path log = reportDir.resolve("app-" + Versions.fileName(v.name()) + ".log");
                FlashCrowdConfig c = new FlashCrowdConfig(v.name(), p.periodS(), p.rivers(), p.chartClients(), hours,
                        p.levelsClients(), 0, p.warmupS(), p.durationS(), p.jvm(jars.jvmFlags(v)),
                        List.of("-jar", jars.riverMonitorJar().toString()), p.extraAppArgs(), log);
                try {
                    RunResult rr = runner.run(c);
                    out.put(v.name(), versionResult(v, rr.overloaded(), allowed, log, null));
                } catch (IOException e) {
                    progress.update("[" + v.name() + "] FAILED: " + e.getMessage());
                    errors.put(v.name(), e.getMessage());
                    out.put(v.name(), versionResult(v, null, allowed, log, e.getMessage()));
                }
            }
        }
        SuspensionResult r = new SuspensionResult("suspension", Instant.now().toString(), command, quick, params, Machine.describe(),
                versionNames, out, summary(out, allowed), errors);
        JsonWriter.write(r, reportDir.resolve("results.json"));
        Reports.draw(reportDir, progress, () -> SuspensionReport.write(reportDir, r));
        return r;
    }

    static SuspensionResult.VersionResult versionResult(Versions.Version v, ScenarioResult s, int allowed, Path log, String error) {
        if (s == null) {
            return new SuspensionResult.VersionResult(v.description(), v.policy(), null, null, null, null, null, null, null, null, null,
                    null, null, 0, 0, null, null, List.of(), log.toString(), error, null);
        }
        List<SuspensionResult.Episode> eps = episodes(s.runningTimeline(), SuspensionResult.HIGH, SuspensionResult.LOW, allowed);
        Samples t = Samples.of(eps.stream().map(SuspensionResult.Episode::suspendMs).filter(Objects::nonNull).toList());
        int notConverged = (int) eps.stream().filter(e -> e.suspendMs() == null).count();
        return new SuspensionResult.VersionResult(v.description(), v.policy(), s.deadlineMissRatio(), s.collectionTimeMeanMs(),
                s.collectionTimeMaxMs(), s.collectionTimeStddevMs(), s.chartThroughputPerS(), s.chartP50Ms(),
                s.chartP99Ms(), round(t.mean()), t.quantile(0.5), t.quantile(0.99), t.max(), eps.size(), notConverged,
                s.suspensionTimeMeanMs(), s.suspensionTimeP99Ms(), eps, log.toString(), null, s);
    }

    /**
     * The collections on a timeline: each starts when the high class's members rise from 0 and
     * ends when they fall back to 0 (or the window ends); its suspension time is the first moment
     * at or after the start when at most {@code allowed} low-class threads run.
     */
    public static List<SuspensionResult.Episode> episodes(List<ScenarioResult.TimelinePoint> timeline, String high, String low,
                                         int allowed) {
        List<SuspensionResult.Episode> out = new ArrayList<>();
        int highMembers = 0;
        int lowRunning = 0;
        Double start = null;
        int atStart = 0;
        Double converged = null;
        int min = 0;
        boolean before = true; // points at offset 0 are the state when the window began
        for (ScenarioResult.TimelinePoint p : timeline) {
            if (p.taskClass().equals(low)) {
                lowRunning = p.running();
                if (start != null) {
                    min = Math.min(min, lowRunning);
                    if (converged == null && lowRunning <= allowed) {
                        converged = p.offsetS();
                    }
                }
            } else if (p.taskClass().equals(high)) {
                int was = highMembers;
                highMembers = p.members();
                if (was == 0 && highMembers > 0 && !(before && p.offsetS() == 0)) {
                    start = p.offsetS();
                    atStart = lowRunning;
                    min = lowRunning;
                    converged = lowRunning <= allowed ? start : null;
                } else if (was > 0 && highMembers == 0 && start != null) {
                    out.add(episode(start, atStart, converged, min));
                    start = null;
                }
            }
            if (p.offsetS() > 0) {
                before = false;
            }
        }
        if (start != null) {
            out.add(episode(start, atStart, converged, min));
        }
        return out;
    }

    private static SuspensionResult.Episode episode(double start, int atStart, Double converged, int min) {
        return new SuspensionResult.Episode(start, atStart, converged == null ? null : round((converged - start) * 1000.0), min);
    }

    static List<String> summary(Map<String, SuspensionResult.VersionResult> rs, int allowed) {
        List<String> out = new ArrayList<>();
        rs.forEach((n, r) -> {
            if (r.error() != null) {
                out.add(n + ": FAILED (" + r.error() + ")");
                return;
            }
            out.add(String.format(Locale.ROOT, "%s: %d collections; at most %d chart thread(s) running after "
                            + "%s ms on average (p99 %s ms, max %s ms)%s; deadline miss ratio %s.", n, r.episodes(),
                    allowed, Format.cell(r.suspensionTimeMeanMs()), Format.cell(r.suspensionTimeP99Ms()), Format.cell(r.suspensionTimeMaxMs()),
                    r.episodesNotConverged() == 0 ? "" : "; " + r.episodesNotConverged()
                            + " collection(s) ended before the chart threads were down to " + allowed,
                    Format.cell(r.deadlineMissRatio())));
        });
        return out;
    }

}
