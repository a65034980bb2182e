package io.qosweaver.trace.os;

import io.qosweaver.platform.ProcThreadStat;
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
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The OS level: every thread of this process sampled from {@code /proc/self/task/TID/stat} and
 * {@code schedstat} at a fixed rate, each change of state (or of CPU) a new slice on the thread's
 * "OS state" track. The kernel's {@code R} covers both running and runnable; the two are told
 * apart by what schedstat says happened since the last sample: more time waiting on a run queue
 * than on a CPU is "Runnable (waiting for CPU)". What happens between two samples is not seen
 * (a 2 ms burst of running between two 10 ms samples of a sleeping thread is missed).
 *
 * <p>Cost: two small file reads per thread and sample (a few microseconds each), on this sampler's
 * own thread; it reports its own CPU time as the counter "tracer OS sampler CPU" so that a trace
 * shows what it cost. At the default 100 Hz a 50-thread server costs about 10,000 reads a second.
 */
public final class OsSampler implements Runnable {
    private static final Path TASKS = Path.of("/proc/self/task");

    private final Timeline timeline;
    private final long periodNanos;
    private final Map<Integer, Last> last = new HashMap<>();
    private volatile boolean stop;
    private long samples;

    private static final class Last {
        String key;
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
            LockSupport.parkNanos(next - now);
        }
        closeAll(System.nanoTime());
    }

    /** One sample of every thread at {@code now}. */
    void sample(long now) {
        Set<Integer> seen = new HashSet<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(TASKS)) {
            for (Path p : ds) {
                int tid;
                try {
                    tid = Integer.parseInt(p.getFileName().toString());
                } catch (NumberFormatException e) {
                    continue;
                }
                ProcThreadStat s = ProcThreadStat.read(tid);
                if (s == null) {
                    continue; // ended between the listing and the read
                }
                seen.add(tid);
                observe(now, tid, s, p);
            }
        } catch (IOException e) {
            return;
        }
        for (Iterator<Map.Entry<Integer, Last>> it = last.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, Last> e = it.next();
            if (!seen.contains(e.getKey())) {
                timeline.end(now, Timeline.levelTrack(e.getKey(), Level.OS));
                it.remove();
            }
        }
    }

    private void observe(long now, int tid, ProcThreadStat s, Path taskDir) {
        Last l = last.get(tid);
        boolean first = l == null;
        if (first) {
            l = new Last();
            last.put(tid, l);
            timeline.nameThreadIfUnnamed(tid, comm(taskDir));
        }
        String state = state(s, first ? 0 : s.cpuNanos() - l.cpu, first ? 0 : s.runQueueWaitNanos() - l.wait);
        l.cpu = s.cpuNanos();
        l.wait = s.runQueueWaitNanos();
        String key = state + '/' + s.processor();
        if (key.equals(l.key)) {
            return;
        }
        long track = Timeline.levelTrack(tid, Level.OS);
        if (l.key != null) {
            timeline.end(now, track);
        }
        l.key = key;
        timeline.begin(now, track, state, "os", new Args().add("cpu", s.processor()).add("state", String.valueOf(s.state())));
    }

    /** The state's name; {@code R} split by what schedstat says happened since the last sample. */
    static String state(ProcThreadStat s, long cpuDelta, long waitDelta) {
        switch (s.state()) {
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
                return "State " + s.state();
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
        for (Integer tid : last.keySet()) {
            timeline.end(now, Timeline.levelTrack(tid, Level.OS));
        }
        last.clear();
    }
}
