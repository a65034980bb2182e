package io.qosweaver.bench.app;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@code /proc} says about a process or one of its threads: its nice value and its CPU time
 * (user + system; for a process every thread). Times are clock ticks of {@code USER_HZ}, 10 ms on
 * every Linux the JVM runs on.
 */
public final class Proc {
    private Proc() {
    }

    /** Field 19 of {@code /proc/PID/stat}, or null when it cannot be read. */
    public static Integer nice(long pid) {
        String[] f = statFields(pid);
        return f == null ? null : Integer.valueOf(f[18]);
    }

    /** utime + stime of {@code /proc/PID/stat} in milliseconds (clock ticks of 10 ms), or null. */
    public static Long cpuMs(long pid) {
        String[] f = statFields(pid);
        return f == null ? null : cpuTicks(f) * 10;
    }

    /** utime + stime (fields 13 and 14) of parsed {@code stat} fields, in clock ticks. */
    public static long cpuTicks(String[] statFields) {
        return Long.parseLong(statFields[13]) + Long.parseLong(statFields[14]);
    }

    /**
     * CPU time every process of the machine spent busy (user, nice, system, irq, softirq, steal of the
     * first line of {@code /proc/stat}), in milliseconds, or null.
     */
    public static Long machineBusyMs() {
        try {
            String first = Files.readAllLines(Path.of("/proc/stat")).get(0);
            return parseMachineBusyTicks(first) * 10;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    public static long parseMachineBusyTicks(String cpuLine) {
        String[] f = cpuLine.trim().split("\\s+");
        // cpu user nice system idle iowait irq softirq steal ...
        return Long.parseLong(f[1]) + Long.parseLong(f[2]) + Long.parseLong(f[3]) + Long.parseLong(f[6])
                + Long.parseLong(f[7]) + (f.length > 8 ? Long.parseLong(f[8]) : 0);
    }

    /** The fields of /proc/PID/stat, numbered from 0; the command name (field 1) may hold spaces. */
    public static String[] statFields(long pid) {
        try {
            return parseStat(Files.readString(Path.of("/proc/" + pid + "/stat")));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * How many threads of process {@code pid} are in scheduling policy {@code policy} (field 41 of each
     * {@code /proc/PID/task/TID/stat}: 0 SCHED_OTHER, 1 SCHED_FIFO, 5 SCHED_IDLE), or null when the process's
     * threads cannot be listed; a thread that ends while they are read is not counted.
     */
    public static Integer threadsInPolicy(long pid, int policy) {
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            int n = 0;
            for (Path t : (Iterable<Path>) tasks::iterator) {
                try {
                    String[] f = parseStat(Files.readString(t.resolve("stat")));
                    if (Integer.parseInt(f[40]) == policy) {
                        n++;
                    }
                } catch (IOException | RuntimeException gone) {
                    // the thread ended
                }
            }
            return n;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The fields of a {@code stat} file's text (a process's or a thread's), numbered from 0. */
    public static String[] parseStat(String stat) {
        int close = stat.lastIndexOf(')');
        String[] rest = stat.substring(close + 2).trim().split(" ");
        String[] f = new String[rest.length + 2];
        f[0] = stat.substring(0, stat.indexOf(' '));
        f[1] = stat.substring(stat.indexOf('(') + 1, close);
        System.arraycopy(rest, 0, f, 2, rest.length);
        return f;
    }
}
