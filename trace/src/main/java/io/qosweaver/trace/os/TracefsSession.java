package io.qosweaver.trace.os;

import io.qosweaver.platform.LinuxThreads;
import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.trace.proto.Args;
import io.qosweaver.trace.timeline.Level;
import io.qosweaver.trace.timeline.Timeline;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The OS level from the kernel's scheduler events: a tracefs instance of its own,
 * {@code instances/qosweaver-PID}, recording {@code sched_switch}, {@code sched_wakeup},
 * {@code sched_wakeup_new} and {@code sched_migrate_task} on the {@code mono} clock
 * (CLOCK_MONOTONIC, {@code System.nanoTime()}'s), read as text from its {@code trace_pipe} on a
 * daemon thread of its own and turned into state slices by {@link SchedStates}. Needs root (or a
 * writable tracefs) and tracefs mounted.
 *
 * <p><b>Which threads.</b> Two filters. The kernel's: the instance's {@code set_event_pid} holds the
 * process's thread ids (listed from {@code /proc/PID/task}) and its option {@code event-fork} adds
 * every task they create, so the kernel records only events that concern them (a switch whose
 * previous or next task is one of them, a wake-up of one of them): on a shared machine the other
 * processes' switches are never copied nor parsed. (The per-event {@code filter} file would need
 * an expression naming every tid, re-written as threads come and go, and cannot follow new ones.)
 * User space then keeps the side of each event that is a thread of the process: a tid is one when
 * {@code /proc/PID/task/TID} exists (checked once, the answer cached and the list refreshed every
 * second), which leaves out the other half of a switch and the child processes the fork option
 * also follows. The reading thread itself is left out ({@code set_event_notrace_pid}): each of its
 * reads would otherwise record its own switches, which it would read again.
 *
 * <p><b>Lifetime.</b> {@link #open} removes instances {@code qosweaver-N} whose process N is dead
 * (left by a JVM killed while tracing), creates this one with tracing off, and configures it; the
 * reading thread seeds every thread's state from {@code /proc/PID/task/TID/stat}, turns tracing on
 * and writes a clock probe into the instance's {@code trace_marker} (a {@code System.nanoTime()}
 * before and after it must bracket the kernel's timestamp of it). {@link #stop} writes a stop marker
 * (which also wakes the reader blocked on an empty pipe), waits for the reader to reach it, turns
 * tracing off and removes the instance; a shutdown hook of its own does the same if the JVM exits
 * first. A failure here never reaches the application: it ends this level and says why.
 */
public final class TracefsSession implements Runnable {
    /** The instances' name prefix; the traced process's pid follows. */
    public static final String PREFIX = "qosweaver-";
    static final int BUFFER_KB_PER_CPU = 4096;
    /** The events recorded; the last two are optional (older kernels may lack them). */
    private static final String[] EVENTS = {"sched/sched_switch", "sched/sched_wakeup", "sched/sched_wakeup_new",
        "sched/sched_migrate_task", "task/task_newtask"};
    private static final int REQUIRED_EVENTS = 3;
    private static final long CLONE_THREAD = 0x10000;
    private static final long REFRESH_NANOS = 1_000_000_000L;
    /**
     * A read that returned less than this found the pipe nearly drained and sleeps {@value #BATCH_MILLIS} ms
     * before the next, so that events come in batches, not a wake-up each; a fuller one reads on at once.
     * (The kernel returns at most one page-sized buffer of text a read, 8 KiB on this machine's kernel.)
     */
    private static final int SMALL_READ = 2 << 10;
    private static final long BATCH_MILLIS = 20;
    /**
     * The reader's nice value when it may be set (root): on a CPU-saturated process the reader is one
     * runnable thread among the application's many and falls seconds behind the kernel; -10 weighs it
     * about 9 times a default thread under CFS (it sleeps when the pipe is empty, so costs nothing idle).
     */
    static final int READER_NICE = Integer.getInteger("qosweaver.traceReaderNice", -10);
    /** How long the stop waits for the reader to drain the buffers while it still makes progress. */
    static final long DRAIN_MAX_MILLIS = Long.getLong("qosweaver.traceDrainMillis", 10_000);

    private final Timeline timeline;
    private final int pid;
    private final Path instance;
    private final Path tasks;
    private final Consumer<String> log;
    private final SchedEventParser parser = new SchedEventParser();
    private final SchedStates states;
    private final Set<Integer> tids = new HashSet<>();
    private final Set<Integer> foreign = new HashSet<>();
    private final Set<Integer> filtered = new HashSet<>();
    private final String stopMarker;
    private final String clockMarker;
    private final Thread reader;
    private final Thread hook;
    private final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);
    private volatile int readerTid = -1;
    private volatile boolean stopping;
    private volatile String failure;
    private volatile long events;
    private volatile long lost;
    /** Events still in the kernel's buffers when the stop gave up draining them: never read, counted as lost. */
    private volatile long unread;
    /** Set when the stop gave up waiting: the reader stops at its next line (the trace is being written). */
    private volatile boolean abandoned;
    /** The reader's nice value after trying to raise it (0: left as it was). */
    private volatile int readerNice;
    private volatile long unparsed;
    /** The newest event applied: the time the reader has reached (it may be behind the clock). */
    private long lastTs = Long.MIN_VALUE;
    /** How far behind the clock the newest event read was, at worst (after a read; includes the batching sleep's effect). */
    private volatile long maxLagNanos;
    private static final int MERGE_CHECK_EVERY = 1024;
    private int sinceMergeCheck;
    private boolean paused;
    private int pauses;
    private volatile long pausedEvents;
    /** Known threads not listed at the last refresh: ended at the next one if still not listed. */
    private final Set<Integer> missing = new HashSet<>();
    /** 1: the clock probe was bracketed by nanoTime; 0: it was not (clocks differ); -1: not seen. */
    private volatile int clockCheck = -1;
    private long clockBefore;
    private long clockAfter;
    private boolean stopped;

    private TracefsSession(Timeline timeline, int pid, Path instance, Consumer<String> log) {
        this.timeline = timeline;
        this.pid = pid;
        this.instance = instance;
        this.tasks = Path.of("/proc/" + pid + "/task");
        this.log = log;
        long nonce = System.nanoTime();
        this.stopMarker = "qosweaver-stop " + nonce;
        this.clockMarker = "qosweaver-clock " + nonce;
        this.states = new SchedStates(new TimelineSink(timeline), this::ours);
        this.reader = new Thread(this, "qosweaver-trace-os");
        reader.setDaemon(true);
        this.hook = new Thread(this::stop, "qosweaver-trace-tracefs-shutdown");
    }

    /** Where tracefs is mounted: the mount table's first tracefs, else the usual places; null when nowhere. */
    public static Path find() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
                String[] f = line.split(" ");
                if (f.length > 2 && f[2].equals("tracefs")) {
                    Path p = Path.of(f[1].replace("\\040", " "));
                    if (Files.isDirectory(p.resolve("instances"))) {
                        return p;
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // no mount table: try the usual places
        }
        for (String s : new String[] {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"}) {
            Path p = Path.of(s);
            try {
                if (Files.isDirectory(p.resolve("instances"))) {
                    return p;
                }
            } catch (SecurityException e) {
                // not readable
            }
        }
        return null;
    }

    /** The mount table's first tracefs mount point, whether or not this process may enter it; null when none. */
    private static Path mounted() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/mounts"))) {
                String[] f = line.split(" ");
                if (f.length > 2 && f[2].equals("tracefs")) {
                    return Path.of(f[1].replace("\\040", " "));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no mount table
        }
        return null;
    }

    /** Null when tracefs can be used here, else why not (one line). */
    public static String unavailable() {
        String os = System.getProperty("os.name", "");
        if (!os.toLowerCase(Locale.ROOT).contains("linux")) {
            return "tracefs is Linux's (this is " + os + ")";
        }
        Path root = find();
        int uid = effectiveUid();
        String who = uid == 0 ? "root" : "not root (uid " + uid + ")";
        if (root == null) {
            Path m = mounted();
            if (m != null) {
                return who + " and " + m + " cannot be entered (permission denied)";
            }
            return uid != 0 && Files.isDirectory(Path.of("/sys/kernel/debug")) && !Files.isReadable(Path.of("/sys/kernel/debug"))
                    ? "tracefs not found: " + who + " and /sys/kernel/debug is not readable"
                    : "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)";
        }
        String ns = pidNamespace();
        if (ns != null) {
            return ns;
        }
        Path instances = root.resolve("instances");
        if (!Files.isWritable(instances)) {
            return who + " and " + instances + " is not writable (permission denied)";
        }
        for (int i = 0; i < REQUIRED_EVENTS; i++) {
            if (!Files.isDirectory(root.resolve("events/" + EVENTS[i]))) {
                return "this kernel's tracefs has no " + EVENTS[i] + " event";
            }
        }
        try {
            if (!Files.readString(root.resolve("trace_clock")).contains("mono")) {
                return "this kernel's tracefs has no mono trace clock";
            }
        } catch (IOException e) {
            return "cannot read " + root.resolve("trace_clock") + " (" + e.getMessage() + ")";
        }
        return null;
    }

    /**
     * Null when this process sees the kernel's pids, else why not: in a pid namespace of its own (a
     * container) its thread ids are not the ones the kernel's events carry.
     */
    private static String pidNamespace() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("NSpid:") && line.substring(6).strip().split("\\s+").length > 1) {
                    return "this process is in a pid namespace of its own (a container): its thread ids are not the "
                            + "kernel's (" + line.substring(6).strip() + ")";
                }
            }
        } catch (IOException | RuntimeException e) {
            // no status: assume the kernel's pids
        }
        return null;
    }

    private static int effectiveUid() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return Integer.parseInt(line.substring(4).strip().split("\\s+")[1]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // unknown
        }
        return -1;
    }

    /**
     * Creates and configures the instance for process {@code pid} (tracing still off) after removing
     * stale ones; {@link #start} starts recording.
     *
     * @throws IOException naming the file that could not be written and why
     */
    public static TracefsSession open(Timeline timeline, int pid, Consumer<String> log) throws IOException {
        String why = unavailable();
        if (why != null) {
            throw new IOException(why);
        }
        Path root = find();
        Path instances = root.resolve("instances");
        removeStale(instances, log);
        Path instance = instances.resolve(PREFIX + pid);
        if (Files.isDirectory(instance)) { // left by an earlier trace of this very process
            remove(instance);
        }
        try {
            Files.createDirectory(instance);
        } catch (IOException e) {
            throw new IOException("cannot create the tracefs instance " + instance + " (" + e + ")", e);
        }
        TracefsSession s = new TracefsSession(timeline, pid, instance, log);
        try {
            s.configure();
        } catch (IOException | RuntimeException e) {
            s.removeInstance();
            throw e;
        }
        return s;
    }

    /** Removes every {@code qosweaver-N} instance whose process N no longer runs. */
    static void removeStale(Path instances, Consumer<String> log) {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(instances, PREFIX + "*")) {
            for (Path p : ds) {
                String n = p.getFileName().toString().substring(PREFIX.length());
                try {
                    long other = Long.parseLong(n);
                    if (!Files.exists(Path.of("/proc/" + other))) {
                        remove(p);
                        log.accept("removed the stale tracefs instance " + p + " (process " + other + " is gone)");
                    }
                } catch (NumberFormatException e) {
                    // not one of ours
                } catch (IOException e) {
                    log.accept("could not remove the stale tracefs instance " + p + ": " + e.getMessage());
                }
            }
        } catch (IOException | RuntimeException e) {
            // nothing listed: nothing removed
        }
    }

    private static void remove(Path instance) throws IOException {
        try {
            write(instance.resolve("tracing_on"), "0");
        } catch (IOException e) {
            // removing is what matters
        }
        try {
            Files.delete(instance); // rmdir: tracefs removes the instance's files with it
        } catch (NoSuchFileException e) {
            // gone already
        }
    }

    private void configure() throws IOException {
        write(instance.resolve("tracing_on"), "0");
        write(instance.resolve("trace_clock"), "mono");
        write(instance.resolve("buffer_size_kb"), Integer.toString(BUFFER_KB_PER_CPU));
        write(instance.resolve("options/event-fork"), "1");
        Path tgid = instance.resolve("options/record-tgid");
        if (Files.exists(tgid)) {
            write(tgid, "0");
        }
        List<Integer> now = listTids();
        if (now.isEmpty()) {
            throw new IOException("process " + pid + " has no threads in " + tasks);
        }
        filter(now, true);
        for (int i = 0; i < EVENTS.length; i++) {
            Path enable = instance.resolve("events/" + EVENTS[i] + "/enable");
            if (Files.exists(enable)) {
                write(enable, "1");
            } else if (i < REQUIRED_EVENTS) {
                throw new IOException("no event " + EVENTS[i] + " in " + instance);
            }
        }
    }

    /** Adds tids to the kernel's pid filter ({@code truncate}: replaces it). */
    private void filter(List<Integer> add, boolean truncate) throws IOException {
        StringBuilder b = new StringBuilder();
        for (Integer t : add) {
            if (filtered.add(t)) {
                b.append(t).append(' ');
            }
        }
        if (b.length() == 0) {
            return;
        }
        Path f = instance.resolve("set_event_pid");
        // without O_TRUNC the kernel adds the written pids to the list
        if (truncate) {
            write(f, b.toString().strip());
        } else {
            try {
                Files.writeString(f, b.toString().strip(), StandardOpenOption.WRITE);
            } catch (IOException e) {
                throw new IOException("cannot write " + f + " (" + e + ")", e);
            }
        }
    }

    private static void write(Path f, String value) throws IOException {
        try {
            Files.writeString(f, value, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new IOException("cannot write " + value + " into " + f + " (" + e + ")", e);
        }
    }

    private List<Integer> listTids() {
        List<Integer> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
            for (Path p : ds) {
                try {
                    out.add(Integer.parseInt(p.getFileName().toString()));
                } catch (NumberFormatException e) {
                    // not a thread
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone: nothing listed
        }
        return out;
    }

    /**
     * Starts recording on the reading thread; waits (2 s at most) until tracing is on.
     *
     * @return false when the reader failed at once ({@link #failure} says why): nothing is recorded
     */
    public boolean start() {
        reader.start();
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException e) {
            // the JVM is exiting already
        }
        try {
            started.await(2, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return failure == null;
    }

    /** Whether {@code tid} is a thread of the traced process (not the reader): cached, refreshed every second. */
    private boolean ours(int tid) {
        if (tid <= 0 || tid == readerTid) {
            return false;
        }
        Integer t = tid;
        if (tids.contains(t)) {
            return true;
        }
        if (foreign.contains(t)) {
            return false;
        }
        if (Files.exists(tasks.resolve(Integer.toString(tid)))) {
            tids.add(t);
            return true;
        }
        foreign.add(t);
        return false;
    }

    @Override
    public void run() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpuTime = mx.isCurrentThreadCpuTimeSupported();
        long cpuTrack = timeline.processChild("tracer OS reader CPU", 1);
        try (InputStream in = new FileInputStream(instance.resolve("trace_pipe").toFile())) {
            readerTid = LinuxThreads.currentTid();
            if (readerTid > 0) {
                try {
                    write(instance.resolve("set_event_notrace_pid"), Integer.toString(readerTid));
                } catch (IOException e) {
                    // older kernels: its events are read and ignored (ours() leaves it out)
                }
            }
            raisePriority();
            write(instance.resolve("tracing_on"), "1");
            seed(); // after tracing is on: the events read next are all newer than this (see SchedStates)
            clockBefore = System.nanoTime();
            Files.writeString(instance.resolve("trace_marker"), clockMarker, StandardOpenOption.WRITE);
            clockAfter = System.nanoTime();
            started.countDown();
            loop(in, mx, cpuTime, cpuTrack);
        } catch (IOException | RuntimeException e) {
            if (!stopping) {
                failure = e.toString();
                log.accept("the OS level's tracefs reader failed (" + e + "): the OS level ends here");
            }
        } finally {
            states.closeAll(System.nanoTime());
            started.countDown();
        }
    }

    /** Best effort (needs root and the agent's native priorities): the reader's share of a saturated CPU. */
    private void raisePriority() {
        if (readerTid <= 0 || READER_NICE >= 0) {
            return;
        }
        try {
            NativeThreads nt = NativeThreads.get();
            if (nt.available()) {
                nt.setNice(readerTid, READER_NICE);
                readerNice = READER_NICE;
            }
        } catch (NativePriorityException | RuntimeException | LinkageError e) {
            // not root, or no natives: the reader competes at the default weight (its lag says so)
        }
    }

    private void seed() {
        ProcReader r = new ProcReader();
        List<Integer> now = listTids();
        for (Integer tid : now) {
            if (tid == readerTid) {
                continue;
            }
            tids.add(tid);
            ProcReader.Files f = null;
            try {
                f = new ProcReader.Files(tasks + "/" + tid);
                if (r.read(f, -1, 0) == ProcReader.READ) {
                    timeline.nameThreadIfUnnamed(tid, comm(tid));
                    states.seed(System.nanoTime(), tid, r.state, r.processor);
                }
            } catch (IOException e) {
                // ended meanwhile
            } finally {
                if (f != null) {
                    f.close();
                }
            }
        }
    }

    private String comm(int tid) {
        try {
            return Files.readString(tasks.resolve(tid + "/comm"), StandardCharsets.UTF_8).strip();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private void loop(InputStream in, ThreadMXBean mx, boolean cpuTime, long cpuTrack) throws IOException {
        byte[] buf = new byte[256 << 10];
        int carry = 0;
        long nextRefresh = System.nanoTime() + REFRESH_NANOS;
        while (true) {
            int n = in.read(buf, carry, buf.length - carry);
            if (n <= 0) {
                return; // the instance went away
            }
            int end = carry + n;
            int lineStart = 0;
            for (int i = carry; i < end; i++) {
                if (buf[i] == '\n') {
                    if (line(new String(buf, lineStart, i - lineStart, StandardCharsets.UTF_8))) {
                        return;
                    }
                    lineStart = i + 1;
                }
            }
            carry = end - lineStart;
            if (carry == buf.length) { // one line longer than the buffer: not ours
                carry = 0;
                unparsed++;
            } else if (carry > 0) {
                System.arraycopy(buf, lineStart, buf, 0, carry);
            }
            long now = System.nanoTime();
            if (lastTs != Long.MIN_VALUE && now - lastTs > maxLagNanos) {
                maxLagNanos = now - lastTs;
            }
            if (now >= nextRefresh) {
                refresh(now);
                if (cpuTime) {
                    timeline.counter(now, cpuTrack, mx.getCurrentThreadCpuTime());
                }
                nextRefresh = now + REFRESH_NANOS;
            }
            if (n < SMALL_READ && !stopping) {
                try {
                    Thread.sleep(BATCH_MILLIS); // a sleep, not a park: JFR's park events would record the tracer itself
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** A session on {@code instance} that is not created nor configured: {@link #line} is fed by a test. */
    static TracefsSession forTest(Timeline timeline, int pid, Path instance, Consumer<String> log) {
        return new TracefsSession(timeline, pid, instance, log);
    }

    /** The text of the stop marker, for tests. */
    String stopMarker() {
        return stopMarker;
    }

    /** The state of thread {@code tid} now (null: none), for tests. */
    String state(int tid) {
        return states.state(tid);
    }

    /** One line of the pipe; true at the stop marker. */
    boolean line(String line) {
        if (abandoned) {
            return true; // past the stop's cut-off: the rest is counted from the buffers as unread
        }
        switch (parser.parse(line)) {
            case SchedEventParser.LOST:
                lost += parser.lost > 0 ? parser.lost : 1; // "[LOST EVENTS]": at least one, how many unknown
                return false;
            case SchedEventParser.MARKER:
                if (parser.text.equals(stopMarker)) {
                    return true;
                }
                if (parser.text.equals(clockMarker)) {
                    long us = parser.ts / 1000;
                    clockCheck = clockBefore / 1000 <= us && us <= clockAfter / 1000 ? 1 : 0;
                    if (clockCheck == 0) {
                        log.accept("tracefs' mono clock disagrees with System.nanoTime(): the marker at " + parser.ts
                                + " ns was written between " + clockBefore + " and " + clockAfter + " ns");
                    }
                }
                return false;
            case SchedEventParser.UNKNOWN:
                unparsed++;
                return false;
            case SchedEventParser.NEW_TASK:
                // a thread created by one of ours is ours, known at once (not when the reader, behind, finds
                // it in /proc: a short-lived thread may be gone by then)
                if ((parser.cloneFlags & CLONE_THREAD) != 0 && ours(parser.currentPid)) {
                    foreign.remove(parser.pid);
                    tids.add(parser.pid);
                }
                return false;
            default:
                if (++sinceMergeCheck >= MERGE_CHECK_EVERY) {
                    sinceMergeCheck = 0;
                    checkMerge();
                }
                if (paused) {
                    pausedEvents++;
                } else {
                    events++;
                    states.apply(parser);
                }
                if (parser.kind == SchedEventParser.SWITCH && (parser.prevState == 'X' || parser.prevState == 'Z')) {
                    tids.remove(parser.pid); // its last switch: a later thread may reuse the tid
                }
                lastTs = parser.ts;
                return false;
        }
    }

    /**
     * Pauses the OS level while the merge is three quarters full (a process switching faster than the
     * trace can be merged): every open slice ends where the reader is, and events are only counted
     * ({@code osPausedEvents}) until the merge is down to a quarter; then every thread is seeded again
     * from {@code /proc} and events apply again. The level has a gap instead of slices broken at random
     * by the merge's own drops, and the other levels keep their room.
     */
    private void checkMerge() {
        int pending = timeline.pending();
        int max = timeline.maxPending();
        if (!paused && pending > max / 4 * 3) {
            paused = true;
            pauses++;
            states.closeAll(lastTs == Long.MIN_VALUE ? System.nanoTime() : lastTs);
            if (pauses == 1) {
                log.accept("the trace's merge is nearly full (" + pending + " events pending): the OS level pauses"
                        + " until it drains (events counted as osPausedEvents; this process switches faster than"
                        + " the trace can merge)");
            }
        } else if (paused && pending < max / 4) {
            paused = false;
            seed();
        }
    }

    /**
     * Lists the threads again: new ones join the kernel's filter; a known thread missing from two
     * listings in a row (it ended without its last switch being read, e.g. lost) ends at the time
     * the reader has reached. Threads normally leave at their last switch ({@code X}/{@code Z}); the
     * listing is never trusted for a thread the reader has not caught up with.
     */
    private void refresh(long now) {
        List<Integer> listed = listTids();
        if (listed.isEmpty()) {
            return;
        }
        Set<Integer> set = new HashSet<>(listed);
        set.remove(readerTid);
        tids.addAll(set);
        foreign.clear();
        filtered.retainAll(set);
        try {
            filter(listed, false);
        } catch (IOException e) {
            // the fork option follows new threads anyway
        }
        List<Integer> ended = new ArrayList<>();
        for (Iterator<Integer> it = states.tids(); it.hasNext(); ) {
            Integer t = it.next();
            if (set.contains(t)) {
                missing.remove(t);
            } else if (!missing.add(t)) {
                ended.add(t);
            }
        }
        for (Integer t : ended) {
            missing.remove(t);
            tids.remove(t);
            states.gone(lastTs == Long.MIN_VALUE ? now : lastTs, t);
        }
    }

    /**
     * Stops recording: the reader reads up to the stop marker, every slice ends, tracing goes off and
     * the instance is removed. Idempotent (a second call waits for the first to finish); never throws.
     */
    public synchronized void stop() { // whole: a second caller (the other shutdown hook) returns only when it is done
        if (stopped) {
            return;
        }
        stopped = true;
        stopping = true;
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // exiting
            }
        }
        try {
            Files.writeString(instance.resolve("trace_marker"), stopMarker, StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            reader.interrupt();
        }
        drain();
        long overrun = overrun();
        if (overrun > lost) { // the same losses as the pipe's markers, counted by the buffers themselves
            lost = overrun;
        }
        removeInstance();
    }

    /**
     * Waits for the reader to reach the stop marker: it may be seconds behind (a saturated process), so
     * the wait goes on while it makes progress, up to {@link #DRAIN_MAX_MILLIS}; then what the kernel still
     * holds is counted as {@link #unread} (lost: the trace does not have it) and the reader stops.
     */
    private void drain() {
        long deadline = System.nanoTime() + DRAIN_MAX_MILLIS * 1_000_000;
        long seen = -1;
        try {
            while (reader.isAlive()) {
                reader.join(2_000);
                long now = events + pausedEvents + unparsed;
                if (!reader.isAlive() || now == seen || System.nanoTime() > deadline) {
                    break; // done, stuck, or out of time
                }
                seen = now;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (reader.isAlive()) {
            abandoned = true;
            unread = entries(instance);
            if (unread > 0) {
                log.accept("the OS level's reader was still " + (maxLagNanos / 1_000_000) + " ms behind at the stop: "
                        + unread + " scheduler events left unread are counted as lost");
            }
        }
    }

    /** Events still held in the per-CPU buffers ({@code per_cpu/cpuN/stats}' {@code entries}), 0 when unreadable. */
    static long entries(Path instance) {
        return sumStats(instance, "entries:");
    }

    /** The per-CPU buffers' own count of events overwritten or dropped ({@code per_cpu/cpuN/stats}), 0 when unreadable. */
    private long overrun() {
        return sumStats(instance, "overrun:", "dropped events:");
    }

    private static long sumStats(Path instance, String... keys) {
        long sum = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(instance.resolve("per_cpu"), "cpu*")) {
            for (Path cpu : ds) {
                for (String line : Files.readAllLines(cpu.resolve("stats"))) {
                    for (String k : keys) {
                        if (line.startsWith(k)) {
                            sum += Long.parseLong(line.substring(k.length()).strip());
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            // the markers' count stands
        }
        return sum;
    }

    private void removeInstance() {
        try {
            remove(instance);
        } catch (IOException | RuntimeException e) {
            log.accept("could not remove the tracefs instance " + instance + " (" + e.getMessage()
                    + "): remove it with rmdir (the next trace removes it when this process is gone)");
        }
    }

    public Path instance() {
        return instance;
    }

    /** Scheduler events applied. */
    public long events() {
        return events;
    }

    /**
     * Events the kernel lost: the reader fell behind and a full buffer overwrote them (the pipe's
     * {@code [LOST N EVENTS]} lines, or, after {@link #stop}, the buffers' own overrun count when larger).
     */
    public long lost() {
        return lost + unread;
    }

    /** Events the stop found still in the kernel's buffers, never read (included in {@link #lost}). */
    public long unread() {
        return unread;
    }

    /** The reader's worst lag behind the clock, in ms. */
    public long maxLagMillis() {
        return maxLagNanos / 1_000_000;
    }

    /** Events read while the OS level was paused for a merge nearly full (not applied). */
    public long pausedEvents() {
        return pausedEvents;
    }

    /** Lines that were none of the events asked for. */
    public long unparsed() {
        return unparsed;
    }

    /** 1 when the clock probe was bracketed by {@code System.nanoTime()}, 0 when not, -1 when not seen. */
    public int clockCheck() {
        return clockCheck;
    }

    /** Why the reader stopped early, or null. */
    public String failure() {
        return failure;
    }

    /** The statistics this source adds to the trace's closing instant. */
    public void statistics(Args a) {
        a.add("osEvents", events).add("osLostEvents", lost + unread).add("osUnreadEvents", unread).add("osUnparsedLines", unparsed).add("osClockCheck", clockCheck)
                .add("osReaderMaxLagMs", maxLagNanos / 1_000_000)
                .add("osPausedEvents", pausedEvents).add("osStaleSwitches", states.stale()).add("osInferredSwitches", states.inferred())
                .add("osInferredGapMs", states.inferredGapNanos() / 1_000_000).add("osReaderNice", readerNice);
    }

    /** The timeline's OS level as {@link SchedStates}' sink. */
    private static final class TimelineSink implements SchedStates.Sink {
        private final Timeline timeline;

        TimelineSink(Timeline timeline) {
            this.timeline = timeline;
        }

        @Override
        public void begin(long ts, int tid, String state, int cpu, char letter) {
            timeline.begin(ts, Timeline.levelTrack(tid, Level.OS), state, "os",
                    new Args().add("cpu", cpu).add("state", String.valueOf(letter)));
        }

        @Override
        public void end(long ts, int tid) {
            timeline.end(ts, Timeline.levelTrack(tid, Level.OS));
        }

        @Override
        public void name(int tid, String comm) {
            timeline.nameThreadIfUnnamed(tid, comm);
        }
    }
}
