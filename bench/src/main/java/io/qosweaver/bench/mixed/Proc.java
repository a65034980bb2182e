package io.qosweaver.bench.mixed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What {@code /proc} says about a process: its nice value and its CPU time (every thread, user + system). */
final class Proc {
    private Proc() {
    }

    /** Field 19 of {@code /proc/PID/stat}, or null when it cannot be read. */
    static Integer nice(long pid) {
        String[] f = statFields(pid);
        return f == null ? null : Integer.valueOf(f[18]);
    }

    /** utime + stime of {@code /proc/PID/stat} in milliseconds (clock ticks of 10 ms), or null. */
    static Long cpuMs(long pid) {
        String[] f = statFields(pid);
        return f == null ? null : (Long.parseLong(f[13]) + Long.parseLong(f[14])) * 10;
    }

    /** The fields of /proc/PID/stat, numbered from 0; the command name (field 1) may hold spaces. */
    static String[] statFields(long pid) {
        try {
            return parseStat(Files.readString(Path.of("/proc/" + pid + "/stat")));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    static String[] parseStat(String stat) {
        int close = stat.lastIndexOf(')');
        String[] rest = stat.substring(close + 2).trim().split(" ");
        String[] f = new String[rest.length + 2];
        f[0] = stat.substring(0, stat.indexOf(' '));
        f[1] = stat.substring(stat.indexOf('(') + 1, close);
        System.arraycopy(rest, 0, f, 2, rest.length);
        return f;
    }
}
