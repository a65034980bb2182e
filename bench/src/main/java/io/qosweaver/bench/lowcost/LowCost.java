package io.qosweaver.bench.lowcost;

import io.qosweaver.bench.report.Reports;

import io.qosweaver.bench.stats.Ratios;

import static io.qosweaver.bench.stats.Round.round;

import io.qosweaver.bench.app.FlashCrowdConfig;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.load.ClassResult;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.Snapshot;
import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.stats.Format;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Experiment {@code lowcost} (issue 4; paper QoSWeaver 5.2, Fig. 18 and "Scheduling
 * Overhead"): what each version costs the low-importance work. Every version runs the chart
 * load twice over: with the collector (the flash crowd; the chart throughput and response time
 * a version gives up to protect the collection) and without it ({@code --no-collector}: pure
 * overhead, since nothing should be suspended). Runs without collection are repeated and their
 * order rotated per round so that the machine's drift is shared; overhead is reported both as
 * throughput and as the app's CPU time per chart, the steadier measure on a noisy machine.
 */
public final class LowCost {
    public static final String WITH = "with_collection";
    public static final String WITHOUT = "without_collection";









    /** Runs one version in one condition; a seam so tests can aggregate without processes. */
    @FunctionalInterface
    public interface CellRunner {
        ScenarioResult run(Versions.Version v, String condition, int round, Path log)
                throws IOException, InterruptedException;
    }

    private LowCost() {
    }

    /**
     * @param p             the flash crowd (its duration is the with-collection window)
     * @param hours         the chart window
     * @param withoutS      the window without collection
     * @param repeatsWithout runs without collection per version (rounds); with collection: one
     */
    public static LowCostResult run(Layout layout, FlashCrowdParams p, int hours, double withoutS, int repeatsWithout,
                             boolean quick, List<String> versionNames, Path reportDir, String command,
                             Progress progress) throws IOException, InterruptedException {
        List<Versions.Version> versions = Versions.resolve(versionNames);
        boolean needAgent = versions.stream().anyMatch(Versions.Version::usesAgent);
        boolean needPeers = versions.stream().anyMatch(Versions.Version::usesPeer);
        layout.ensureBuilt(needAgent, needPeers);
        Map<String, Object> params = p.asMap();
        params.remove("idle_s");
        params.put("chart_hours", hours);
        params.put("with_collection_s", p.durationS());
        params.put("without_collection_s", withoutS);
        params.put("repeats_without_collection", repeatsWithout);
        params.put("versions", versionNames);
        params.putAll(layout.jarDates(needAgent, needPeers));
        RiverMonitorRunner runner = new RiverMonitorRunner(progress);
        Files.createDirectories(reportDir);
        try (Snapshot jars = Snapshot.of(layout, versions)) {
            CellRunner cr = (v, condition, round, log) -> {
                boolean with = condition.equals(WITH);
                List<String> appArgs = new ArrayList<>(p.extraAppArgs());
                if (!with) {
                    appArgs.add("--no-collector");
                }
                FlashCrowdConfig c = new FlashCrowdConfig(v.name(), p.periodS(), p.rivers(), p.chartClients(), hours,
                        p.levelsClients(), 0, p.warmupS(), with ? p.durationS() : withoutS, p.jvm(jars.jvmFlags(v)),
                        List.of("-jar", jars.riverMonitorJar().toString()), appArgs, log);
                return runner.run(c).overloaded();
            };
            LowCostResult r = run(versions, repeatsWithout, quick, params, Machine.describe(), reportDir, command, progress,
                    cr);
            Reports.draw(reportDir, progress, () -> LowCostReport.write(reportDir, r));
            return r;
        }
    }

    /** Written after every run but the last (the runs done so far), removed with the run's end. */
    static final String PARTIAL_RESULTS = "results.partial.json";

    /**
     * Round 0 runs every version with collection, then without; rounds 1.. only without. The
     * version order rotates by one per round. After every run but the last, what is done so far is
     * written to {@value #PARTIAL_RESULTS}, so that an hour of runs is not lost to a crash.
     */
    public static LowCostResult run(List<Versions.Version> versions, int repeatsWithout, boolean quick,
                             Map<String, Object> params, Map<String, Object> machine, Path reportDir, String command,
                             Progress progress, CellRunner cr) throws IOException, InterruptedException {
        if (repeatsWithout < 1) {
            throw new IllegalArgumentException("repeats without collection must be at least 1, got " + repeatsWithout);
        }
        List<String> names = versions.stream().map(Versions.Version::name).toList();
        Map<String, List<ScenarioResult>> with = new LinkedHashMap<>();
        Map<String, List<ScenarioResult>> without = new LinkedHashMap<>();
        names.forEach(n -> {
            with.put(n, new ArrayList<>());
            without.put(n, new ArrayList<>());
        });
        Map<String, String> errors = new LinkedHashMap<>();
        List<List<String>> orders = new ArrayList<>();
        int cells = names.size() * (repeatsWithout + 1);
        int done = 0;
        Path partial = reportDir.resolve(PARTIAL_RESULTS);
        for (int round = 0; round < repeatsWithout; round++) {
            List<String> order = Versions.rotated(names, round);
            orders.add(order);
            progress.update("[lowcost] round " + (round + 1) + "/" + repeatsWithout + ", order " + order);
            for (String n : order) {
                Versions.Version v = Versions.get(n);
                List<String> conditions = round == 0 ? List.of(WITH, WITHOUT) : List.of(WITHOUT);
                for (String condition : conditions) {
                    Path log = reportDir.resolve("app-" + Versions.fileName(n) + "-" + condition + "-" + round + ".log");
                    try {
                        ScenarioResult s = cr.run(v, condition, round, log);
                        (condition.equals(WITH) ? with : without).get(n).add(s);
                    } catch (IOException e) {
                        progress.update("[" + n + "] " + condition + " FAILED: " + e.getMessage());
                        errors.put(n + "@" + condition + "#" + round, e.getMessage());
                    }
                    if (++done < cells) {
                        JsonWriter.write(result(versions, quick, params, machine, command, orders, with, without, errors),
                                partial);
                    }
                }
            }
        }
        LowCostResult res = result(versions, quick, params, machine, command, orders, with, without, errors);
        JsonWriter.write(res, reportDir.resolve("results.json"));
        Files.deleteIfExists(partial);
        return res;
    }

    private static LowCostResult result(List<Versions.Version> versions, boolean quick, Map<String, Object> params,
                                 Map<String, Object> machine, String command, List<List<String>> orders,
                                 Map<String, List<ScenarioResult>> with, Map<String, List<ScenarioResult>> without,
                                 Map<String, String> errors) {
        List<String> names = versions.stream().map(Versions.Version::name).toList();
        Map<String, LowCostResult.VersionResult> results = new LinkedHashMap<>();
        LowCostResult.Condition origWith = condition(with.getOrDefault(Versions.ORIGINAL, List.of()));
        LowCostResult.Condition origWithout = condition(without.getOrDefault(Versions.ORIGINAL, List.of()));
        boolean haveOriginal = names.contains(Versions.ORIGINAL);
        for (Versions.Version v : versions) {
            LowCostResult.Condition w = condition(with.get(v.name()));
            LowCostResult.Condition wo = condition(without.get(v.name()));
            ScenarioResult first = with.get(v.name()).isEmpty() ? null : with.get(v.name()).get(0);
            results.put(v.name(), new LowCostResult.VersionResult(v.description(), v.policyKey(), v.peer(),
                    first == null ? null : first.deadlineMissRatio(), first == null ? null : first.collectionTimeMeanMs(),
                    first == null ? null : first.collectionTimeMaxMs(),
                    first == null ? null : first.collectionTimeStddevMs(), w.chartThroughputPerS().mean(),
                    w.chartP50Ms().mean(), w.chartP99Ms().mean(), first == null ? null : first.suspensionTimeMeanMs(),
                    first == null ? null : first.suspensionTimeP99Ms(), w, wo,
                    haveOriginal ? Ratios.lossPct(w.chartThroughputPerS().mean(), origWith.chartThroughputPerS().mean()) : null,
                    haveOriginal ? Ratios.increasePct(w.chartMeanMs().mean(), origWith.chartMeanMs().mean()) : null,
                    haveOriginal ? Ratios.lossPct(wo.chartThroughputPerS().mean(), origWithout.chartThroughputPerS().mean())
                            : null,
                    haveOriginal ? Ratios.increasePct(wo.appCpuMsPerChart().mean(), origWithout.appCpuMsPerChart().mean())
                            : null));
        }
        return new LowCostResult("lowcost", Instant.now().toString(), command, quick, params, machine,
                orders.stream().map(List::copyOf).toList(), results, summary(results), new LinkedHashMap<>(errors));
    }

    static LowCostResult.Condition condition(List<ScenarioResult> runs) {
        Function<Function<ScenarioResult, Double>, LowCostResult.Spread> spread = f -> LowCostResult.Spread.of(runs.stream().map(f).toList());
        long errors = runs.stream().mapToLong(ScenarioResult::chartErrors).sum();
        Map<String, Long> kinds = new LinkedHashMap<>();
        long n = 0;
        double sum = 0;
        double sumSq = 0;
        for (ScenarioResult s : runs) {
            ClassResult c = s.load().stream().filter(x -> x.name().equals("chart")).findFirst().orElse(null);
            if (c == null) {
                continue;
            }
            c.errorKinds().forEach((k, v) -> kinds.merge(k, v, Long::sum));
            if (c.meanMs() != null && c.stddevMs() != null && c.requests() > 0) {
                // pool the runs' means and variances into one sample
                n += c.requests();
                sum += c.meanMs() * c.requests();
                sumSq += (c.stddevMs() * c.stddevMs() + c.meanMs() * c.meanMs()) * c.requests();
            }
        }
        List<Double> ci = null;
        if (n > 1) {
            double mean = sum / n;
            double sd = Math.sqrt(Math.max(0, sumSq / n - mean * mean));
            double half = 1.96 * sd / Math.sqrt(n);
            ci = List.of(round(mean - half), round(mean + half));
        }
        return new LowCostResult.Condition(spread.apply(ScenarioResult::chartThroughputPerS),
                spread.apply(s -> s.load().stream().filter(x -> x.name().equals("chart")).findFirst()
                        .map(ClassResult::meanMs).orElse(null)),
                ci, spread.apply(ScenarioResult::chartP50Ms), spread.apply(ScenarioResult::chartP99Ms),
                spread.apply(ScenarioResult::appCpuMsPerChart), errors, kinds, List.copyOf(runs));
    }

    static List<String> summary(Map<String, LowCostResult.VersionResult> rs) {
        List<String> out = new ArrayList<>();
        rs.forEach((n, r) -> {
            if (n.equals(Versions.ORIGINAL)) {
                out.add(String.format(Locale.ROOT, "original: %s charts/s with collection, %s without; %s ms CPU "
                                + "per chart without collection.", Format.cell(r.withCollection().chartThroughputPerS().mean()),
                        Format.cell(r.withoutCollection().chartThroughputPerS().mean()),
                        Format.cell(r.withoutCollection().appCpuMsPerChart().mean())));
                return;
            }
            out.add(String.format(Locale.ROOT, "%s: with collection, chart throughput %s %% and mean response time "
                            + "%s %% against original (Fig. 18); without collection, throughput lost %s %% (spread "
                            + "%s-%s charts/s over %d runs) and CPU per chart %s %%.", n,
                    signed(neg(r.throughputLossWithCollectionPct())), signed(r.responseTimeIncreasePct()),
                    Format.cell(r.overheadPct()), Format.cell(r.withoutCollection().chartThroughputPerS().min()),
                    Format.cell(r.withoutCollection().chartThroughputPerS().max()),
                    r.withoutCollection().chartThroughputPerS().n(), signed(r.cpuPerChartOverheadPct())));
        });
        long refusing = rs.values().stream().filter(r -> r.withCollection().chartErrors() > 0
                || r.withoutCollection().chartErrors() > 0).count();
        if (refusing > 0) {
            List<String> who = new ArrayList<>();
            rs.forEach((n, r) -> {
                if (r.withCollection().chartErrors() > 0 || r.withoutCollection().chartErrors() > 0) {
                    who.add(n + " " + r.withCollection().chartErrorKinds() + " / " + r.withoutCollection()
                            .chartErrorKinds());
                }
            });
            out.add("Chart requests refused or failed (with / without collection; not in the throughput): "
                    + String.join("; ", who) + ".");
        }
        return out;
    }

    private static Double neg(Double d) {
        return d == null ? null : -d;
    }

    private static String signed(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%+.1f", d);
    }


}
