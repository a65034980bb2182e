package io.qosweaver.trace.os;

import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * Reads a thread's {@code stat} and {@code schedstat} into one reused buffer and parses them in
 * place: what {@code ProcThreadStat} does, without its strings, splits and {@code Path}s, because
 * the sampler does it for every thread a hundred times a second. The fields kept are the state
 * letter (field 3), the CPU last run on (field 39), time on a CPU and time waiting on a run queue.
 *
 * <p>Each thread's two files stay open ({@link Files}) and are read again from offset 0 (the
 * kernel regenerates them on every read): two syscalls a file instead of four and a path lookup.
 */
final class ProcReader {
    /** A thread's open files; closed when the thread is gone or the sampler stops. */
    static final class Files implements AutoCloseable {
        final RandomAccessFile stat;
        final RandomAccessFile schedstat;

        Files(String taskDir) throws IOException {
            stat = new RandomAccessFile(taskDir + "/stat", "r");
            RandomAccessFile s = null;
            try {
                s = new RandomAccessFile(taskDir + "/schedstat", "r");
            } catch (IOException e) {
                // kernels without CONFIG_SCHEDSTATS: stat alone
            }
            schedstat = s;
        }

        @Override
        public void close() {
            try {
                stat.close();
                if (schedstat != null) {
                    schedstat.close();
                }
            } catch (IOException e) {
                // nothing to do
            }
        }
    }

    private final byte[] buf = new byte[1024];
    char state;
    int processor;
    long cpuNanos;
    long waitNanos;

    static final int GONE = 0;
    static final int UNCHANGED = 1;
    static final int READ = 2;

    /**
     * Reads schedstat, and stat only when schedstat moved since {@code prevCpu}/{@code prevWait}:
     * a thread that neither ran nor waited for a CPU since cannot have changed state (going from
     * sleeping to blocked in I/O, or to another CPU, takes running), so an idle thread costs one
     * cheap read. Pass -1 to force reading both.
     *
     * @return {@link #GONE} (the thread ended), {@link #UNCHANGED}, or {@link #READ} (every field fresh)
     */
    int read(Files f, long prevCpu, long prevWait) {
        cpuNanos = -1;
        waitNanos = -1;
        if (f.schedstat != null) {
            int n = slurp(f.schedstat);
            if (n <= 0) {
                return GONE;
            }
            long[] two = this.two;
            two[0] = -1;
            two[1] = -1;
            int k = 0;
            long value = 0;
            boolean inNumber = false;
            for (int i = 0; i < n && k < 2; i++) {
                byte b = buf[i];
                if (b >= '0' && b <= '9') {
                    value = value * 10 + (b - '0');
                    inNumber = true;
                } else if (inNumber) {
                    two[k++] = value;
                    value = 0;
                    inNumber = false;
                }
            }
            cpuNanos = two[0];
            waitNanos = two[1];
            if (prevCpu >= 0 && cpuNanos == prevCpu && waitNanos == prevWait) {
                return UNCHANGED;
            }
        }
        return readStat(f) ? READ : GONE;
    }

    private final long[] two = new long[2];

    private boolean readStat(Files f) {
        int n = slurp(f.stat);
        if (n <= 0) {
            return false;
        }
        int close = -1;
        for (int i = n - 1; i >= 0; i--) {
            if (buf[i] == ')') {
                close = i;
                break;
            }
        }
        if (close < 0 || close + 2 >= n) {
            return false;
        }
        int field = 3;
        int i = close + 2;
        state = (char) buf[i];
        processor = -1;
        long value = 0;
        boolean inNumber = false;
        for (; i < n; i++) {
            byte b = buf[i];
            if (b == ' ' || b == '\n') {
                if (field == 39 && inNumber) {
                    processor = (int) value;
                    break;
                }
                field++;
                value = 0;
                inNumber = false;
            } else if (b >= '0' && b <= '9') {
                value = value * 10 + (b - '0');
                inNumber = true;
            }
        }
        return true;
    }

    private int slurp(RandomAccessFile f) {
        try {
            f.seek(0);
            int n = 0;
            int r;
            while (n < buf.length && (r = f.read(buf, n, buf.length - n)) > 0) {
                n += r;
            }
            return n;
        } catch (IOException e) {
            return -1; // ESRCH: the thread ended
        }
    }
}
