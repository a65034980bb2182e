package io.qosweaver.trace;

import io.qosweaver.platform.LinuxThreads;
import io.qosweaver.trace.app.AppTrace;
import io.qosweaver.trace.app.ServerTrace;
import io.qosweaver.trace.app.UserTrace;
import io.qosweaver.trace.buffer.EventRing;
import io.qosweaver.trace.buffer.ThreadRings;
import io.qosweaver.trace.jvm.JfrSource;
import io.qosweaver.trace.os.OsSampler;
import io.qosweaver.trace.os.TracefsSession;
import io.qosweaver.trace.proto.Args;
import io.qosweaver.trace.proto.PerfettoWriter;
import io.qosweaver.trace.server.ServerLevel;
import io.qosweaver.trace.stats.StateIntervals;
import io.qosweaver.trace.stats.StatsPage;
import io.qosweaver.trace.timeline.Level;
import io.qosweaver.trace.timeline.Timeline;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One tracing session of this JVM: starts the sources of the levels asked for, drains the
 * application threads' rings, merges everything in timestamp order and writes the Perfetto file.
 * Its threads are daemons of its own: "qosweaver-trace" (drain, merge, write; every
 * {@value #TICK_MILLIS} ms), "qosweaver-trace-os" (the OS level: the tracefs reader or the /proc sampler) and JFR's stream thread. It
 * stops after the duration asked for, on {@link #close()}, or when the JVM exits (a shutdown hook),
 * whichever comes first, and always leaves a complete file with its loss statistics.
 */
public final class Tracer implements AutoCloseable {
    static final long TICK_MILLIS = 100;
    /** How long events wait for stragglers before being written: JFR delivers about once a second. */
    static final long LAG_NANOS = 3_000_000_000L;
    /**
     * How far before a drain's start the server level interprets events (the rest waits for the
     * next drain): an event is published to its ring after its time was taken, so a ring read early
     * in a drain can miss an event older than those of rings read later. Well under {@code LAG_NANOS}.
     */
    static final long SERVER_HOLD_NANOS = 50_000_000L;
    /** About 25 MiB of pending events at most: 87,000 events a second over the lag. */
    static final int MAX_PENDING = 1 << 18;
    /** The statistics view's intervals: about 3 MB of page and 3 MB of heap (40 threads x 60 s x 20 changes a second fit). */
    static final int MAX_PAGE_INTERVALS = 100_000;

    private static final java.util.concurrent.atomic.AtomicReference<Tracer> ACTIVE =
            new java.util.concurrent.atomic.AtomicReference<>();

    private final TraceOptions options;
    private final Consumer<String> log;
    private final Timeline timeline;
    private final ThreadRings rings;
    private final OsSampler os;
    private final Thread osThread;
    private final TracefsSession tracefs;
    /** Where the OS level's states come from: {@code tracefs}, {@code proc} or {@code none}. */
    private volatile String osSource;
    private final JfrSource jfr;
    private final Thread main;
    private final Thread hook;
    private final long start;
    private final long lossTrack;
    private final StateIntervals stats;
    private final ServerLevel server;
    private final String processName;
    private volatile boolean stopping;
    private final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
    private boolean closed;
    private long ringEvents;

    private Tracer(TraceOptions o, Consumer<String> log) throws IOException {
        this.options = o;
        this.log = log;
        int pid = (int) LinuxThreads.pid();
        if (o.levels().contains(Level.OS) && o.osSource() == TraceOptions.OsSource.TRACEFS) {
            String why = TracefsSession.unavailable();
            if (why != null) {
                throw new IllegalStateException("traceOs=tracefs: tracefs cannot be used: " + why);
            }
        }
        PerfettoWriter w;
        try {
            w = new PerfettoWriter(partial(o.out()), o.maxBytes(), 64 << 10);
        } catch (IOException | RuntimeException e) {
            throw new IOException("cannot write the trace file " + o.out().toAbsolutePath() + ": " + e, e);
        }
        Instant wall = Instant.now();
        start = System.nanoTime();
        String cmd = System.getProperty("sun.java.command", "java");
        this.processName = "java " + cmd.split(" ", 2)[0];
        this.timeline = new Timeline(w, pid, processName, ProcessHandle.current().info()
                .commandLine().orElse(cmd), start, wall.getEpochSecond() * 1_000_000_000L + wall.getNano(), MAX_PENDING);
        this.lossTrack = timeline.processChild("trace events lost", PerfettoWriter.UNIT_COUNT);
        this.stats = o.html() ? new StateIntervals(MAX_PAGE_INTERVALS) : null;
        timeline.observe(stats);
        Set<Level> levels = o.levels();

        OsSampler sampler = null;
        Thread st = null;
        TracefsSession tfs = null;
        String source = "none";
        if (levels.contains(Level.OS)) {
            String whyNot = null;
            if (o.osSource() != TraceOptions.OsSource.PROC) {
                try {
                    tfs = TracefsSession.open(timeline, pid, log);
                    source = "tracefs";
                } catch (IOException | RuntimeException e) {
                    whyNot = e.getMessage();
                    if (o.osSource() == TraceOptions.OsSource.TRACEFS) {
                        w.close();
                        Files.deleteIfExists(partial(o.out()));
                        throw new IllegalStateException("traceOs=tracefs: tracefs cannot be used: " + whyNot, e);
                    }
                }
            }
            // with auto, the sampler is also made ready (not started) in case tracefs' reader fails at start
            if (tfs == null || o.osSource() == TraceOptions.OsSource.AUTO) {
                String why = OsSampler.unavailable();
                if (why != null) {
                    if (tfs == null) {
                        log.accept(why);
                    }
                } else {
                    sampler = new OsSampler(timeline, o.osHz());
                    st = new Thread(sampler, "qosweaver-trace-os");
                    st.setDaemon(true);
                    if (tfs == null) {
                        source = "proc";
                        if (whyNot != null) {
                            log.accept("OS level: /proc sampled at " + o.osHz() + " Hz (tracefs not used: " + whyNot + ")");
                        }
                    }
                }
            }
        }
        this.tracefs = tfs;
        this.osSource = source;
        this.os = sampler;
        this.osThread = st;

        JfrSource j = null;
        if (levels.contains(Level.JVM) || levels.contains(Level.SCHEDULER)) {
            try {
                j = new JfrSource(timeline, levels.contains(Level.JVM), levels.contains(Level.SCHEDULER),
                        Duration.ofNanos(o.thresholdNanos()));
            } catch (RuntimeException | LinkageError e) {
                log.accept("JFR is not available in this JVM (" + e + "): JVM and scheduler levels disabled");
            }
        }
        this.jfr = j;
        this.rings = levels.contains(Level.APP) || levels.contains(Level.SERVER) || levels.contains(Level.USER)
                ? new ThreadRings(o.ringEvents()) : null;
        this.server = levels.contains(Level.SERVER) ? new ServerLevel(timeline) : null;
        this.main = new Thread(this::loop, "qosweaver-trace");
        main.setDaemon(true);
        this.hook = new Thread(this::close, "qosweaver-trace-shutdown");
    }

    /**
     * Starts tracing this JVM.
     *
     * @throws IOException when the file cannot be written (the message names it)
     * @throws IllegalStateException when a trace of this JVM is already being written
     */
    public static Tracer start(TraceOptions o, Consumer<String> log) throws IOException {
        Tracer running = ACTIVE.get();
        if (running != null) {
            throw new IllegalStateException("a trace of this JVM is already being written to "
                    + running.options.out().toAbsolutePath());
        }
        Tracer t = new Tracer(o, log);
        if (!ACTIVE.compareAndSet(null, t)) {
            if (t.tracefs != null) {
                t.tracefs.stop();
            }
            t.timeline.writer().close();
            throw new IllegalStateException("a trace of this JVM is already being written");
        }
        if (t.tracefs != null && !t.tracefs.start()) {
            t.tracefs.stop();
            if (o.osSource() == TraceOptions.OsSource.TRACEFS) {
                t.close();
                Files.deleteIfExists(o.out());
                Files.deleteIfExists(StatsPage.besideTrace(o.out()));
                throw new IllegalStateException("traceOs=tracefs: tracefs cannot be used: " + t.tracefs.failure());
            }
            t.osSource = t.os != null ? "proc" : "none";
            log.accept("OS level: " + (t.os != null ? "/proc sampled at " + o.osHz() + " Hz" : "none")
                    + " (tracefs failed at start: " + t.tracefs.failure() + ")");
        }
        if (t.osThread != null && !"tracefs".equals(t.osSource)) {
            t.osThread.start();
        }
        if (t.jfr != null) {
            try {
                t.jfr.start();
            } catch (RuntimeException | LinkageError e) {
                log.accept("JFR did not start (" + e + "): the JVM and scheduler levels are empty");
            }
        }
        if (t.rings != null) {
            Set<Level> levels = o.levels();
            AppTrace.install(levels.contains(Level.APP) ? t.rings : null);
            ServerTrace.install(levels.contains(Level.SERVER) ? t.rings : null);
            UserTrace.install(levels.contains(Level.USER) ? t.rings : null);
        }
        t.main.start();
        Runtime.getRuntime().addShutdownHook(t.hook);
        log.accept("tracing " + o.levels() + " into " + o.out().toAbsolutePath() + t.osDescription(true)
                + (o.durationNanos() > 0 ? " for " + Duration.ofNanos(o.durationNanos()) : " until the JVM exits")
                + " (started in " + (System.nanoTime() - t.start) / 1_000_000 + " ms)");
        return t;
    }

    private void loop() {
        long nextCalibration = System.nanoTime() + 1_000_000_000L;
        long nextLoss = System.nanoTime();
        while (!stopping) {
            try {
                Thread.sleep(TICK_MILLIS); // a sleep, not a park: JFR's park events would record the tracer itself
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            try {
                drainRings(now - SERVER_HOLD_NANOS);
                if (now >= nextLoss) {
                    timeline.counter(now, lossTrack, lost());
                    nextLoss = now + 1_000_000_000L;
                }
                timeline.flush(now - LAG_NANOS);
            } catch (IOException e) {
                log.accept("writing the trace failed (" + e + "): tracing stops");
                new Thread(this::close, "qosweaver-trace-stop").start();
                return;
            }
            if (jfr != null && now >= nextCalibration) {
                jfr.calibrate(false);
                nextCalibration = now + 1_000_000_000L;
            }
            if (options.durationNanos() > 0 && now - start >= options.durationNanos()) {
                new Thread(this::close, "qosweaver-trace-stop").start();
                return;
            }
        }
    }

    private final EventRing.Sink sink = this::ringEvent;

    private void drainRings(long serverHorizon) {
        if (rings != null) {
            rings.drain(sink);
            if (server != null) {
                server.flush(serverHorizon);
            }
        }
    }

    /** Whether a tracer is running in this JVM with {@code level} on (the agent weaves the server and user levels only then). */
    public static boolean running(Level level) {
        Tracer t = ACTIVE.get();
        return t != null && !t.stopping && t.options.levels().contains(level);
    }

    private void ringEvent(EventRing r, long nanos, int kind, long number, Object a, Object b, Object c) {
        ringEvents++;
        int tid = r.tid();
        if (tid <= 0) {
            return;
        }
        if (timeline.threadName(tid) == null || ringEvents % 1024 == 0) {
            timeline.nameThread(tid, r.thread().getName());
        }
        if (kind >= ServerTrace.ACCEPT && kind <= ServerTrace.REQUEST_DONE) {
            if (server != null) {
                server.event(tid, nanos, kind, number);
            }
            return;
        }
        if (kind >= UserTrace.BEGIN && kind <= UserTrace.INSTANT) {
            long user = Timeline.levelTrack(tid, Level.USER);
            if (kind == UserTrace.BEGIN) {
                timeline.begin(nanos, user, (String) a, "user", null);
            } else if (kind == UserTrace.END) {
                timeline.end(nanos, user);
            } else {
                timeline.instant(nanos, user, (String) a, "user", null);
            }
            return;
        }
        long track = Timeline.levelTrack(tid, Level.APP);
        if (kind == AppTrace.REQUEST_BEGIN) {
            String cls = (String) a;
            timeline.begin(nanos, track, cls, "request", new Args().add("taskClass", cls).add("method", (String) b)
                    .add("path", (String) c));
        } else if (kind == AppTrace.REQUEST_END) {
            timeline.end(nanos, track);
        }
    }

    /**
     * Where the trace is written until it is complete: the file of the name asked for appears
     * only then (renamed), so that whoever waits for it ({@code qosweaver trace PID}) never reads
     * half a trace; a JVM killed while tracing leaves this one, readable up to its last packet.
     */
    public static java.nio.file.Path partial(java.nio.file.Path out) {
        return out.resolveSibling(out.getFileName() + ".part");
    }

    /**
     * Events lost so far: rings full, late in the merge, pending list full, size cap, the kernel's
     * scheduler events lost (tracefs' buffer overrun). Ends without
     * their begin are not counted: they are ends of what began before the trace did (or of a begin
     * already counted as late).
     */
    long lost() {
        return (rings != null ? rings.dropped() : 0) + timeline.late() + timeline.overflow()
                + timeline.writer().droppedPackets() + (tracefs != null ? tracefs.lost() : 0);
    }

    /** Stops every source, writes what is left and the statistics, closes the file. Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        stopping = true;
        long closeStarted = System.nanoTime();
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is exiting already
            }
        }
        AppTrace.install(null);
        ServerTrace.install(null);
        UserTrace.install(null);
        boolean fence = true;
        if (jfr != null) {
            // While the JVM exits, JFR's own shutdown hook may end the recording first (JDK 20+ do):
            // then no fence arrives, and waiting longer than a flush period gains nothing.
            fence = jfr.stop(Thread.currentThread() == hook ? 1_500 : 3_000);
        }
        if (tracefs != null) {
            tracefs.stop(); // never throws: the instance is removed, or the log says how to
        }
        if (os != null) {
            os.stop();
            try {
                osThread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            main.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long end = System.nanoTime();
        try {
            drainRings(Long.MAX_VALUE);
            timeline.counter(end, lossTrack, lost());
            timeline.flush(Long.MAX_VALUE);
            PerfettoWriter w = timeline.writer();
            Args stats = new Args()
                    .add("eventsWritten", timeline.written())
                    .add("lostRingFull", rings != null ? rings.dropped() : 0)
                    .add("lostLate", timeline.late())
                    .add("lostPendingFull", timeline.overflow())
                    .add("endsWithoutBegin", timeline.unmatchedEnds())
                    .add("lostSizeCap", w.droppedPackets())
                    .add("osSamples", os != null ? os.samples() : 0)
                    .add("osHz", options.osHz())
                    .add("osSource", osSource)
                    .add("jfrEvents", jfr != null ? jfr.events() : 0)
                    .add("jfrOverlapsTrimmed", jfr != null ? jfr.trimmedOverlaps() : 0)
                    .add("jfrOverlapsDropped", jfr != null ? jfr.droppedOverlaps() : 0)
                    .add("jfrDrained", fence ? 1 : 0);
            if (tracefs != null) {
                tracefs.statistics(stats);
            }
            if (server != null) {
                server.statistics(stats, end);
            }
            timeline.closingInstant(end, "trace statistics", stats);
            w.close();
            String page = "";
            if (this.stats != null) {
                // Written before the trace appears: whoever waits for the trace file finds the page too.
                java.nio.file.Path html = StatsPage.besideTrace(options.out());
                try {
                    this.stats.finish(end);
                    StatsPage.write(html, this.stats, timeline.threadNames(), processName, start, end, stats);
                    page = "; statistics view " + html.toAbsolutePath();
                } catch (IOException | RuntimeException e) {
                    page = "; the statistics view " + html.toAbsolutePath() + " failed: " + e;
                }
            }
            Files.move(partial(options.out()), options.out(), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            log.accept("trace written: " + options.out().toAbsolutePath() + " (" + Files.size(options.out()) + " bytes, "
                    + timeline.written() + " events, " + lost() + " lost; " + osDescription(false).substring(2)
                    + (tracefs != null ? ", " + tracefs.events() + " scheduler events, " + tracefs.lost() + " lost by the kernel"
                            + (tracefs.unread() > 0 ? " (" + tracefs.unread() + " of them never read: the reader was "
                                    + tracefs.maxLagMillis() + " ms behind at worst)" : "")
                            + (tracefs.pausedEvents() > 0 ? ", " + tracefs.pausedEvents() + " not applied (merge full)" : "") : "")
                    + "; stopping took " + (System.nanoTime() - closeStarted)
                    / 1_000_000 + " ms); open it in ui.perfetto.dev" + page);
        } catch (IOException e) {
            log.accept("closing the trace " + options.out().toAbsolutePath() + " failed: " + e);
        } finally {
            ACTIVE.compareAndSet(this, null);
            done.countDown();
        }
    }

    /** ", OS level from ...": which source the OS level's states come from (at start, with the tracefs instance). */
    private String osDescription(boolean atStart) {
        switch (osSource) {
            case "tracefs":
                return ", OS level from tracefs sched_switch/sched_wakeup" + (atStart ? " (" + tracefs.instance() + ")" : "");
            case "proc":
                return ", OS level from /proc sampled at " + options.osHz() + " Hz";
            default:
                return ", no OS level";
        }
    }

    /** Where the OS level's states come from: {@code tracefs}, {@code proc}, or {@code none}. */
    public String osSource() {
        return osSource;
    }

    /** Waits until the trace file is complete (its duration ran out, or it was closed); false on timeout. */
    public boolean awaitStop(long millis) throws InterruptedException {
        return done.await(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
    }
}
