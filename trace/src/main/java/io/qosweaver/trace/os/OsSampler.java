package io.qosweaver.trace.os;

import io.qosweaver.trace.proto.Args;
import io.qosweaver.trace.timeline.Level;
import io.qosweaver.trace.timeline.Timeline;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The OS level: every thread of this process sampled from {@code /proc/self/task/TID/stat} and
 * {@code schedstat} at a fixed rate, each change of state (or of CPU) a new slice on the thread's
 * "OS state" track. The kernel's {@code R} covers both running and runnable; the two are told
 * apart by what schedstat says happened since the last sample: more time waiting on a run queue
 * than on a CPU is "Runnable (waiting for CPU)". What happens between two samples is not seen
 * (a 2 ms burst of running between two 10 ms samples of a sleeping thread is missed).
 *
 * <p>Cost: two small file reads per thread and sample, on this sampler's own thread, which reports
 * its own CPU time as the counter "tracer OS sampler CPU" so that every trace shows what it cost.
 * At the default 100 Hz, 40 threads cost 8,000 reads a second (see the module README for the
 * measured share of a core); lower {@code traceOsHz} to pay less.
 */
public final class OsSampler implements Runnable {
    private static final Path TASKS = Path.of("/proc/self/task");

    private final Timeline timeline;
    private final long periodNanos;
    private final Map<Integer, Last> last = new HashMap<>();
    private volatile boolean stop;
    private long samples;

    private static final int LIST_EVERY = 10;

    private final ProcReader reader = new ProcReader();

    private static final class Last {
        ProcReader.Files files;
        String key;
        int processor;
        long cpu;
        long wait;
    }

    public OsSampler(Timeline timeline, int hz) {
        if (hz < 1 || hz > 10_000) {
            throw new IllegalArgumentException("OS sampling rate " + hz + " Hz is not in 1..10000");
        }
        this.timeline = timeline;
        this.periodNanos = 1_000_000_000L / hz;
    }

    /** Null when the OS level can run here, else why not (for the message that disables it). */
    public static String unavailable() {
        String os = System.getProperty("os.name", "");
        if (!os.toLowerCase(java.util.Locale.ROOT).contains("linux")) {
            return "the OS level needs Linux's /proc (this is " + os + "): OS level disabled";
        }
        if (!Files.isDirectory(TASKS)) {
            return "no " + TASKS + ": OS level disabled";
        }
        return null;
    }

    public void stop() {
        stop = true;
    }

    public long samples() {
        return samples;
    }

    @Override
    public void run() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        boolean cpuTime = mx.isCurrentThreadCpuTimeSupported();
        long cpuTrack = timeline.processChild("tracer OS sampler CPU", 1);
        long next = System.nanoTime();
        long nextReport = next;
        while (!stop) {
            sample(System.nanoTime());
            samples++;
            long now = System.nanoTime();
            if (cpuTime && now >= nextReport) {
                timeline.counter(now, cpuTrack, mx.getCurrentThreadCpuTime());
                nextReport = now + 1_000_000_000L;
            }
            next += periodNanos;
            if (next < now) {
                next = now; // fell behind (a loaded machine): skip, do not burst
            }
            sleepNanos(next - now); // a sleep, not a park: JFR's park events would record the tracer itself
        }
        closeAll(System.nanoTime());
    }

    private void sleepNanos(long nanos) {
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            stop = true;
        }
    }

    /**
     * One sample of every thread at {@code now}. The directory is listed every
     * {@value #LIST_EVERY}th sample only (a new thread shows up within that many periods); a
     * thread that ended is noticed by its failed read.
     */
    void sample(long now) {
        if (samples % LIST_EVERY == 0) {
            list();
        }
        for (Iterator<Map.Entry<Integer, Last>> it = last.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, Last> e = it.next();
            Last l = e.getValue();
            int r = reader.read(l.files, l.key == null ? -1 : l.cpu, l.wait);
            if (r == ProcReader.UNCHANGED) {
                continue;
            }
            if (r == ProcReader.GONE) {
                if (l.key != null) {
                    timeline.end(now, Timeline.levelTrack(e.getKey(), Level.OS));
                }
                l.files.close();
                it.remove();
                continue;
            }
            observe(now, e.getKey(), l);
        }
    }

    private void list() {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(TASKS)) {
            for (Path p : ds) {
                try {
                    int tid = Integer.parseInt(p.getFileName().toString());
                    if (!last.containsKey(tid)) {
                        Last l = new Last();
                        l.files = new ProcReader.Files(TASKS + "/" + tid);
                        last.put(tid, l);
                        timeline.nameThreadIfUnnamed(tid, comm(p));
                    }
                } catch (NumberFormatException e) {
                    // not a thread
                } catch (IOException e) {
                    // ended between the listing and the open
                }
            }
        } catch (IOException e) {
            // /proc went away: the reads fail and end every thread's slice
        }
    }

    private void observe(long now, int tid, Last l) {
        ProcReader r = reader;
        boolean first = l.key == null;
        String state = state(r.state, first ? 0 : r.cpuNanos - l.cpu, first ? 0 : r.waitNanos - l.wait);
        l.cpu = r.cpuNanos;
        l.wait = r.waitNanos;
        if (state.equals(l.key) && r.processor == l.processor) {
            return;
        }
        long track = Timeline.levelTrack(tid, Level.OS);
        if (!first) {
            timeline.end(now, track);
        }
        l.key = state;
        l.processor = r.processor;
        timeline.begin(now, track, state, "os", new Args().add("cpu", r.processor).add("state", String.valueOf(r.state)));
    }

    /** The state's name; {@code R} split by what schedstat says happened since the last sample. */
    static String state(char letter, long cpuDelta, long waitDelta) {
        switch (letter) {
            case 'R':
                return waitDelta > cpuDelta ? "Runnable (waiting for CPU)" : "Running";
            case 'S':
                return "Sleeping";
            case 'D':
                return "Blocked (I/O)";
            case 'T':
            case 't':
                return "Stopped";
            case 'Z':
            case 'X':
                return "Dead";
            default:
                return "State " + letter;
        }
    }

    private static String comm(Path taskDir) {
        try {
            return Files.readString(taskDir.resolve("comm"), StandardCharsets.UTF_8).strip();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private void closeAll(long now) {
        for (Map.Entry<Integer, Last> e : last.entrySet()) {
            if (e.getValue().key != null) {
                timeline.end(now, Timeline.levelTrack(e.getKey(), Level.OS));
            }
            e.getValue().files.close();
        }
        last.clear();
    }
}
