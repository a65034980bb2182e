package io.qosweaver.bench.load;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Puts the calling thread of a load driver in Linux's {@code SCHED_FIFO} class, so that the thread that
 * sends a light request and reads its answer runs the moment it wakes. Under the kernel's fair class a
 * thread that wakes waits for the running one's slice to end, up to a scheduler tick (4 ms at HZ 250),
 * even at a better nice value; on a 2-core machine the heavy driver's own threads are often the running
 * ones, so that wait (the harness's doing, and absent from the idle window) lands in the light latencies.
 * A {@code SCHED_FIFO} thread preempts every fair-class thread when it wakes.
 *
 * <p>The threads it is meant for block almost all the time (in a read or a timed park), so they take a few
 * milliseconds of CPU a second; the kernel's real-time throttling (95 % by default) bounds a runaway one.
 * {@code SCHED_RESET_ON_FORK} is set with it: a thread such a thread creates starts in the fair class.
 *
 * <p>It needs {@code CAP_SYS_NICE} or an {@code RLIMIT_RTPRIO} of at least the priority; {@link #probe}
 * says beforehand whether this process has it. Linux only.
 */
public final class RealtimeThreads {
    private static final int SCHED_FIFO = 1;
    private static final int SCHED_RESET_ON_FORK = 0x40000000;

    private RealtimeThreads() {
    }

    /** JNA's binding, loaded on first use: a machine without it (or not Linux) gets a reason, not an error. */
    private static final class Libc {
        static {
            Native.register(Libc.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
        }

        static native int sched_setscheduler(int pid, int policy, int[] param) throws LastErrorException;

        static native int sched_getscheduler(int pid) throws LastErrorException;
    }

    /**
     * Puts the calling thread in {@code SCHED_FIFO} at {@code priority}.
     *
     * @param priority 1 (the lowest real-time priority, above every fair-class thread) to 99
     * @return null when done, else why not (no privilege, not Linux, no native access)
     */
    public static String enterFifo(int priority) {
        if (priority < 1 || priority > 99) {
            throw new IllegalArgumentException("a SCHED_FIFO priority is 1..99, got " + priority);
        }
        if (!Platform.isLinux()) {
            return "SCHED_FIFO is Linux's; this is " + System.getProperty("os.name");
        }
        try {
            Libc.sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, new int[] {priority});
            return null;
        } catch (LastErrorException e) {
            return "sched_setscheduler(SCHED_FIFO, " + priority + "): " + e.getMessage()
                    + (e.getErrorCode() == 1 ? " (needs CAP_SYS_NICE or RLIMIT_RTPRIO >= " + priority + ")" : "");
        } catch (LinkageError e) {
            return "no native access through JNA: " + e;
        }
    }

    /** Whether the calling thread is in {@code SCHED_FIFO}; false where that cannot be read. */
    public static boolean isFifo() {
        try {
            return Platform.isLinux() && (Libc.sched_getscheduler(0) & 0xff) == SCHED_FIFO;
        } catch (LastErrorException | LinkageError e) {
            return false;
        }
    }

    /**
     * Whether this process may put a thread in {@code SCHED_FIFO} at {@code priority}: tried on a thread of
     * its own, which ends at once, so no thread of the caller's changes class.
     *
     * @return null when it may, else why not
     */
    public static String probe(int priority) {
        AtomicReference<String> reason = new AtomicReference<>();
        Thread t = new Thread(() -> reason.set(enterFifo(priority)), "qosweaver-fifo-probe");
        t.setDaemon(true);
        t.start();
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
        return reason.get();
    }
}
