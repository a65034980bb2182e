package io.qosweaver.agent.profiling;

import io.qosweaver.agent.bootstrap.CallProbe;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.unit.callprobe.SignatureTable;
import io.qosweaver.pointcuts.BinaryProfileFormat;
import io.qosweaver.pointcuts.BinaryProfileWriter;
import io.qosweaver.pointcuts.ProfileWriter;
import io.qosweaver.pointcuts.SlotProfileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One profile file, from start to stop: a {@link CallProbe.Session} the probes fill and the one
 * writer thread that drains its chunks into a {@link BinaryProfileWriter} (which is not
 * thread-safe, and is touched by no other thread until that thread has ended).
 *
 * <p>A limit (the file's {@code maxBytes}, {@code maxSignatures}, {@code maxThreads}) stops the
 * recording: the probes are switched off, a {@code [qosweaver]} warning names the limit and the
 * agent argument that raises it, the file keeps what came before and records the limit (the
 * generator then warns that the profile is partial).
 */
final class ProfileRecording {
    /** The writer wakes at least this often to write what the probes handed off. */
    private static final long DRAIN_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    /** Probes per timed run of the cost measurement: about 10 ms each on a current machine. */
    private static final int CALIBRATION_CALLS = 200_000;

    final Path file;
    private final ProfilingArgs args;
    private final SignatureTable table;
    private final AgentLog log;
    private final CallProbe.Session session;
    private final ProfileWriter writer;
    /** Null unless the profile's time base is the threads' own work: probe cost and time off the CPU out. */
    private final ThreadTime threadTime;
    private final long[] corrected = new long[CallProbe.CHUNK];
    private final Thread thread;
    private int[] fileIds = new int[0];
    private volatile boolean stopRequested;
    private volatile boolean finished;
    private volatile String limitMessage;
    private volatile String summary;
    private volatile long joinPoints;
    private volatile long bytes;
    private volatile int signatures;
    private final Set<Long> threads = new HashSet<>();
    /**
     * Per thread: its depth of request entries, the outermost one's time, its last span's end, and
     * its last recorded time while in a request.
     */
    private final Map<Long, long[]> openSpans = new HashMap<>();
    private long spans;
    private volatile int threadCount;
    private volatile IOException failure;

    private ProfileRecording(Path file, ProfilingArgs args, double workShare, SignatureTable table, AgentLog log)
            throws IOException {
        this.file = file;
        this.args = args;
        this.table = table;
        this.log = log;
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        ProfileWriter.Limits limits = new ProfileWriter.Limits(args.maxSignatures(), args.maxThreads(), args.maxBytes());
        if (args.joinPoints()) {
            this.writer = BinaryProfileWriter.open(file, limits);
            this.threadTime = null;
        } else {
            long cost = args.probeCostNanos();
            if (cost == ProfilingArgs.MEASURE) {
                // each chunk's own gaps say what a probe costs where it runs; the calibration loop,
                // which sees the probe alone, is used where a chunk does not tell
                long calibrated = Math.round(CallProbe.measureCost(CALIBRATION_CALLS));
                this.threadTime = new ThreadTime(calibrated, true, workShare);
                log.info("profile " + file + ": slot summaries of " + args.slotNanos() + " ns; the probe's cost is"
                        + " estimated from the recording (a calibration loop measured " + calibrated + " ns)");
            } else {
                this.threadTime = cost == 0 ? null : new ThreadTime(cost, false, workShare);
                log.info("profile " + file + ": slot summaries of " + args.slotNanos() + " ns; " + cost
                        + " ns of probe taken out per join point (probeCost=)" + (workShare < 1 ? ", then a work share of "
                        + workShare + " kept (workShare=)" : ""));
            }
            // the writer gets times already corrected here
            this.writer = SlotProfileWriter.open(file, limits, args.slotNanos(), 0);
        }
        writer.meta("include", String.join("+", args.include()));
        writer.meta("started", Instant.now().toString());
        this.session = new CallProbe.Session(args.bufferBytes(), args.maxThreads());
        this.thread = new Thread(this::run, "qosweaver-profile-writer");
        thread.setDaemon(true);
        session.writer(thread);
    }

    /** @param workShare the share of the time left once the probe's estimated cost is out that is kept, (0, 1] */
    static ProfileRecording start(Path file, ProfilingArgs args, double workShare, SignatureTable table, AgentLog log)
            throws IOException {
        ProfileRecording r = new ProfileRecording(file, args, workShare, table, log);
        r.thread.start();
        CallProbe.activate(r.session);
        return r;
    }

    boolean recording() {
        return !finished && CallProbe.active() == session;
    }

    boolean finished() {
        return finished;
    }

    String limitMessage() {
        return limitMessage;
    }

    long joinPoints() {
        return joinPoints;
    }

    /** Probes skipped by the recursion guard in this recording. */
    long reentered() {
        return session.reentered();
    }

    long probeErrors() {
        return session.errors();
    }

    /**
     * Switches the probes off, writes everything buffered, closes the file and returns the summary
     * line. Safe from any thread but the writer, and more than once.
     */
    String stop() {
        CallProbe.deactivate(session);
        if (!finished) {
            // a probe that read the session just before it was switched off is a few nanoseconds
            // from publishing its join point; give it that time before the last drain
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
            stopRequested = true;
            LockSupport.unpark(thread);
            try {
                thread.join(TimeUnit.SECONDS.toMillis(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return summary();
    }

    String summary() {
        String s = summary;
        if (s != null) {
            return s;
        }
        return (recording() ? "recording " : "paused ") + file + ": " + joinPoints + " join points, " + threadCount
                + " threads, " + signatures + " signatures, " + bytes + " bytes"
                + (limitMessage != null ? "; stopped by a limit: " + limitMessage : "");
    }

    private void run() {
        try {
            while (!stopRequested && limitMessage == null) {
                if (!drainOnce()) {
                    break;
                }
                if (session.threadLimitReached() && limitMessage == null) {
                    limit("the profile reached " + args.maxThreads() + " threads (maxThreads); profile fewer threads"
                            + " or raise the limit");
                    break;
                }
                if (session.noneFull()) {
                    LockSupport.parkNanos(DRAIN_NANOS);
                }
            }
            CallProbe.deactivate(session);
            session.close();
            if (limitMessage == null) {
                drainOnce();
                for (CallProbe.Chunk c : session.partialChunks()) {
                    if (!write(c)) {
                        break;
                    }
                }
            }
        } catch (IOException e) {
            failure = e;
            CallProbe.deactivate(session);
            session.close();
        } catch (RuntimeException | Error e) {
            failure = new IOException(e);
            CallProbe.deactivate(session);
            session.close();
        } finally {
            finish();
        }
    }

    /** Writes the queued full chunks, then the partial chunks of threads that have ended. */
    private boolean drainOnce() throws IOException {
        Set<Thread> dead = session.deadThreads();
        for (CallProbe.Chunk c; (c = session.pollFull()) != null; ) {
            boolean ok = write(c);
            session.recycle(c);
            if (!ok) {
                return false;
            }
        }
        if (!dead.isEmpty()) {
            for (CallProbe.Chunk c : session.takeDeadPartials(dead::contains)) {
                boolean ok = write(c);
                session.recycle(c);
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }

    private boolean write(CallProbe.Chunk c) throws IOException {
        long tid = c.threadId();
        int end = c.published();
        long[] times = c.times;
        if (threadTime != null) {
            threadTime.correct(tid, c.times, c.read, end, c.cpuStart, c.cpuEnd, c.wallEnd, corrected);
            times = corrected;
        }
        for (int i = c.read; i < end; i++) {
            if (c.callers[i] < 0) {
                span(tid, c.callers[i], times[i]);
                continue;
            }
            int caller = fileId(c.callers[i]);
            int callee = fileId(c.callees[i]);
            if (caller < 0 || callee < 0 || !writer.joinPoint(times[i], tid, caller, callee)) {
                c.read = i;
                limit(writer.limitMessage());
                return false;
            }
        }
        long[] open = openSpans.get(tid);
        if (open != null && open[0] > 0 && end > c.read) {
            open[3] = times[end - 1];
        }
        c.read = end;
        if (threads.add(tid)) {
            threadCount = threads.size();
        }
        joinPoints = writer.joinPointCount();
        bytes = writer.bytesWritten();
        return true;
    }

    /**
     * A request mark of a thread: its outermost begin and end become a span of the slot profile
     * (a servlet inside Jetty marks twice; an end whose begin came before the recording is dropped).
     */
    private void span(long tid, int mark, long time) throws IOException {
        if (!(writer instanceof SlotProfileWriter slots)) {
            return; // version 1 has no spans
        }
        long[] open = openSpans.computeIfAbsent(tid, k -> new long[] {0, 0, Long.MIN_VALUE, 0});
        if (mark == CallProbe.REQUEST_BEGIN) {
            if (open[0]++ == 0) {
                // a thread's corrected times never go back, so this only guards the writer's order check
                open[1] = Math.max(time, open[2]);
            }
        } else if (open[0] > 0 && --open[0] == 0) {
            open[2] = Math.max(time, open[1]);
            if (slots.span(tid, open[1], open[2])) {
                spans++;
            }
        }
    }

    /**
     * Requests still open when the recording stopped end at their thread's last recorded time: a
     * server returns from its entry just after the client has the response, and a recording stopped
     * then would otherwise lose the last request.
     */
    private void closeOpenSpans() throws IOException {
        if (!(writer instanceof SlotProfileWriter slots)) {
            return;
        }
        for (Map.Entry<Long, long[]> e : openSpans.entrySet()) {
            long[] open = e.getValue();
            if (open[0] > 0 && slots.span(e.getKey(), open[1], Math.max(open[1], open[3]))) {
                spans++;
            }
        }
    }

    private int fileId(int weaveId) throws IOException {
        if (weaveId >= fileIds.length) {
            int n = fileIds.length;
            fileIds = Arrays.copyOf(fileIds, Math.max(weaveId + 1, n * 2 + 64));
            Arrays.fill(fileIds, n, fileIds.length, -1);
        }
        int id = fileIds[weaveId];
        if (id < 0) {
            id = writer.signatureId(table.name(weaveId));
            if (id >= 0) {
                fileIds[weaveId] = id;
                signatures++;
            }
        }
        return id;
    }

    private void limit(String message) {
        CallProbe.deactivate(session);
        limitMessage = message == null ? "a limit was reached" : message;
        log.loud("profile limit reached, recording STOPPED: " + limitMessage + ". " + howToRaise(limitMessage) + " "
                + file + " keeps the " + writer.joinPointCount() + " join points recorded before the limit.");
    }

    private String howToRaise(String message) {
        if (message.contains("(maxBytes)")) {
            return "Raise it with the agent argument maxBytes=" + ProfilingArgs.formatSize(args.maxBytes() * 2)
                    + " (now " + ProfilingArgs.formatSize(args.maxBytes()) + "), or profile a shorter run.";
        }
        if (message.contains("(maxSignatures)")) {
            return "Raise it with the agent argument maxSignatures=" + (2L * args.maxSignatures()) + " (now "
                    + args.maxSignatures() + "), or include fewer packages.";
        }
        if (message.contains("(maxThreads)")) {
            return "Raise it with the agent argument maxThreads=" + (2L * args.maxThreads()) + " (now "
                    + args.maxThreads() + "), or profile with fewer threads (the paper profiled one client).";
        }
        return "See the agent arguments maxBytes, maxSignatures and maxThreads.";
    }

    private void finish() {
        try {
            if (limitMessage != null && !writer.limitReached()) {
                writer.meta("limit", limitMessage); // the probe's thread limit: the writer did not see it
            }
            if (session.stalls() > 0) {
                writer.meta("stalls", session.stalls() + " waits for the writer, " + session.stallNanos()
                        + " ns in total");
            }
            if (session.reentered() > 0) {
                writer.meta("reentered", session.reentered() + " profiled calls made from inside the probe were not"
                        + " recorded (the recursion guard)");
            }
            if (session.dropped() > 0 || session.errors() > 0) {
                writer.meta("dropped", session.dropped() + " join points dropped, " + session.errors() + " probe errors");
            }
            if (threadTime != null) {
                writer.meta(BinaryProfileFormat.PROBE_COST_NANOS, Long.toString(threadTime.meanCost()));
                writer.meta(BinaryProfileFormat.TIME_BASE, "real: " + threadTime.describe());
                writer.meta("offCpuRemovedNanos", Long.toString(threadTime.offCpuRemoved()));
                writer.meta(BinaryProfileFormat.PROBE_REMOVED_NANOS, Long.toString(threadTime.probeRemoved()));
                writer.meta(BinaryProfileFormat.WORK_SHARE, Double.toString(threadTime.workShare()));
                writer.meta(BinaryProfileFormat.WORK_SHARE_REMOVED_NANOS, Long.toString(threadTime.shareRemoved()));
                writer.meta("clampedJoinPoints", Long.toString(threadTime.clamped()));
                if (threadTime.clamped() > SlotProfileWriter.CLAMPED_WARNING * threadTime.joinPoints()) {
                    writer.meta("clamped", SlotProfileWriter.clampedMessage(threadTime.clamped()));
                }
            } else if (writer instanceof SlotProfileWriter) {
                writer.meta(BinaryProfileFormat.TIME_BASE, "profile: the time stamps as recorded (probeCost=none)");
            }
            closeOpenSpans();
            if (spans > 0) {
                writer.meta(BinaryProfileFormat.REQUEST_SPANS, spans + " requests, from the server's request entry"
                        + " (servlet, Jetty, Tomcat or Undertow) to its return, outermost per thread");
            } else if (writer instanceof SlotProfileWriter) {
                log.info("profile " + file + ": no request span (no servlet, Jetty, Tomcat or Undertow request entry ran"
                        + " while recording): generation counts every thread's whole time");
            }
            // which calls ran with a monitor held, from the woven classes' files: the generator
            // excludes them without being given the application's class path
            writer.meta(BinaryProfileFormat.MONITORS_RECORDED, "found when the probe was woven");
            List<String> inMonitor = table.callsInMonitor();
            for (int i = 0; i < inMonitor.size(); i++) {
                writer.meta(BinaryProfileFormat.IN_MONITOR_PREFIX + i, inMonitor.get(i));
            }
            joinPoints = writer.joinPointCount();
            writer.close();
            bytes = Files.size(file);
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
        finished = true;
        String s = "profile " + file + ": " + joinPoints + " join points, " + threadCount + " threads, " + signatures
                + " signatures, " + bytes + " bytes"
                + (threadTime != null ? "; time base: " + threadTime.describe() : "")
                + (limitMessage != null ? "; PARTIAL, stopped by a limit: " + limitMessage : "")
                + (session.dropped() > 0 ? "; " + session.dropped() + " join points DROPPED (the writer fell behind)" : "");
        if (failure != null) {
            s += "; FAILED: " + failure;
            log.loud("could not write the profile " + file + ": " + failure);
        }
        summary = s;
        log.info(s);
    }
}
