package io.qosweaver.bench.mixed;

import io.qosweaver.bench.app.Proc;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * What the kernel counted for a process's threads over a window: CPU in user and system mode, context switches
 * (voluntary: the thread blocked or parked; involuntary: it was preempted), migrations between CPUs and the time
 * spent runnable but waiting for a CPU. Per thread, the difference of two {@link Reading readings}: a thread that
 * started in the window counts whole, one that ended in it takes its switches, migrations and waits with it (its
 * CPU stays in the process's), so {@link #threadsStarted} and {@link #threadsEnded} show how much was missed.
 *
 * <p>Why: a scheduler that parks threads may cost CPU outside any Java frame (futex calls, cold caches after a
 * switch, a thread woken on another CPU), which a Java profiler does not see (issue 13's heavy gap).
 *
 * @param userMs              utime of {@code /proc/PID/stat}, every thread, live or ended
 * @param sysMs               stime of the same
 * @param voluntarySwitches   {@code nr_voluntary_switches} of {@code /proc/PID/task/TID/sched}
 * @param involuntarySwitches {@code nr_involuntary_switches}
 * @param migrations          {@code se.nr_migrations}
 * @param runWaitMs           the second field of {@code /proc/PID/task/TID/schedstat} (time runnable, not running)
 * @param threads             threads at the window's end
 * @param threadsStarted      threads that started in the window
 * @param threadsEnded        threads that ended in it (their switches, migrations and waits are not counted)
 */
public record SchedCounters(long userMs, long sysMs, long voluntarySwitches, long involuntarySwitches,
                            long migrations, double runWaitMs, int threads, int threadsStarted, int threadsEnded) {

    /** One reading of a process: its CPU and, per thread id, voluntary, involuntary switches, migrations, wait ns. */
    record Reading(long userMs, long sysMs, Map<Long, long[]> threads) {
    }

    /** The process's counters now, or null when its {@code /proc} entry cannot be read (it ended, or no Linux). */
    static Reading read(long pid) {
        String[] stat = Proc.statFields(pid);
        if (stat == null) {
            return null;
        }
        Map<Long, long[]> threads = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/" + pid + "/task"))) {
            for (Path t : tasks) {
                String sched;
                String schedstat;
                try {
                    sched = Files.readString(t.resolve("sched"));
                    schedstat = Files.readString(t.resolve("schedstat"));
                } catch (IOException gone) {
                    continue; // the thread ended between the listing and the read
                }
                String[] s = schedstat.trim().split("\\s+");
                threads.put(Long.parseLong(t.getFileName().toString()), new long[] {
                    field(sched, "nr_voluntary_switches"), field(sched, "nr_involuntary_switches"),
                    field(sched, "se.nr_migrations"), s.length >= 2 ? Long.parseLong(s[1]) : 0});
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return new Reading(Long.parseLong(stat[13]) * 10, Long.parseLong(stat[14]) * 10, threads);
    }

    /** The window from {@code before} to {@code after}, or null when either is missing. */
    static SchedCounters between(Reading before, Reading after) {
        if (before == null || after == null) {
            return null;
        }
        long[] sum = new long[4];
        int started = 0;
        for (Map.Entry<Long, long[]> e : after.threads().entrySet()) {
            long[] a = e.getValue();
            long[] b = before.threads().get(e.getKey());
            if (b == null) {
                started++;
            }
            for (int i = 0; i < sum.length; i++) {
                sum[i] += a[i] - (b == null ? 0 : b[i]);
            }
        }
        int ended = (int) before.threads().keySet().stream().filter(t -> !after.threads().containsKey(t)).count();
        return new SchedCounters(after.userMs() - before.userMs(), after.sysMs() - before.sysMs(), sum[0], sum[1],
                sum[2], Math.round(sum[3] / 1e5) / 10.0, after.threads().size(), started, ended);
    }

    /** A field "name : value" of a {@code /proc/.../sched} file, 0 when absent (kernels differ in what they show). */
    static long field(String sched, String name) {
        int at = 0;
        while ((at = sched.indexOf(name, at)) >= 0) {
            boolean lineStart = at == 0 || sched.charAt(at - 1) == '\n';
            int colon = sched.indexOf(':', at);
            int end = sched.indexOf('\n', at);
            if (lineStart && colon > 0 && (end < 0 || colon < end)
                    && sched.substring(at + name.length(), colon).isBlank()) {
                String v = sched.substring(colon + 1, end < 0 ? sched.length() : end).trim();
                int dot = v.indexOf('.');
                return Long.parseLong(dot >= 0 ? v.substring(0, dot) : v);
            }
            at += name.length();
        }
        return 0;
    }

    /** System time's share of the CPU, or null without CPU. */
    public Double sysShare() {
        long all = userMs + sysMs;
        return all == 0 ? null : Math.round(1000.0 * sysMs / all) / 1000.0;
    }

    /** A count per request, one decimal, or null without requests. */
    static Double per(long count, long requests) {
        return requests <= 0 ? null : Math.round(10.0 * count / requests) / 10.0;
    }
}
