package io.qosweaver.bench.pointcuts;

import io.qosweaver.bench.app.FlashCrowdConfig;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.app.Warmup;
import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.Reports;
import io.qosweaver.bench.report.Table;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.Snapshot;
import io.qosweaver.bench.stats.Format;
import io.qosweaver.bench.stats.Ratios;
import io.qosweaver.bench.stats.Round;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.model.policy.PolicyFileException;
import io.qosweaver.model.policy.PolicyText;
import io.qosweaver.pointcuts.ClassFileSynchronizedRegions;
import io.qosweaver.pointcuts.GenerationReport;
import io.qosweaver.pointcuts.PointcutGenerator;
import io.qosweaver.pointcuts.SlotProfile;
import io.qosweaver.pointcuts.SynchronizedRegions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Experiment {@code pointcuts} (issue 5; paper QoSWeaver 5.3, Table 3, Fig. 19-22): what the
 * profile-based pointcut generator's parameters do to the running application.
 *
 * <ol>
 *   <li>Profile one chart request (or more), JDK drawing packages included, with the agent's
 *       profiling mode ({@link ChartProfiler}), or take the profiles given.</li>
 *   <li>For every parameter set: the paper's t in {10, 100} ms x m in {1, 50, 100, 200}, our
 *       setting (t = 10 ms, m = 3000 per profiled chart: the app's cap on points per chart, so
 *       that the per-point loops of the drawing are eligible), 15 random candidates, all
 *       candidates, and the hand-written policy: generate (Table 3's columns, generation time),
 *       write a policy file.</li>
 *   <li>Run each policy on the unmodified river monitor: without collection, an overhead window
 *       (chart throughput and CPU per chart against {@code original}, no agent, measured before
 *       and after all sets) and the observed intervals between control points with 1, 10, 20 and
 *       40 chart clients (Fig. 19, 21); with collection, the flash crowd (time to suspend, collection
 *       time, misses, chart throughput: Fig. 22).</li>
 * </ol>
 */
public final class Pointcuts {
    public static final String GENERATED = "generated";
    public static final String RANDOM = "random";
    public static final String ALL = "all";
    public static final String FILE = "file";
    static final String HANDWRITTEN_POLICY = "examples/policies/handwritten/river-monitor.yaml";
    /** Written after every parameter set (the sets done so far), removed once results.json is written. */
    static final String PARTIAL_RESULTS = "results.partial.json";

    /**
     * One row of Table 3.
     *
     * @param kind     {@link #GENERATED} (t, m), {@link #RANDOM} (m = how many candidates), {@link #ALL}
     *                 or {@link #FILE} (a policy file's control points, {@code file} relative to the root)
     */
    public record ParamSet(String name, String kind, Duration interval, int maxOccurrence, String file, boolean coverAll,
                           boolean capped) {
        public ParamSet(String name, String kind, Duration interval, int maxOccurrence, String file, boolean coverAll) {
            this(name, kind, interval, maxOccurrence, file, coverAll, false);
        }

        public static ParamSet generated(Duration t, int m) {
            return new ParamSet("t" + fmtMs(t) + "ms-m" + m, GENERATED, t, m, null, false);
        }

        /**
         * The same set with the importance policy's always-on cap, {@code lowCap: 1x} (name suffix
         * {@code -cap}): at most as many chart threads run as there are cores at any time, the others
         * wait at their control points, so that a thread told to yield reaches its next control point
         * in about the CPU time between two, not that times the threads sharing a core.
         */
        public ParamSet withCap() {
            return new ParamSet(name + "-cap", kind, interval, maxOccurrence, file, coverAll, true);
        }

        /** Fig. 3 with t and m, then the coverage pass: every slot with a join point gets a control point. */
        public static ParamSet covering(Duration t, int m) {
            return new ParamSet("t" + fmtMs(t) + "ms-m" + m + "-cover", GENERATED, t, m, null, true);
        }

        public static ParamSet random(int k) {
            return new ParamSet(RANDOM + k, RANDOM, null, k, null, false);
        }

        public static ParamSet all() {
            return new ParamSet(ALL, ALL, null, 0, null, false);
        }

        public static ParamSet handwritten() {
            return new ParamSet("handwritten", FILE, null, 0, HANDWRITTEN_POLICY, false);
        }

        /**
         * {@code t<ms>ms-m<m>} (e.g. {@code t10ms-m50}), {@code random<k>}, {@code all} or
         * {@code handwritten}; anything else is an {@link IllegalArgumentException} saying what is known.
         */
        public static ParamSet parse(String name) {
            String n = name.strip();
            java.util.regex.Matcher g = java.util.regex.Pattern.compile("t(\\d+(?:\\.\\d+)?)ms-m(\\d+)(-cover)?(-cap)?")
                    .matcher(n);
            if (g.matches()) {
                long nanos = Math.round(Double.parseDouble(g.group(1)) * 1e6);
                int m = Integer.parseInt(g.group(2));
                if (nanos <= 0 || m < 1) {
                    throw new IllegalArgumentException("parameter set '" + n + "': t and m must be positive");
                }
                ParamSet set = g.group(3) != null ? covering(Duration.ofNanos(nanos), m) : generated(Duration.ofNanos(nanos), m);
                return g.group(4) != null ? set.withCap() : set;
            }
            java.util.regex.Matcher r = java.util.regex.Pattern.compile("random(\\d+)").matcher(n);
            if (r.matches() && Integer.parseInt(r.group(1)) > 0) {
                return random(Integer.parseInt(r.group(1)));
            }
            if (n.equals(ALL)) {
                return all();
            }
            if (n.equals("handwritten")) {
                return handwritten();
            }
            throw new IllegalArgumentException("unknown parameter set '" + n + "'; use t<ms>ms-m<m> (e.g. t10ms-m50), "
                    + "t<ms>ms-m<m>-cover (with the coverage pass), a -cap suffix on either (lowCap: 1x), random<k>, all or"
                    + " handwritten");
        }

        private static String fmtMs(Duration t) {
            double ms = t.toNanos() / 1e6;
            return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
        }
    }

    /**
     * The paper's eight, ours (t = 10 ms, m = 3000 per chart), the paper's t = 10 ms and m = 1 with
     * the coverage pass, random 15, all, and the hand-written policy.
     */
    public static List<ParamSet> defaultSets(int profiledCharts) {
        List<ParamSet> sets = new ArrayList<>();
        for (long t : new long[] {10, 100}) {
            for (int m : new int[] {1, 50, 100, 200}) {
                sets.add(ParamSet.generated(Duration.ofMillis(t), m));
            }
        }
        sets.add(ParamSet.generated(Duration.ofMillis(10), POINTS_PER_CHART * profiledCharts));
        sets.add(ParamSet.covering(Duration.ofMillis(10), profiledCharts));
        sets.add(ParamSet.random(15));
        sets.add(ParamSet.all());
        sets.add(ParamSet.handwritten());
        return sets;
    }

    /** The river monitor's cap on points per chart: a per-point loop runs at most this often per chart. */
    static final int POINTS_PER_CHART = 3000;

    /** The packages profiled as callers: examples/policies/regenerate.sh's (why: its comments). */
    public static final List<String> DEFAULT_INCLUDE = List.of("org.jfree", "org.rivermonitor.chart",
            "org.rivermonitor.web", "sun.java2d.marlin", "com.sun.imageio.plugins.png");

    /**
     * @param chartHours       the chart window profiled and requested
     * @param rivers           rivers of the runs without collection (seeding cost only; every chart costs the same)
     * @param profiledCharts   charts profiled, one file each (the paper: one)
     * @param intervalClients  concurrency levels of the interval windows (paper: 1, 10, 20, 40)
     * @param flash            the flash crowd of the runs with collection (null: none)
     * @param profileSlowdown  how many times slower the profiled charts ran than unprofiled ones, for
     *                         the generator (null: 1, the profile's own time base, in which the agent
     *                         took the probe's cost out; the recorded charts measure how well it holds)
     */
    public record Params(int chartHours, int rivers, int profiledCharts, List<String> include,
                         int overheadClients, double overheadWarmupS, double overheadWindowS,
                         List<Integer> intervalClients, double intervalWarmupS, double intervalWindowS,
                         FlashCrowdParams flash, long randomSeed, Double profileSlowdown) {
        public Params {
            include = List.copyOf(include);
            intervalClients = List.copyOf(intervalClients);
            if (profileSlowdown != null && !(profileSlowdown > 0 && profileSlowdown < Double.POSITIVE_INFINITY)) {
                throw new IllegalArgumentException("the profile slowdown must be a positive number, got " + profileSlowdown);
            }
        }


        /** About 80 minutes on 2 cores: 12 h charts, 60 s overhead windows, 20 s interval windows, 90 s flash crowds. */
        public static Params full() {
            FlashCrowdParams f = FlashCrowdParams.full();
            return new Params(12, 10, 1, DEFAULT_INCLUDE, 40, 15, 60, List.of(1, 10, 20, 40), 5, 20,
                    new FlashCrowdParams(f.periodS(), f.rivers(), f.chartClients(), 12, 0, 0, f.warmupS(), 90,
                            f.extraAppArgs()), 15, null);
        }

        /** About 15 minutes: 3 h charts, short windows, the quick flash crowd. */
        public static Params quick() {
            FlashCrowdParams f = FlashCrowdParams.quick();
            return new Params(3, 10, 1, DEFAULT_INCLUDE, 40, 6, 15, List.of(1, 10, 20, 40), 3, 6,
                    new FlashCrowdParams(f.periodS(), f.rivers(), f.chartClients(), 3, 0, 0, f.warmupS(),
                            f.durationS(), f.extraAppArgs()), 15, null);
        }

        /** The app arguments of the runs without collection: the flash crowd's period (it sets the history's step). */
        List<String> noCollectorArgs() {
            double period = flash != null ? flash.periodS() : FlashCrowdParams.DEFAULT_PERIOD_S;
            return List.of("--period", Format.number(period),
                    "--rivers", Integer.toString(rivers), "--history-hours", Integer.toString(chartHours));
        }

        Map<String, Object> asMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("chart_hours", chartHours);
            m.put("rivers_without_collection", rivers);
            m.put("profiled_charts", profiledCharts);
            m.put("include", include);
            m.put("overhead_clients", overheadClients);
            m.put("overhead_warmup_s", overheadWarmupS);
            m.put("overhead_warmup", "overhead_warmup_s with light_warmup_clients chart clients, then "
                    + "overhead_warmup_s with overhead_clients");
            m.put("light_warmup_clients", Warmup.lightClients());
            m.put("overhead_window_s", overheadWindowS);
            m.put("interval_clients", intervalClients);
            m.put("interval_warmup_s", intervalWarmupS);
            m.put("interval_window_s", intervalWindowS);
            m.put("flash_crowd", flash == null ? null : flash.asMap());
            m.put("random_seed", randomSeed);
            m.put("profile_slowdown", profileSlowdown == null ? "none: the profile's time base" : profileSlowdown);
            return m;
        }
    }











    private Pointcuts() {
    }

    public static PointcutsResult run(Layout layout, Params p, List<ParamSet> sets, List<Path> givenProfiles, boolean quick,
                             Path reportDir, String command, Progress progress) throws IOException, InterruptedException {
        layout.ensureBuilt(true);
        Files.createDirectories(reportDir);
        Map<String, String> errors = new LinkedHashMap<>();
        Map<String, Object> params = p.asMap();
        params.put("parameter_sets", sets.stream().map(ParamSet::name).toList());
        params.putAll(layout.jarDates(true));
        Map<String, Object> machine = Machine.describe(); // its load average is the one at the start
        try (Snapshot jars = Snapshot.of(layout, true)) {
            List<String> appCommand = List.of("-jar", jars.riverMonitorJar().toString());
            // 1. the profile
            List<Path> files = new ArrayList<>(givenProfiles);
            List<Double> chartMs = new ArrayList<>();
            List<Double> unprofiledMs = new ArrayList<>();
            // the profile's own time base is real time (the agent takes the probe's cost out); a
            // slowdown is applied only when given, and the recorded charts check the time base
            double slowdown = p.profileSlowdown() != null ? p.profileSlowdown() : 1.0;
            String slowdownSource = p.profileSlowdown() != null ? "given" : "none: the profile's time base";
            if (files.isEmpty()) {
                Path dir = Files.createDirectories(jars.dir().resolve("profiles"));
                String agent = "-javaagent:" + jars.agentJar() + "=profile=" + dir.resolve("chart.qwp") + ",include="
                        + String.join("+", p.include()) + ",start=paused,metricsPort=0";
                // -Xshare:off: the JDK classes the probe is woven into must not come from the shared archive
                ChartProfiler.Plan plan = new ChartProfiler.Plan(List.of("-Xshare:off", agent), appCommand,
                        p.noCollectorArgs(), p.chartHours(), p.profiledCharts(), reportDir.resolve("app-profile.log"));
                ChartProfiler.Profiled profiled = new ChartProfiler(progress).run(plan);
                for (ChartProfiler.Recorded r : profiled.charts()) {
                    files.add(r.file());
                    chartMs.add(round(r.chartMs()));
                }
                profiled.unprofiledChartMs().forEach(x -> unprofiledMs.add(round(x)));
            }
            long t0 = System.nanoTime();
            Map<Long, SlotProfile> bySlot = new java.util.HashMap<>();
            long firstSlot = Math.max(1, Math.round((sets.stream().filter(s -> s.interval() != null)
                    .map(ParamSet::interval).findFirst().orElse(Duration.ofMillis(10))).toNanos() * slowdown));
            SlotProfile profile = SlotProfile.read(files, firstSlot);
            bySlot.put(firstSlot, profile);
            double readMs = (System.nanoTime() - t0) / 1e6;
            TimeBase timeBase = TimeBase.of(files, unprofiledMs);
            PointcutsResult.ProfileInfo info = new PointcutsResult.ProfileInfo(files.stream().map(f -> f.getFileName().toString()).toList(),
                    profile.joinPoints(), profile.timelines(), profile.signatureCount(), chartMs, unprofiledMs,
                    round(slowdown), slowdownSource, round(readMs), timeBase.spanMs(), timeBase.stretch(),
                    timeBase.probeCostNanos());
            progress.update(String.format(Locale.ROOT, "[pointcuts] profile: %d join points on %d timeline(s), "
                    + "read in %.0f ms; slowdown %.2f (%s); the profiled charts span %s ms of the profile's time"
                    + " against %s ms unprofiled (stretch %s; probe cost taken out %s ns)", profile.joinPoints(),
                    profile.timelines(), readMs, slowdown, slowdownSource, timeBase.spanMs(), unprofiledMs,
                    timeBase.stretch() == null ? "n/a" : String.format(Locale.ROOT, "%.2f", timeBase.stretch()),
                    timeBase.probeCostNanos()));
            double slowdownFinal = slowdown;
            java.util.function.LongFunction<SlotProfile> slots = n -> bySlot.computeIfAbsent(n, k -> {
                try {
                    return SlotProfile.read(files, k);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });

            // 2. generation, one policy file per set
            SynchronizedRegions regions = ClassFileSynchronizedRegions.fromClassPath(
                    ClassFileSynchronizedRegions.withJdkModules(List.of(jars.riverMonitorJar()),
                            w -> progress.update("[pointcuts] warning: " + w)));
            String template = Files.readString(jars.policy());
            Path policies = Files.createDirectories(reportDir.resolve("policies"));
            Map<String, GenerationReport> generated = new LinkedHashMap<>();
            Map<String, Path> policyOf = new LinkedHashMap<>();
            for (ParamSet s : sets) {
                Path out = policies.resolve(s.name() + ".yaml");
                if (s.kind().equals(FILE)) {
                    Files.copy(layout.root().resolve(s.file()), out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                } else {
                    GenerationReport g = generate(slots, s, regions, p.randomSeed(), slowdownFinal);
                    generated.put(s.name(), g);
                    try {
                        Files.writeString(out, policy(template, s, g, files));
                    } catch (PolicyFileException e) {
                        throw new IOException("cannot write the policy of " + s.name() + ": " + e.getMessage(), e);
                    }
                    progress.update(String.format(Locale.ROOT, "[pointcuts] %s: %d pointcuts select %d join points, "
                                    + "predicted interval %s ms, generated in %.0f ms", s.name(), g.pointcuts().size(),
                            g.selectedJoinPoints(), ms(g.intervalMeanNanos()), g.generationNanos() / 1e6));
                }
                countControlPoints(out); // refused here, not by the agent of the first run
                policyOf.put(s.name(), out);
            }
            profile = null; // the runs below do not need them; let the heap go
            bySlot.clear();

            // 3. the runs
            ChartLoadRunner loads = new ChartLoadRunner(progress);
            RiverMonitorRunner flash = new RiverMonitorRunner(progress);
            List<ChartLoadRunner.Result> originals = new ArrayList<>();
            ScenarioResult originalFlash = null;
            try {
                originals.add(loads.run(plan(p, "original", List.of(), appCommand, List.of(),
                        reportDir.resolve("app-original-without-collection-1.log"))));
                originalFlash = flashRun(flash, p, "original", List.of(), appCommand,
                        reportDir.resolve("app-original-with-collection.log"));
            } catch (IOException e) {
                progress.update("[original] FAILED: " + e.getMessage());
                errors.put("original", e.getMessage());
            }
            Map<String, ChartLoadRunner.Result> without = new LinkedHashMap<>();
            Map<String, ScenarioResult> with = new LinkedHashMap<>();
            Path partial = reportDir.resolve(PARTIAL_RESULTS);
            for (int i = 0; i < sets.size(); i++) {
                ParamSet s = sets.get(i);
                String flag = Snapshot.agentFlag(jars.agentJar(), policyOf.get(s.name()));
                try {
                    without.put(s.name(), loads.run(plan(p, s.name(), List.of(flag), appCommand, p.intervalClients(),
                            reportDir.resolve("app-" + s.name() + "-without-collection.log"))));
                    ScenarioResult w = flashRun(flash, p, s.name(), List.of(flag), appCommand,
                            reportDir.resolve("app-" + s.name() + "-with-collection.log"));
                    if (w != null) {
                        with.put(s.name(), w);
                    }
                } catch (IOException e) {
                    progress.update("[" + s.name() + "] FAILED: " + e.getMessage());
                    errors.put(s.name(), e.getMessage());
                }
                // a run of over an hour must not lose what it measured to a crash near its end
                JsonWriter.write(aggregate(quick, command, params, machine, info, sets.subList(0, i + 1),
                        generated, policyOf, reportDir, originals, originalFlash, without, with, errors), partial);
            }
            try {
                originals.add(loads.run(plan(p, "original", List.of(), appCommand, List.of(),
                        reportDir.resolve("app-original-without-collection-2.log"))));
            } catch (IOException e) {
                progress.update("[original] second baseline FAILED: " + e.getMessage());
                errors.put("original#2", e.getMessage());
            }
            PointcutsResult r = aggregate(quick, command, params, machine, info, sets, generated, policyOf, reportDir,
                    originals, originalFlash, without, with, errors);
            JsonWriter.write(r, reportDir.resolve("results.json"));
            Reports.draw(reportDir, progress, () -> PointcutsReport.write(reportDir, r));
            Files.deleteIfExists(partial);
            return r;
        }
    }

    /**
     * @param profiles the profile summarized in slots of a length (the options' {@code slotNanos})
     * @param slowdown the profile's slowdown: t is real time, predicted intervals are real time
     */
    static GenerationReport generate(java.util.function.LongFunction<SlotProfile> profiles, ParamSet s,
                                     SynchronizedRegions regions, long seed, double slowdown) {
        return switch (s.kind()) {
            case GENERATED -> {
                PointcutGenerator.Options o = new PointcutGenerator.Options(s.interval(), s.maxOccurrence(), regions,
                        slowdown, s.coverAll());
                yield new PointcutGenerator(o).generate(profiles.apply(o.slotNanos()));
            }
            case RANDOM, ALL -> {
                // the baselines have no t of their own: slots of 10 ms, the paper's main setting
                PointcutGenerator.Options o = new PointcutGenerator.Options(Duration.ofMillis(10), Integer.MAX_VALUE,
                        regions, slowdown);
                PointcutGenerator g = new PointcutGenerator(o);
                SlotProfile profile = profiles.apply(o.slotNanos());
                List<GenerationReport.GeneratedPointcut> all = g.eligibleCandidates(profile);
                yield g.evaluate(profile, s.kind().equals(ALL) ? all
                        : PointcutGenerator.randomSample(all, s.maxOccurrence(), seed));
            }
            default -> throw new IllegalArgumentException("no generation for a set of kind " + s.kind());
        };
    }

    /**
     * The river-monitor policy with its control points replaced by the generated ones: the
     * template's own header comment gives way to ours, its controlPoints section (found on the
     * YAML tree, with the comments above it) to the set's.
     */
    static String policy(String template, ParamSet s, GenerationReport g, List<Path> profiles)
            throws PolicyFileException {
        StringBuilder b = new StringBuilder();
        b.append("# bench pointcuts, parameter set ").append(s.name()).append(" (").append(s.kind()).append(") from ")
                .append(profiles.stream().map(f -> f.getFileName().toString()).toList()).append(".\n");
        b.append("# Task classes and policy: examples/policies/river-monitor.yaml; control points replaced.\n");
        String body = PolicyText.replaceSection("river-monitor.yaml", template, "controlPoints", g.controlPointsYaml());
        if (s.capped()) {
            // the policy section is the template's last: the cap goes at its end (the agent's reader checks the result)
            body = (body.endsWith("\n") ? body : body + "\n")
                    + "  # bench pointcuts' -cap: at most as many running chart threads as cores, at all times\n  lowCap: 1x\n";
        }
        int i = 0;
        while (body.startsWith("#", i)) {
            int eol = body.indexOf('\n', i);
            i = eol < 0 ? body.length() : eol + 1; // the template's header
        }
        return b.append(body, i, body.length()).toString();
    }

    private static ChartLoadRunner.Plan plan(Params p, String version, List<String> jvm, List<String> appCommand,
                                             List<Integer> intervalClients, Path log) {
        return new ChartLoadRunner.Plan(version, jvm, appCommand, p.noCollectorArgs(), p.chartHours(),
                p.overheadClients(), p.overheadWarmupS(), p.overheadWindowS(), intervalClients, p.intervalWarmupS(),
                p.intervalWindowS(), log);
    }

    private static ScenarioResult flashRun(RiverMonitorRunner runner, Params p, String version, List<String> jvm,
                                           List<String> appCommand, Path log) throws IOException, InterruptedException {
        FlashCrowdParams f = p.flash();
        if (f == null) {
            return null;
        }
        FlashCrowdConfig c = new FlashCrowdConfig(version, f.periodS(), f.rivers(), f.chartClients(), p.chartHours(),
                0, 0, f.warmupS(), f.durationS(), jvm, appCommand, f.extraAppArgs(), log);
        return runner.run(c).overloaded();
    }

    static PointcutsResult aggregate(boolean quick, String command, Map<String, Object> params, Map<String, Object> machine,
                            PointcutsResult.ProfileInfo info, List<ParamSet> sets, Map<String, GenerationReport> generated,
                            Map<String, Path> policyOf, Path reportDir, List<ChartLoadRunner.Result> originals,
                            ScenarioResult originalFlash, Map<String, ChartLoadRunner.Result> without,
                            Map<String, ScenarioResult> with, Map<String, String> errors) throws IOException {
        List<Double> baseThr = originals.stream().map(o -> o.overhead().throughputPerS()).toList();
        List<Double> baseCpu = originals.stream().map(o -> o.overhead().appCpuMsPerChart()).toList();
        Double thrMean = mean(baseThr);
        Double cpuMean = mean(baseCpu);
        PointcutsResult.Baseline base = new PointcutsResult.Baseline(baseThr.stream().map(Pointcuts::round).toList(), round(thrMean),
                baseCpu.stream().map(Pointcuts::round).toList(), round(cpuMean),
                originalFlash == null ? null : originalFlash.collectionTimeMeanMs(),
                originalFlash == null ? null : originalFlash.collectionTimeMaxMs(),
                originalFlash == null ? null : originalFlash.deadlineMissRatio(),
                originalFlash == null ? null : round(originalFlash.chartThroughputPerS()),
                originalFlash == null ? null : originalFlash.chartP50Ms());
        Map<String, PointcutsResult.SetResult> out = new LinkedHashMap<>();
        Double maxGen = null;
        for (ParamSet s : sets) {
            GenerationReport g = generated.get(s.name());
            ChartLoadRunner.Result wo = without.get(s.name());
            ScenarioResult w = with.get(s.name());
            Map<String, PointcutsResult.Observed> observed = new LinkedHashMap<>();
            if (wo != null) {
                for (ChartLoadRunner.Window win : wo.intervals()) {
                    IntervalStats st = win.intervals();
                    observed.put(Integer.toString(win.clients()), new PointcutsResult.Observed(win.clients(),
                            st == null ? 0 : st.count(), st == null ? null : round(st.meanMs()),
                            st == null ? null : round(st.sdMs()), st == null ? null : round(st.p50Ms()),
                            st == null ? null : round(st.p90Ms()), st == null ? null : round(st.p99Ms()),
                            round(win.throughputPerS()), round(win.controlPointsPerChart())));
                }
            }
            PointcutsResult.Observed single = observed.get("1");
            ChartLoadRunner.Window ov = wo == null ? null : wo.overhead();
            Double genMs = g == null ? null : round(g.generationNanos() / 1e6);
            if (genMs != null && s.kind().equals(GENERATED) && (maxGen == null || genMs > maxGen)) {
                maxGen = genMs;
            }
            int pointcuts = g != null ? g.pointcuts().size() : countControlPoints(policyOf.get(s.name()));
            out.put(s.name(), new PointcutsResult.SetResult(s.kind(),
                    s.interval() == null ? null : s.interval().toNanos() / 1e6,
                    s.kind().equals(GENERATED) || s.kind().equals(RANDOM) ? s.maxOccurrence() : null,
                    reportDir.relativize(policyOf.get(s.name())).toString(), pointcuts,
                    g == null ? null : g.selectedJoinPoints(), g == null ? null : nanosToMs(g.intervalMeanNanos()),
                    g == null ? null : nanosToMs(g.intervalStdDevNanos()), g == null ? null : nanosToMs(g.longestGapNanos()),
                    g == null ? null : g.slots(),
                    g == null ? null : g.uncoveredSlots(), genMs, single == null ? null : single.meanMs(),
                    single == null ? null : single.sdMs(), observed,
                    ov == null ? null : round(ov.controlPointsPerChart()), ov == null ? null : round(ov.throughputPerS()),
                    ov == null ? null : round(ov.appCpuMsPerChart()),
                    ov == null ? null : Ratios.lossPct(ov.throughputPerS(), thrMean),
                    ov == null ? null : Ratios.increasePct(ov.appCpuMsPerChart(), cpuMean),
                    w == null ? null : w.suspensionTimeMeanMs(), w == null ? null : w.suspensionTimeP99Ms(),
                    w == null ? null : w.collectionTimeMeanMs(), w == null ? null : w.collectionTimeMaxMs(),
                    w == null ? null : w.deadlineMissRatio(), w == null ? null : round(w.chartThroughputPerS()),
                    w == null ? null : w.chartP50Ms(), errors.get(s.name())));
        }
        List<String> summary = summary(out, base, info);
        return new PointcutsResult("pointcuts", Instant.now().toString(), command, quick, params, machine, info,
                info.joinPoints(), maxGen, base, out, summary, errors);
    }

    static List<String> summary(Map<String, PointcutsResult.SetResult> sets, PointcutsResult.Baseline base, PointcutsResult.ProfileInfo info) {
        List<String> out = new ArrayList<>();
        out.add(String.format(Locale.ROOT, "Profile: %d join points on %d timeline(s) (%s); slowdown %.2f (%s): "
                        + "predicted intervals are profile time divided by it.", info.joinPoints(),
                info.timelines(), String.join(", ", info.files()), info.profileSlowdown(), info.profileSlowdownSource()));
        if (info.timeBaseStretch() != null) {
            out.add(String.format(Locale.ROOT, "Time base: the recorded charts span %s ms of the profile's time (probe cost"
                            + " taken out: %s ns per join point) against %s ms without the agent: stretch %.2f"
                            + " (1 = real time; the goal is within 1.5x).", info.profiledSpanMs(), info.probeCostNanos(),
                    info.unprofiledChartMs(), info.timeBaseStretch()));
        }
        sets.forEach((n, s) -> {
            StringBuilder b = new StringBuilder(n).append(": ");
            b.append(s.pointcuts()).append(" pointcuts");
            if (s.selectedJoinPoints() != null) {
                b.append(" selecting ").append(s.selectedJoinPoints()).append(" join points");
            }
            if (s.predictedIntervalMeanMs() != null) {
                b.append(", predicted interval ").append(Format.precise(s.predictedIntervalMeanMs())).append(" ms");
            }
            b.append("; observed ").append(Format.precise(s.observedIntervalMeanMs())).append(" ms single-threaded");
            if (s.predictedIntervalMeanMs() != null && s.observedIntervalMeanMs() != null && s.predictedIntervalMeanMs() > 0) {
                b.append(String.format(Locale.ROOT, " (%.2fx the prediction)",
                        s.observedIntervalMeanMs() / s.predictedIntervalMeanMs()));
            }
            PointcutsResult.Observed o40 = s.observed().get("40");
            if (o40 != null) {
                b.append(", ").append(Format.precise(o40.meanMs())).append(" ms with 40 clients");
            }
            b.append("; overhead without collection ").append(signed(s.overheadPct())).append(" % throughput, ")
                    .append(signed(s.cpuOverheadPct())).append(" % CPU per chart");
            if (s.suspensionTimeMeanMs() != null || s.deadlineMissRatio() != null) {
                b.append("; with collection: time to suspend ").append(Format.precise(s.suspensionTimeMeanMs())).append(" ms mean, ")
                        .append(Format.precise(s.suspensionTimeP99Ms())).append(" ms p99, collection ")
                        .append(Format.precise(s.collectionTimeMeanMs())).append(" ms, miss ratio ").append(Format.precise(s.deadlineMissRatio()));
            }
            if (s.error() != null) {
                b.append("; FAILED: ").append(s.error());
            }
            out.add(b.append('.').toString());
        });
        if (base.chartThroughputPerS().size() > 1) {
            double lo = base.chartThroughputPerS().stream().mapToDouble(d -> d).min().orElse(0);
            double hi = base.chartThroughputPerS().stream().mapToDouble(d -> d).max().orElse(0);
            out.add(String.format(Locale.ROOT, "Noise floor: original's throughput without collection was %s and %s "
                    + "charts/s in its two runs (%.1f %% apart); overheads within that are not resolved by one window.",
                    Format.precise(lo), Format.precise(hi), lo > 0 ? 100 * (hi - lo) / lo : 0));
        }
        return out;
    }

    /**
     * The control points of a policy file, read as the agent reads it: a set whose policy the
     * agent would refuse fails here, before any run.
     */
    static int countControlPoints(Path policy) throws IOException {
        try {
            return PolicyFile.load(policy).controlPoints().size();
        } catch (PolicyFileException e) {
            throw new IOException("the agent would refuse this policy: " + e.getMessage(), e);
        }
    }

    private static Double mean(List<Double> xs) {
        List<Double> v = xs.stream().filter(x -> x != null).toList();
        return v.isEmpty() ? null : v.stream().mapToDouble(d -> d).average().orElse(0);
    }

    private static Double nanosToMs(double nanos) {
        return Double.isNaN(nanos) ? null : round(nanos / 1e6);
    }

    private static String ms(double nanos) {
        return Double.isNaN(nanos) ? "n/a" : String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }



    private static String signed(Double d) {
        return d == null ? "-" : String.format(Locale.ROOT, "%+.1f", d);
    }

    /** Four decimals: intervals in ms and ratios that are often well below 1. */
    static Double round(Double v) {
        return Round.round(v, 4);
    }
}
