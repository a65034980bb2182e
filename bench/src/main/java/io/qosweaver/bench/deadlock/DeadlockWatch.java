package io.qosweaver.bench.deadlock;

import io.qosweaver.bench.app.AppProcess;
import io.qosweaver.bench.app.ThreadDump;
import io.qosweaver.bench.app.CollectionRecord;
import io.qosweaver.bench.app.CollectionsParser;
import io.qosweaver.bench.app.Progress;
import io.qosweaver.bench.app.PrometheusScrape;
import io.qosweaver.bench.app.RiverMonitorRunner;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Watches one app process of the deadlock experiment from the moment it is ready, on a thread of
 * its own, so that a deadlocked app never holds the harness: every second it reads the app's
 * collections and the agent's metrics, and when {@link Detector} says deadlocked it saves a thread
 * dump, kills the app and interrupts the runner's thread. At the end of a run that was not
 * deadlocked, {@link #beforeStop} checks that no thread stays suspended ({@link EndCheck}).
 */
final class DeadlockWatch implements RiverMonitorRunner.Hooks, AutoCloseable {
    private static final long POLL_MS = 1000;

    /**
     * The rule, without processes: deadlocked when no collection has ended for more than
     * {@code periods} periods (since the last one ended, or since the watch began) while some thread
     * is suspended by the scheduler. Collections are due every period, so a collector that ends none
     * in three is stuck, and a suspended thread says whom it waits for. Without the agent there is
     * no such gauge, and nothing is called a deadlock.
     */
    static final class Detector {
        private final long periodMs;
        private final int periods;
        private long lastEndMs;
        private List<Long> completed = List.of();
        private int missed;

        Detector(long startMs, long periodMs, int periods) {
            this.lastEndMs = startMs;
            this.periodMs = periodMs;
            this.periods = periods;
        }

        /** One observation; true when it shows the deadlock. */
        boolean observe(long nowMs, List<CollectionRecord> collections, Integer suspendedThreads) {
            if (collections != null) {
                List<Long> done = new ArrayList<>();
                int late = 0;
                for (CollectionRecord r : collections) {
                    if (r.finished()) {
                        done.add(r.durationMs());
                        late += r.missed(periodMs) ? 1 : 0;
                        lastEndMs = Math.max(lastEndMs, r.startMs() + r.durationMs());
                    }
                }
                if (done.size() >= completed.size()) {
                    completed = List.copyOf(done);
                    missed = late;
                }
            }
            return suspendedThreads != null && suspendedThreads > 0 && nowMs - lastEndMs > periods * periodMs;
        }

        long lastEndMs() {
            return lastEndMs;
        }

        /** Of {@link #completed()}, those that missed their deadline. */
        int missed() {
            return missed;
        }

        /** The durations of the collections that had ended at the last observation. */
        List<Long> completed() {
            return completed;
        }
    }

    /**
     * The end of a run: the load has stopped and the window's collections have ended, so nothing
     * should stay suspended. Suspended threads are read until none are left or {@code limitMs} has
     * passed; a thread still suspended then is a permanent suspension. Null means not measured.
     */
    record EndCheck(Integer suspendedAtEnd, Boolean permanentSuspension, double waitedS, double limitS) {
    }

    /** What was seen when the deadlock was detected. */
    record Detection(long atMs, double afterReadyS, long lastCollectionEndMs, List<Long> completedDurationsMs,
                     int missed, int suspendedThreads, List<String> evidence, String threadDump) {
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String version;
    private final long periodMs;
    private final int periods;
    private final double endLimitS;
    private final Path dumpFile;
    private final Progress progress;
    private final Thread runner;
    private volatile Thread watcher;
    private volatile boolean stop;
    private volatile Detection detection;
    private volatile EndCheck endCheck;
    private volatile Long runOns;
    private volatile Long monitorSkips;
    private volatile Long progressPoints;

    /**
     * @param periods   collection periods without an ended collection that, with a suspended
     *                  thread, make a deadlock
     * @param endLimitS how long a thread may stay suspended after the run's end
     * @param runner    the thread running the app, interrupted when the app is killed
     */
    DeadlockWatch(String version, long periodMs, int periods, double endLimitS, Path dumpFile, Progress progress,
                  Thread runner) {
        this.version = version;
        this.periodMs = periodMs;
        this.periods = periods;
        this.endLimitS = endLimitS;
        this.dumpFile = dumpFile;
        this.progress = progress;
        this.runner = runner;
    }

    @Override
    public void ready(AppProcess app, URI base, URI metrics) {
        long readyMs = System.currentTimeMillis();
        Detector d = new Detector(readyMs, periodMs, periods);
        Thread t = new Thread(() -> watch(app, base, metrics, readyMs, d), "deadlock-watch-" + version);
        t.setDaemon(true);
        watcher = t;
        t.start();
    }

    private void watch(AppProcess app, URI base, URI metrics, long readyMs, Detector d) {
        while (!stop && app.isAlive()) {
            List<CollectionRecord> cs = collections(base);
            PrometheusScrape m = metrics == null ? null : RiverMonitorRunner.scrape(http, metrics);
            Integer suspended = null;
            if (m != null) {
                Double s = m.value("qosweaver_suspended_threads");
                suspended = s == null ? null : (int) Math.round(s);
                runOns = asLong(m.value("qosweaver_wait_timeouts_total"));
                monitorSkips = asLong(m.value("qosweaver_monitor_skips_total"));
                progressPoints = asLong(m.value("qosweaver_progress_points_total", "task_class", "collector"));
            }
            long now = System.currentTimeMillis();
            if (!stop && d.observe(now, cs, suspended)) {
                String dump = threadDump(app);
                Detection det = new Detection(now, (now - readyMs) / 1000.0, d.lastEndMs(), d.completed(),
                        d.missed(), suspended, evidence(dump), dump == null ? null : dumpFile.toString());
                detection = det;
                progress.update(String.format("[%s] DEADLOCK detected %.1f s after start: no collection ended for "
                                + "%.1f s, %d thread(s) suspended; killing the app", version, det.afterReadyS(),
                        (now - d.lastEndMs()) / 1000.0, suspended));
                ProcessHandle.of(app.pid()).ifPresent(ProcessHandle::destroyForcibly);
                runner.interrupt();
                return;
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void beforeStop(AppProcess app, URI base, URI metrics) throws InterruptedException {
        if (metrics == null) {
            endCheck = new EndCheck(null, null, 0, endLimitS);
            return;
        }
        long start = System.nanoTime();
        long limit = start + Math.round(endLimitS * 1e9);
        Integer suspended = null;
        while (true) {
            PrometheusScrape m = RiverMonitorRunner.scrape(http, metrics);
            Double s = m == null ? null : m.value("qosweaver_suspended_threads");
            suspended = s == null ? null : (int) Math.round(s);
            if (suspended != null && suspended == 0 || System.nanoTime() >= limit) {
                break;
            }
            Thread.sleep(250);
        }
        double waited = Math.round((System.nanoTime() - start) / 1e6) / 1000.0;
        endCheck = new EndCheck(suspended, suspended == null ? null : suspended > 0, waited, endLimitS);
        if (suspended != null && suspended > 0) {
            progress.update("[" + version + "] PERMANENT SUSPENSION: " + suspended + " thread(s) still suspended "
                    + endLimitS + " s after the run's end");
        }
    }

    private List<CollectionRecord> collections(URI base) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(base.resolve("/status/collections"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? CollectionsParser.parse(r.body()) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** {@code jcmd PID Thread.print} into the dump file; null when it cannot be had. */
    private String threadDump(AppProcess app) {
        try {
            return ThreadDump.take(app.pid(), dumpFile);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * From a thread dump: the collector's state and what it waits for, and the thread that holds the
     * logger's monitor with its top frames (the paper's deadlock: the collector blocked in
     * writeCollection, a chart thread parked by the scheduler inside writeGeneration).
     */
    static List<String> evidence(String dump) {
        List<String> out = new ArrayList<>();
        if (dump == null) {
            return out;
        }
        int lockWaiters = 0;
        for (String block : dump.split("\\n\\s*\\n")) {
            String b = block.strip();
            if (!b.startsWith("\"")) {
                continue;
            }
            String name = b.substring(1, Math.max(1, b.indexOf('"', 1)));
            String[] lines = b.split("\\n");
            if (name.startsWith("collector-timer")) {
                out.add("collector thread: " + String.join(" | ", top(lines, 4)));
            } else if (b.contains("(a org.rivermonitor.log.SyncLog)") && b.contains("- locked")) {
                // parked by the scheduler (the hidden-lock deadlock), or queued for the scheduler's own lock
                String how = schedulerLockWait(b) ? "waits for the scheduler's lock (not parked)"
                        : b.contains("Controller.await") ? "parked by the scheduler" : "neither parked nor queued";
                out.add("holds the logger's monitor: " + name + ", " + how + ": " + String.join(" | ", top(lines, 6)));
            }
            if (schedulerLockWait(b)) {
                lockWaiters++;
            }
        }
        if (lockWaiters > 0) {
            out.add(lockWaiters + " thread(s) queued for the scheduler's lock (ReentrantLock.lock in Controller)");
        }
        return out;
    }

    /** A thread queued on the scheduler's ReentrantLock (Controller's lock), not parked at a control point. */
    private static boolean schedulerLockWait(String block) {
        int lock = block.indexOf("ReentrantLock.lock(");
        int controller = block.indexOf("io.qosweaver.scheduler.core.Controller.");
        return lock >= 0 && controller > lock;
    }

    private static List<String> top(String[] lines, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i < lines.length && out.size() < n; i++) {
            String l = lines[i].strip();
            if (!l.isEmpty()) {
                out.add(l);
            }
        }
        return out;
    }

    private static Long asLong(Double d) {
        return d == null ? null : Math.round(d);
    }

    Detection detection() {
        return detection;
    }

    EndCheck endCheck() {
        return endCheck;
    }

    /** The agent's run-on count (the deadlock-aware policy's timed waits that ran on) at the last read. */
    Long runOns() {
        return runOns;
    }

    Long monitorSkips() {
        return monitorSkips;
    }

    Long progressPoints() {
        return progressPoints;
    }

    /** Stops the watcher and waits for it: after this no interrupt can reach the runner's thread. */
    @Override
    public void close() throws InterruptedException {
        stop = true;
        Thread t = watcher;
        if (t != null) {
            t.interrupt();
            t.join(60_000);
        }
    }
}
