package io.qosweaver.bench.adaptive;

import io.qosweaver.bench.app.AgentSwitch;
import io.qosweaver.bench.app.AppProcess;
import io.qosweaver.bench.app.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Every run of {@code bench adaptive} without the collector in one river-monitor process, started
 * with the agent: a run with a policy swaps its file in ({@code ctl swap}), the app without
 * QoSWeaver is the same process unwoven ({@code ctl unweave}); each checked by the agent's status
 * before the run's warm-up. The quick runs of 2026-11-25 found the same fixed limit giving up to
 * 1.7x different up-to-date throughputs from one process to the next, so a feasible range probed
 * in other processes did not hold for the targets; here the probes, the baseline and the targets
 * share one process and its JIT. The run with the collector needs an app that collects: it gets a
 * process of its own ({@link AdaptiveRunner}).
 */
final class AdaptiveSession implements Adaptive.ProcessRunner, AutoCloseable {
    private static final Duration SWITCH_TIMEOUT = Duration.ofSeconds(60);

    private final AdaptiveRunner runner;
    private final Path dir;
    private final List<String> startFlags;
    private final Path log;
    private final Progress progress;
    private AppProcess process;
    private AdaptiveRunner.App app;
    private AgentSwitch.Control control;
    private int runs;

    /**
     * @param dir        the report directory (the runs' policy files are in its {@code policies/})
     * @param startFlags the JVM flags that load the agent with a first policy
     * @param log        the shared process's log
     */
    AdaptiveSession(AdaptiveRunner runner, Path dir, List<String> startFlags, Path log, Progress progress) {
        this.runner = runner;
        this.dir = dir;
        this.startFlags = List.copyOf(startFlags);
        this.log = log;
        this.progress = progress;
    }

    @Override
    public Adaptive.Measured run(Adaptive.RunPlan plan, AdaptiveParams p, Path runLog)
            throws IOException, InterruptedException {
        if (plan.collector()) {
            return runner.run(plan, p, runLog);
        }
        if (process == null) {
            progress.update("[" + plan.name() + "] starting the river monitor every run without the collector shares; "
                    + "log " + log);
            process = runner.start(startFlags, p, false, log);
            app = runner.connect(process, true);
            control = AgentSwitch.Control.of(process.pid(), SWITCH_TIMEOUT);
        } else if (!process.isAlive()) {
            throw new IOException("the shared app process has exited; last lines:\n" + process.tail());
        }
        Path policy = plan.policyText() == null ? null : Adaptive.policyFile(dir, plan.name());
        long t0 = System.nanoTime();
        AgentSwitch.set(control, policy);
        progress.update("[" + plan.name() + "] " + (policy == null ? "unwoven" : "swapped to " + dir.relativize(policy))
                + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        Files.writeString(runLog, "run " + (runs + 1) + " in the shared app process (pid " + process.pid() + "): "
                + (policy == null ? "unwoven" : "swapped to " + dir.relativize(policy)) + "; its output is in "
                + dir.relativize(log) + "\n");
        return runner.measure(app, plan, p, runs++ == 0);
    }

    @Override
    public void close() {
        if (process != null) {
            process.close();
        }
    }
}
