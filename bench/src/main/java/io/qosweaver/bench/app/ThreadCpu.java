package io.qosweaver.bench.app;

import static io.qosweaver.bench.stats.Round.round;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The CPU of the application's threads by group over a window, sampled from {@code /proc/PID/task}
 * once a second (Linux; elsewhere nothing is recorded). Why: the process's CPU time alone cannot
 * tell the request threads from the JVM's own. On the deadline experiment G1's concurrent marking
 * thread took 0.3-0.4 cores on average, in bursts of 0.6-0.8 cores beside two capped chart
 * threads, whose CPU went down by about 40 % during each burst: that is where the capped versions'
 * wide chart latency came from (bench/results/deadline/gc-2026-11-28/).
 *
 * <p>A thread's group is its name without its trailing numbers: {@code qtp1453774246-56} is
 * {@code qtp} (Jetty's pool, whatever its hash), {@code generator-35} is {@code generator}; the
 * JVM's collector threads (G1, Parallel, Shenandoah, ZGC) are {@code gc} and its compilers {@code jit}.
 * Threads that end within the window keep the CPU they used up to the last sample that saw them.
 */
public final class ThreadCpu implements AutoCloseable {
    /** Groups kept by name (the most CPU first); the rest is summed as {@code other}. */
    public static final int TOP = 6;
    public static final String GC = "gc";
    public static final String JIT = "jit";
    public static final String OTHER = "other";
    private static final Pattern GC_NAMES = Pattern.compile(
            "G1 .*|GC Thread#\\d+|Shenandoah.*|ZWorker.*|ZDriver|ZDirector|ZStat|ZUnmapper.*");
    private static final Pattern JIT_NAMES = Pattern.compile("C[12] CompilerThre.*|.*Compiler.*Thread.*");
    private static final Pattern SERIAL = Pattern.compile("([-_#. ]?\\d+)+$");

    /**
     * One group's CPU in cores: its mean over the window and per sample interval.
     *
     * @param perSecond cores in each interval between two samples, from the window's start
     */
    public record Group(String name, double cores, List<Double> perSecond) {
    }

    private final Path task;
    private final long periodMs;
    private final Thread thread;
    /** Ticks by thread id at each sample, with the thread's name. */
    private final List<Map<String, Long>> samples = new ArrayList<>();
    private final List<Long> times = new ArrayList<>();
    private final Map<String, String> names = new HashMap<>();
    private final double ticksPerSecond;
    private volatile boolean stop;

    private ThreadCpu(Path task, long periodMs, double ticksPerSecond) {
        this.task = task;
        this.periodMs = periodMs;
        this.ticksPerSecond = ticksPerSecond;
        this.thread = new Thread(this::run, "thread-cpu-sampler");
        thread.setDaemon(true);
    }

    /**
     * Starts sampling {@code pid}'s threads once a second; null where there is no {@code /proc}.
     * Times in {@code stat} are in clock ticks of {@code USER_HZ}, 100 on every Linux the JVM runs on.
     */
    public static ThreadCpu start(long pid) {
        return start(Path.of("/proc", Long.toString(pid), "task"), 1000, 100.0);
    }

    /** Starts sampling the threads under {@code task} (a {@code /proc/PID/task}) every {@code periodMs}. */
    static ThreadCpu start(Path task, long periodMs, double ticksPerSecond) {
        if (!Files.isDirectory(task)) {
            return null;
        }
        ThreadCpu t = new ThreadCpu(task, periodMs, ticksPerSecond);
        t.sample();
        t.thread.start();
        return t;
    }

    private void run() {
        long next = times.isEmpty() ? System.nanoTime() : times.get(0);
        while (!stop) {
            next += periodMs * 1_000_000L;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(wait / 1_000_000L, (int) (wait % 1_000_000L));
                } catch (InterruptedException e) {
                    return;
                }
            }
            if (stop || !Files.isDirectory(task)) {
                return; // stopped, or the process is gone
            }
            sample();
        }
    }

    /** Reads every thread's {@code stat}: utime + stime, in clock ticks ({@link Proc}). */
    synchronized void sample() {
        Map<String, Long> now = new HashMap<>();
        try (Stream<Path> s = Files.list(task)) {
            for (Path t : (Iterable<Path>) s::iterator) {
                String stat;
                try {
                    stat = Files.readString(t.resolve("stat"));
                } catch (IOException e) {
                    continue; // the thread ended between the listing and the read
                }
                String id = t.getFileName().toString();
                try {
                    String[] f = Proc.parseStat(stat);
                    now.put(id, Proc.cpuTicks(f));
                    names.put(id, f[1]);
                } catch (RuntimeException e) {
                    continue; // not a stat line (never seen): skip the thread rather than the sample
                }
            }
        } catch (IOException | RuntimeException e) {
            return; // the process ended: keep what was sampled
        }
        times.add(System.nanoTime());
        samples.add(now);
    }

    /** Stops sampling (taking a last sample) and returns the groups; empty with fewer than two samples. */
    public synchronized List<Group> stop() {
        if (!stop) {
            stop = true;
            thread.interrupt();
            sample();
        }
        return groups();
    }

    @Override
    public void close() {
        stop();
    }

    /** The group of a thread name. */
    static String group(String name) {
        if (GC_NAMES.matcher(name).matches()) {
            return GC;
        }
        if (JIT_NAMES.matcher(name).matches()) {
            return JIT;
        }
        String g = SERIAL.matcher(name).replaceFirst("");
        return g.isEmpty() ? name : g;
    }

    private List<Group> groups() {
        int n = samples.size() - 1;
        if (n < 1) {
            return List.of();
        }
        Map<String, double[]> ticks = new LinkedHashMap<>();
        double[] seconds = new double[n];
        for (int i = 0; i < n; i++) {
            seconds[i] = (times.get(i + 1) - times.get(i)) / 1e9;
            Map<String, Long> a = samples.get(i), b = samples.get(i + 1);
            for (Map.Entry<String, Long> e : b.entrySet()) {
                Long was = a.get(e.getKey()); // null: the thread started in the interval, counted from its first sight
                long used = was == null ? 0 : e.getValue() - was;
                ticks.computeIfAbsent(group(names.get(e.getKey())), k -> new double[n])[i] += used;
            }
        }
        double total = 0;
        for (double s : seconds) {
            total += s;
        }
        List<Map.Entry<String, double[]>> order = new ArrayList<>(ticks.entrySet());
        order.sort(Comparator.comparingDouble((Map.Entry<String, double[]> e) -> -sum(e.getValue())));
        List<Group> out = new ArrayList<>();
        double[] rest = new double[n];
        boolean hasRest = false;
        for (int k = 0; k < order.size(); k++) {
            Map.Entry<String, double[]> e = order.get(k);
            if (k < TOP && !e.getKey().equals(OTHER)) {
                out.add(group(e.getKey(), e.getValue(), seconds, total));
            } else {
                hasRest = true;
                for (int i = 0; i < n; i++) {
                    rest[i] += e.getValue()[i];
                }
            }
        }
        if (hasRest) {
            out.add(group(OTHER, rest, seconds, total));
        }
        return out;
    }

    private Group group(String name, double[] ticks, double[] seconds, double total) {
        List<Double> per = new ArrayList<>(ticks.length);
        for (int i = 0; i < ticks.length; i++) {
            per.add(round(ticks[i] / ticksPerSecond / seconds[i], 2));
        }
        return new Group(name, round(sum(ticks) / ticksPerSecond / total, 3), List.copyOf(per));
    }

    private static double sum(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s;
    }
}
