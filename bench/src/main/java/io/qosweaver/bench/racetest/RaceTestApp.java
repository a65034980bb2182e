package io.qosweaver.bench.racetest;

import io.qosweaver.api.Share;
import io.qosweaver.api.ShareGroup;
import io.qosweaver.api.Shares;
import io.qosweaver.platform.ProcThreadStat;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The RaceTest program, run in a JVM of its own per configuration: runners loop over {@link
 * Dhrystone}, each counting its loops; after the warm-up a sampler prints every runner's loops of
 * the last second, once a second, until the run's end.
 *
 * <p>Arguments: {@code MODE DURATION_S WARMUP_S SPEC...}. {@code MODE} is {@code plain} (the
 * standard RaceTest: no API call in the loop) or {@code api} (each runner in a {@link Share} of
 * its fraction, a {@link Shares#controlPoint()} after every 16 loops). A {@code SPEC} is
 * {@code runner:NAME:FRACTION:PRIORITY:GROUP} (group {@code -} for none) or
 * {@code group:NAME:FRACTION}. Output lines: {@code TID NAME TID} as each runner starts (for
 * {@code renice}), {@code SCHEDULED true|false}, {@code SAMPLE S N0 N1 ...} (loops/s), {@code CPU
 * MS0 MS1 ...} (each runner's CPU time over the measured part), {@code MACHINE CORES} (the busy
 * CPUs of the whole machine over the measured part, from {@code /proc/stat}), {@code DONE}.
 */
public final class RaceTestApp {
    private RaceTestApp() {}

    /** The policy file's one task class (a file needs one): never entered. */
    public static void never() {}

    record RunnerSpec(String name, double fraction, int priority, String group) {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        double durationS = Double.parseDouble(args[1]), warmupS = Double.parseDouble(args[2]);
        boolean api = mode.equals("api");
        if (!api && !mode.equals("plain")) {
            throw new IllegalArgumentException("mode must be plain or api, got " + mode);
        }
        List<RunnerSpec> runners = new ArrayList<>();
        Map<String, ShareGroup> groups = new HashMap<>();
        for (int i = 3; i < args.length; i++) {
            String[] f = args[i].split(":");
            if (f[0].equals("group")) {
                if (api) {
                    groups.put(f[1], Shares.group(f[1], Double.parseDouble(f[2])));
                }
            } else {
                runners.add(new RunnerSpec(f[1], Double.parseDouble(f[2]), Integer.parseInt(f[3]), f[4]));
            }
        }
        int n = runners.size();
        AtomicLong[] counts = new AtomicLong[n];
        Thread[] threads = new Thread[n];
        for (int i = 0; i < n; i++) {
            RunnerSpec r = runners.get(i);
            AtomicLong c = counts[i] = new AtomicLong();
            Share share = !api ? null : r.group().equals("-") ? Shares.share(r.name(), r.fraction())
                    : groups.get(r.group()).share(r.name(), r.fraction());
            Runnable body = () -> {
                System.out.println("TID " + r.name() + " " + nativeTid());
                if (share == null) {
                    plain(c);
                } else {
                    share.run(() -> managed(c));
                }
            };
            threads[i] = new Thread(body, r.name());
            threads[i].setDaemon(true);
            threads[i].setPriority(r.priority());
        }
        for (Thread t : threads) {
            t.start();
        }
        System.out.println("SCHEDULED " + Shares.scheduled());
        Thread.sleep(Math.round(warmupS * 1000));
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long[] cpu0 = new long[n], last = new long[n], lastCpu = new long[n];
        for (int i = 0; i < n; i++) {
            cpu0[i] = cpu(mx, threads[i]);
            lastCpu[i] = cpu0[i];
            last[i] = counts[i].get();
        }
        long[] stat0 = procStat();
        Map<String, Long> threads0 = threadCpuNanos();
        long start = System.nanoTime(), prev = start;
        int seconds = (int) Math.round(durationS);
        StringBuilder b = new StringBuilder();
        for (int s = 1; s <= seconds; s++) {
            long due = start + s * 1_000_000_000L;
            for (long left; (left = due - System.nanoTime()) > 0; ) {
                Thread.sleep(left / 1_000_000, (int) (left % 1_000_000));
            }
            long now = System.nanoTime();
            b.setLength(0);
            b.append("SAMPLE ").append(s);
            for (int i = 0; i < n; i++) {
                long c = counts[i].get();
                b.append(' ').append(String.format(Locale.ROOT, "%.1f", (c - last[i]) * 1e9 / (now - prev)));
                last[i] = c;
            }
            prev = now;
            System.out.println(b);
            // each runner's CPU time in that second: what the scheduler handed out, whatever a CPU
            // second was worth in loops on the hardware thread it ran on
            b.setLength(0);
            b.append("CPUSAMPLE ").append(s);
            for (int i = 0; i < n; i++) {
                long c = cpu(mx, threads[i]);
                b.append(' ').append(String.format(Locale.ROOT, "%.3f", (c - lastCpu[i]) / 1e6));
                lastCpu[i] = c;
            }
            System.out.println(b);
        }
        b.setLength(0);
        b.append("CPU");
        for (int i = 0; i < n; i++) {
            b.append(' ').append((cpu(mx, threads[i]) - cpu0[i]) / 1_000_000);
        }
        System.out.println(b);
        long[] stat1 = procStat();
        System.out.println(otherThreads(threads0, threadCpuNanos(), runners));
        if (stat0 != null && stat1 != null && stat1[1] > stat0[1]) {
            // the whole machine's busy CPUs over the measured part: what else ran beside the runners
            System.out.println(String.format(Locale.ROOT, "MACHINE %.3f", (double) (stat1[0] - stat0[0])
                    / (stat1[1] - stat0[1]) * Runtime.getRuntime().availableProcessors()));
        }
        System.out.println("DONE");
        System.out.flush();
        System.exit(0);
    }

    private static volatile long sink;
    /**
     * A control point every 16 loops (about 16 us): far denser than the policy's 20 ms sample and the
     * smallest quantum here (1.5 % of 100 ms), so a turn overshoots by microseconds, and far
     * denser than generated policies' (about 10 ms); at every loop, the scheduler's slow path
     * (taken by every control point while any thread is told to yield, as 8 of 10 runners always
     * are in the overhead runs) would be measured more than the scheduling.
     */
    static final long CONTROL_POINT_MASK = 15;

    /**
     * Loops per slice: a runner calls a slice method over and over (about 256 us each), never one
     * endless loop. An endless loop runs as on-stack-replaced code; a thread that entered it while it
     * was compiled at C1's profiling tier stays in that code for good (compiled code does not migrate
     * to a later OSR version), and the rare branch that published the loops every 2^20 iterations sent
     * every thread back there through an uncommon trap: with the endless loop, 5 of 10 plain runners
     * did 1.75x fewer loops per CPU second than the 5 others for a whole run (`-XX:+PrintCompilation`:
     * the C2 OSR version made not entrant 4 s in, tier 3 compiled again). A slice returns, so each call
     * enters the method's current code, and the launch keeps it from being inlined into the endless
     * loop ({@link #DONT_INLINE}). One runner in most JVMs still does 4-5x fewer loops per CPU second
     * than the others, for the whole run, with or without padding around its counter and state
     * (tried): not explained; shares are judged in CPU time.
     */
    static final int SLICE = 256;
    /** The JVM options that keep the slice methods out of the runners' endless loops. */
    static final java.util.List<String> DONT_INLINE = java.util.List.of("-XX:CompileCommand=quiet",
            "-XX:CompileCommand=dontinline,io.qosweaver.bench.racetest.RaceTestApp::*Slice");

    private static void plain(AtomicLong count) {
        Dhrystone d = new Dhrystone();
        for (long n = 0; ; ) {
            n = plainSlice(d, count, n);
        }
    }

    private static long plainSlice(Dhrystone d, AtomicLong count, long n) {
        long x = 0;
        for (int i = 0; i < SLICE; i++) {
            x += d.loop();
            count.lazySet(++n); // a plain store on x86 and ARM: the counter costs the loop nothing
        }
        sink = x;
        return n;
    }

    private static void managed(AtomicLong count) {
        Dhrystone d = new Dhrystone();
        for (long n = 0; ; ) {
            n = managedSlice(d, count, n);
        }
    }

    private static long managedSlice(Dhrystone d, AtomicLong count, long n) {
        long x = 0;
        for (int i = 0; i < SLICE; i++) {
            x += d.loop();
            count.lazySet(++n);
            if ((n & CONTROL_POINT_MASK) == 0) {
                Shares.controlPoint(); // where the scheduler may preempt the runner (Q-JVM: anywhere)
            }
        }
        sink = x;
        return n;
    }

    @SuppressWarnings("deprecation") // getId: Java 17
    private static long cpu(ThreadMXBean mx, Thread t) {
        return mx.getThreadCpuTime(t.getId());
    }

    /**
     * CPU time (nanoseconds, from each thread's {@code schedstat}, {@link ProcThreadStat}) of this JVM's
     * threads by kernel name ({@code comm}, at most 15 characters: the Java name cut, or the JVM's own,
     * "C2 CompilerThre", "GC Thread#0"), the threads of one name summed; empty off Linux. Threads that
     * ended in between are missing from the later reading, so a short-lived thread's CPU is not counted.
     */
    static Map<String, Long> threadCpuNanos() {
        Map<String, Long> m = new java.util.TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    ProcThreadStat st = ProcThreadStat.read(Integer.parseInt(t.getFileName().toString()));
                    if (st != null && st.cpuNanos() >= 0) {
                        m.merge(Files.readString(t.resolve("comm")).strip(), st.cpuNanos(), Long::sum);
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended while listed
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: nothing to report
        }
        return m;
    }

    /**
     * {@code JVMTHREADS name:ms ...}: the CPU time of the JVM's threads other than the runners over the
     * measured part, largest first (at most 12 names; spaces in names as '_'): where a managed run's
     * CPU went that its runners did not get (the scheduler's tick thread, the JIT, the GC).
     */
    static String otherThreads(Map<String, Long> beforeNanos, Map<String, Long> afterNanos, List<RunnerSpec> runners) {
        java.util.Set<String> runnerNames = new java.util.HashSet<>();
        for (RunnerSpec r : runners) {
            runnerNames.add(r.name().length() > 15 ? r.name().substring(0, 15) : r.name());
        }
        List<Map.Entry<String, Long>> deltas = new ArrayList<>();
        afterNanos.forEach((name, nanos) -> {
            long d = nanos - beforeNanos.getOrDefault(name, 0L);
            if (d >= 1_000_000 && !runnerNames.contains(name)) {
                deltas.add(Map.entry(name, d / 1_000_000));
            }
        });
        deltas.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        StringBuilder b = new StringBuilder("JVMTHREADS");
        for (Map.Entry<String, Long> e : deltas.subList(0, Math.min(12, deltas.size()))) {
            b.append(' ').append(e.getKey().replace(' ', '_').replace(":", "")).append(':').append(e.getValue());
        }
        return b.toString();
    }

    /** {@code /proc/stat}'s busy and total jiffies over every CPU, or null off Linux. */
    static long[] procStat() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0, idle = Long.parseLong(f[4]) + Long.parseLong(f[5]); // idle + iowait
            for (int i = 1; i < Math.min(f.length, 9); i++) { // user .. steal
                total += Long.parseLong(f[i]);
            }
            return new long[] {total - idle, total};
        } catch (Exception e) {
            return null;
        }
    }

    /** The kernel's id of the calling thread ({@code /proc/thread-self -> PID/task/TID}), or -1. */
    static int nativeTid() {
        try {
            String link = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
            return Integer.parseInt(link.substring(link.lastIndexOf('/') + 1));
        } catch (Exception e) {
            return -1;
        }
    }
}
