package io.qosweaver.bench.mixed;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the kernel counted for a process's threads: CPU in user and system mode, context switches (voluntary:
 * the thread blocked or parked; involuntary: it was preempted), migrations between CPUs and the time spent
 * runnable but waiting for a CPU. A window's figures are the difference of two readings; a thread that ended
 * between them takes its switches, migrations and waits with it (its CPU stays in the process's), so
 * {@link #threads} is read at both ends to show the churn.
 *
 * <p>Why: a scheduler that parks threads may cost CPU outside any Java frame (futex calls, cold caches after a
 * switch, a thread woken on another CPU), which a Java profiler does not see (issue 13's heavy gap).
 *
 * @param userMs              utime of {@code /proc/PID/stat}, every thread, live or ended
 * @param sysMs               stime of the same
 * @param voluntarySwitches   {@code nr_voluntary_switches} of {@code /proc/PID/task/TID/sched}, live threads
 * @param involuntarySwitches {@code nr_involuntary_switches}, live threads
 * @param migrations          {@code se.nr_migrations}, live threads
 * @param runWaitMs           the second field of {@code /proc/PID/task/TID/schedstat} (time runnable, not running)
 * @param threads             how many threads the process had at the reading
 */
public record SchedCounters(long userMs, long sysMs, long voluntarySwitches, long involuntarySwitches, long migrations,
                     double runWaitMs, int threads) {

    /** The process's counters now, or null when its {@code /proc} entry cannot be read (it ended, or no Linux). */
    static SchedCounters read(long pid) {
        String[] stat = Proc.statFields(pid);
        if (stat == null) {
            return null;
        }
        long vol = 0;
        long invol = 0;
        long mig = 0;
        double waitNs = 0;
        int threads = 0;
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
                vol += field(sched, "nr_voluntary_switches");
                invol += field(sched, "nr_involuntary_switches");
                mig += field(sched, "se.nr_migrations");
                String[] s = schedstat.trim().split("\\s+");
                if (s.length >= 2) {
                    waitNs += Double.parseDouble(s[1]);
                }
                threads++;
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return new SchedCounters(Long.parseLong(stat[13]) * 10, Long.parseLong(stat[14]) * 10, vol, invol, mig,
                waitNs / 1e6, threads);
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

    /** This reading less an earlier one; the thread count is this reading's. */
    SchedCounters minus(SchedCounters before) {
        return new SchedCounters(userMs - before.userMs, sysMs - before.sysMs,
                voluntarySwitches - before.voluntarySwitches, involuntarySwitches - before.involuntarySwitches,
                migrations - before.migrations, Math.round((runWaitMs - before.runWaitMs) * 10) / 10.0, threads);
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
