package io.qosweaver.platform;

import java.io.IOException;
import java.io.RandomAccessFile;

/**
 * How many threads of the whole machine are runnable at this instant (running or waiting for a
 * CPU): what a policy asks to know whether anything it does not manage wants the CPU it holds back
 * for it. Linux: the kernel's {@code nr_running}, the numerator of {@code /proc/loadavg}'s fourth
 * field, counted when the file is read (a few microseconds; the file is kept open and re-read from
 * its start, so a reading allocates nothing).
 */
public interface MachineLoad {

    /** Runnable threads on the machine now, the reader included, or -1 when unknown. */
    int runnableThreads();

    /** Unknown everywhere: policies then behave as if every CPU were wanted. */
    MachineLoad UNKNOWN = () -> -1;

    /** {@code /proc/loadavg} (one open file for the JVM), or {@link #UNKNOWN} when it cannot be read. */
    static MachineLoad linux() {
        return LoadAvg.SHARED;
    }
}

/**
 * {@code /proc/loadavg} behind {@link MachineLoad}. One instance for the JVM, so that schedulers
 * re-created by every swap do not each hold a descriptor; readers (ticks, one per scheduler, rarely
 * two during a swap) take its monitor, uncontended in practice.
 */
final class LoadAvg implements MachineLoad {
    static final MachineLoad SHARED = open();
    private final RandomAccessFile file;
    private final byte[] buf = new byte[128];

    private LoadAvg(RandomAccessFile file) {
        this.file = file;
    }

    static MachineLoad open() {
        try {
            LoadAvg l = new LoadAvg(new RandomAccessFile("/proc/loadavg", "r"));
            return l.runnableThreads() > 0 ? l : UNKNOWN;
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    @Override
    public synchronized int runnableThreads() {
        try {
            file.seek(0); // a seq_file: reading from 0 again renders it afresh
            int n = file.read(buf, 0, buf.length);
            return n <= 0 ? -1 : parse(buf, n);
        } catch (IOException e) {
            return -1;
        }
    }

    /** "0.52 0.58 0.59 3/467 12345": the number before the slash; -1 when the text is not that. */
    static int parse(byte[] b, int n) {
        int fields = 0;
        int i = 0;
        while (i < n && fields < 3) { // skip the three load averages
            while (i < n && b[i] != ' ') {
                i++;
            }
            while (i < n && b[i] == ' ') {
                i++;
            }
            fields++;
        }
        int v = 0;
        int digits = 0;
        for (; i < n && b[i] >= '0' && b[i] <= '9'; i++, digits++) {
            v = v * 10 + (b[i] - '0');
        }
        return digits > 0 && i < n && b[i] == '/' ? v : -1;
    }
}
