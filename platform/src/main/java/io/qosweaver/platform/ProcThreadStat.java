package io.qosweaver.platform;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * One reading of a thread's {@code /proc/PID/task/TID/stat} and {@code schedstat}: what the kernel
 * says the thread is doing (running, runnable, sleeping, blocked in I/O), how much CPU it has used
 * and how long it has waited on a run queue for a CPU. Reading costs two small file reads (a few
 * microseconds): sample at a stated rate, never on a hot path.
 *
 * @param tid the kernel thread id
 * @param state the state letter of field 3: {@code R} running or runnable, {@code S} sleeping,
 *     {@code D} uninterruptible (usually I/O), {@code T} stopped, {@code Z} zombie, ...
 * @param nice field 19, in [-20, 19]
 * @param processor field 39: the CPU the thread last ran on
 * @param cpuNanos time on a CPU from schedstat (nanoseconds; -1 when the kernel has no schedstat)
 * @param runQueueWaitNanos time runnable but waiting for a CPU, from schedstat (-1 when unknown)
 * @param timeslices times the thread was scheduled onto a CPU, from schedstat (-1 when unknown)
 */
public record ProcThreadStat(int tid, char state, int nice, int processor, long cpuNanos,
        long runQueueWaitNanos, long timeslices) {

    /** Running or waiting for a CPU: the kernel's {@code R}. */
    public boolean runnable() {
        return state == 'R';
    }

    /** A thread of this process, or {@code null} when it does not exist (it ended) or off Linux. */
    public static ProcThreadStat read(int tid) {
        return read(Path.of("/proc/self/task/" + tid), tid);
    }

    /** A thread of any process the caller may read, or {@code null}. */
    public static ProcThreadStat read(long pid, int tid) {
        return read(Path.of("/proc/" + pid + "/task/" + tid), tid);
    }

    static ProcThreadStat read(Path taskDir, int tid) {
        String stat;
        try {
            stat = Files.readString(taskDir.resolve("stat"), StandardCharsets.US_ASCII);
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            return null;
        }
        ProcThreadStat s = parse(tid, stat);
        if (s == null) {
            return null;
        }
        long[] sched = {-1, -1, -1};
        try {
            String[] f = Files.readString(taskDir.resolve("schedstat"), StandardCharsets.US_ASCII).trim().split(" ");
            for (int i = 0; i < 3 && i < f.length; i++) {
                sched[i] = Long.parseLong(f[i]);
            }
        } catch (IOException | RuntimeException e) {
            // kernels without CONFIG_SCHEDSTATS: the stat fields are still good
        }
        return new ProcThreadStat(tid, s.state, s.nice, s.processor, sched[0], sched[1], sched[2]);
    }

    /**
     * Parses a stat line. The command name (field 2) may hold spaces and parentheses, so fields 3
     * onwards start after the last ')'.
     */
    static ProcThreadStat parse(int tid, String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 > stat.length()) {
            return null;
        }
        String[] f = stat.substring(close + 2).trim().split(" ");
        try {
            char state = f[0].charAt(0);
            int nice = Integer.parseInt(f[19 - 3]);
            int processor = f.length > 39 - 3 ? Integer.parseInt(f[39 - 3]) : -1;
            return new ProcThreadStat(tid, state, nice, processor, -1, -1, -1);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The nice value of thread {@code tid} of this process. */
    public static int nice(int tid) throws NativePriorityException {
        ProcThreadStat s = read(tid);
        if (s == null) {
            throw new NativePriorityException("cannot read the nice value of thread " + tid
                    + " (no /proc/self/task/" + tid + "/stat)", NativePriorityException.ESRCH);
        }
        return s.nice();
    }
}
