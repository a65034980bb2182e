package io.qosweaver.bench.demo;

import io.qosweaver.bench.report.Reports;

import io.qosweaver.bench.app.FlashCrowdConfig;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.RiverMonitorRunner;
import io.qosweaver.bench.app.RunResult;
import io.qosweaver.bench.app.ScenarioResult;
import io.qosweaver.bench.report.JsonWriter;
import io.qosweaver.bench.report.ScenarioCharts;
import io.qosweaver.bench.report.ScenarioReport;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Layout;
import io.qosweaver.bench.run.Machine;
import io.qosweaver.bench.run.Snapshot;
import io.qosweaver.bench.run.Versions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo of issue 3 (experiment {@code deadline}, paper QoSWeaver 5.2): the same flash crowd
 * on the unmodified river monitor, once without the agent ("original") and once with the agent
 * and the importance policy ("qosweaver"), side by side. No idle window: the demo is about the
 * two versions under the same load.
 */
public final class Demo {
    public static final String ORIGINAL = Versions.ORIGINAL;
    public static final String QOSWEAVER = Versions.QOSWEAVER;



    private Demo() {
    }

    public static DemoResult run(Layout layout, FlashCrowdParams p, boolean quick, List<String> versionNames,
                             Path reportDir, String command, Progress progress)
            throws IOException, InterruptedException {
        List<Versions.Version> vs = Versions.resolve(versionNames);
        boolean needAgent = vs.stream().anyMatch(Versions.Version::usesAgent);
        layout.ensureBuilt(needAgent);
        if (needAgent && !Files.isRegularFile(layout.agentJar())) {
            throw new IOException("the agent jar " + layout.agentJar() + " is missing after the build");
        }
        FlashCrowdParams demo = p.idleS() > 0 ? p.withIdle(0) : p;
        Map<String, Object> machine = Machine.describe();
        Map<String, ScenarioResult> versions = new LinkedHashMap<>();
        Map<String, String> logs = new LinkedHashMap<>();
        Map<String, String> errors = new LinkedHashMap<>();
        RiverMonitorRunner runner = new RiverMonitorRunner(progress, RiverMonitorRunner.Observe.GAUGE);
        try (Snapshot jars = Snapshot.of(layout, vs)) {
            for (Versions.Version v : vs) {
                FlashCrowdConfig c = demo.config(v.name(), jars.jvmFlags(v), jars.riverMonitorJar(),
                        reportDir.resolve("app-" + Versions.fileName(v.name()) + ".log"));
                logs.put(v.name(), c.logFile().toString());
                try {
                    RunResult rr = runner.run(c);
                    versions.put(v.name(), rr.overloaded());
                    if (rr.priority() != null && !Boolean.TRUE.equals(rr.priority().get("effective"))) {
                        errors.put(v.name(), "mechanism not effective: " + rr.priority());
                    }
                } catch (IOException e) {
                    // one broken version (say, an agent that stops start-up) must not lose the other's numbers
                    progress.update("[" + v.name() + "] FAILED: " + e.getMessage());
                    versions.put(v.name(), null);
                    errors.put(v.name(), e.getMessage());
                }
            }
        }
        Map<String, ScenarioResult> measured = new LinkedHashMap<>();
        versions.forEach((k, r) -> {
            if (r != null) {
                measured.put(k, r);
            }
        });
        Map<String, Object> params = demo.asMap();
        Map<String, String> policies = new LinkedHashMap<>();
        vs.forEach(v -> policies.put(v.name(), v.policy()));
        params.put("policy", policies.get(QOSWEAVER));
        params.put("policies", policies);
        params.putAll(layout.jarDates(needAgent));
        DemoResult res = new DemoResult("demo", Instant.now().toString(), command, quick, params, machine, versions, logs,
                errors);
        JsonWriter.write(res, reportDir.resolve("results.json"));
        Reports.draw(reportDir, progress, () -> ScenarioReport.write(reportDir, "QoSWeaver demo: the river monitor under a flash crowd",
                List.of("The unmodified river monitor under " + demo.chartClients() + " closed-loop chart clients ("
                        + demo.chartHours() + " h charts); collector period " + demo.periodS() + " s, "
                        + demo.rivers() + " rivers. 'original' runs without the agent, 'qosweaver' with"
                        + " -javaagent and the importance policy " + params.get("policy") + "."),
                errors.isEmpty() ? List.of() : List.of("Failed: " + errors), command, measured, params, machine));
        return res;
    }
}
