package io.qosweaver.agent.natives.jna;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import io.qosweaver.platform.LinuxThreads;
import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.platform.ProcThreadStat;

/**
 * {@link NativeThreads} on Linux through JNA direct mapping of libc: {@code syscall(SYS_gettid)},
 * {@code setpriority(PRIO_PROCESS, tid, nice)} and {@code getpriority(PRIO_PROCESS, tid)} (with
 * PRIO_PROCESS a TID addresses one thread on Linux), {@code sched_get/setscheduler} (SCHED_IDLE),
 * {@code sched_getcpu} and {@code sched_get/setaffinity}.
 *
 * <p>This class links JNA, so it must only ever be loaded by the private class loader of {@code
 * io.qosweaver.agent.natives.NativePriorities}, which also holds the nested JNA; nothing in the
 * agent's own loader refers to it except by name. It implements only the bootstrap SPI interface.
 *
 * <p>Direct mapping (static native methods bound by {@link Native#register}) is JNA's fastest
 * path: no proxy, no argument arrays; an exception is allocated only on error. JNA clears errno
 * before each call declared {@code throws LastErrorException} and throws when it is non-zero
 * after, which is also what tells getpriority's legitimate -1 from an error.
 */
public final class JnaNativeThreads implements NativeThreads {
    private static final int PRIO_PROCESS = 0;
    private static final int SCHED_OTHER = 0, SCHED_IDLE = 5;
    /** struct sched_param with priority 0, the only one SCHED_OTHER and SCHED_IDLE take; only read. */
    private static final int[] NO_PRIORITY = {0};
    /** SYS_gettid, or -1 on an architecture whose number we do not know (then /proc/thread-self). */
    static final long SYS_GETTID = gettidNumber(System.getProperty("os.arch", ""));
    private static final boolean SIZE_T_64 = Native.SIZE_T_SIZE == 8;

    static {
        Native.register(JnaNativeThreads.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
    }

    private static native long syscall(long number) throws LastErrorException;

    private static native int setpriority(int which, int who, int prio) throws LastErrorException;

    private static native int getpriority(int which, int who) throws LastErrorException;

    private static native int sched_getcpu();

    private static native int sched_setscheduler(int pid, int policy, int[] param) throws LastErrorException;

    private static native int sched_getscheduler(int pid) throws LastErrorException;

    private static native int sched_getaffinity(int pid, long cpusetsize, long[] mask);

    private static native int sched_setaffinity(int pid, long cpusetsize, long[] mask);

    public JnaNativeThreads() {}

    static long gettidNumber(String arch) {
        return switch (arch) {
            case "amd64", "x86_64" -> 186;
            case "aarch64", "arm64" -> 178;
            default -> -1;
        };
    }

    @Override
    public boolean available() {
        return true;
    }

    @Override
    public String unavailableReason() {
        return null;
    }

    @Override
    public int currentNativeThreadId() {
        if (SYS_GETTID < 0) {
            return LinuxThreads.currentTid();
        }
        try {
            return (int) syscall(SYS_GETTID);
        } catch (LastErrorException e) {
            return -1;
        }
    }

    @Override
    public void setNice(int tid, int nice) throws NativePriorityException {
        try {
            setpriority(PRIO_PROCESS, tid, nice);
        } catch (LastErrorException e) {
            throw new NativePriorityException("setpriority(PRIO_PROCESS, " + tid + ", " + nice + "): "
                    + e.getMessage(), e.getErrorCode());
        }
    }

    @Override
    public int getNice(int tid) throws NativePriorityException {
        try {
            return getpriority(PRIO_PROCESS, tid);
        } catch (LastErrorException e) {
            throw new NativePriorityException("getpriority(PRIO_PROCESS, " + tid + "): " + e.getMessage(),
                    e.getErrorCode());
        }
    }

    @Override
    public void setIdle(int tid, boolean idle) throws NativePriorityException {
        int policy = idle ? SCHED_IDLE : SCHED_OTHER;
        try {
            sched_setscheduler(tid, policy, NO_PRIORITY);
        } catch (LastErrorException e) {
            throw new NativePriorityException("sched_setscheduler(" + tid + ", " + (idle ? "SCHED_IDLE" : "SCHED_OTHER")
                    + "): " + e.getMessage(), e.getErrorCode());
        }
    }

    @Override
    public boolean isIdle(int tid) throws NativePriorityException {
        try {
            // the kernel may or in SCHED_RESET_ON_FORK (0x40000000)
            return (sched_getscheduler(tid) & 0xff) == SCHED_IDLE;
        } catch (LastErrorException e) {
            throw new NativePriorityException("sched_getscheduler(" + tid + "): " + e.getMessage(), e.getErrorCode());
        }
    }

    @Override
    public int currentCpu() {
        return sched_getcpu();
    }

    // size_t is 64 bits on the architectures this class knows (SYS_gettid's); the mask's bytes are
    // the kernel's cpu_set_t (an array of unsigned longs, CPU i at bit i % 64 of word i / 64).
    @Override
    public boolean getAffinityMask(int tid, long[] mask) {
        return SIZE_T_64 && sched_getaffinity(tid, mask.length * 8L, mask) >= 0;
    }

    @Override
    public boolean setAffinityMask(int tid, long[] mask) {
        return SIZE_T_64 && sched_setaffinity(tid, mask.length * 8L, mask) == 0;
    }

    @Override
    public void setAffinity(int tid, int[] cpus) throws NativePriorityException {
        long[] mask = new long[16];
        for (int c : cpus) {
            if (c < 0 || c >= mask.length * 64) {
                throw new NativePriorityException("CPU " + c + " is out of range 0.." + (mask.length * 64 - 1), 0);
            }
            mask[c >>> 6] |= 1L << (c & 63);
        }
        if (!setAffinityMask(tid, mask)) {
            throw new NativePriorityException("sched_setaffinity(" + tid + ", " + java.util.Arrays.toString(cpus)
                    + ") failed", 0);
        }
    }

    @Override
    public String toString() {
        return "JNA " + Native.VERSION + " (libjnidispatch " + Native.VERSION_NATIVE + "), SYS_gettid "
                + (SYS_GETTID < 0 ? "unknown: /proc/thread-self" : SYS_GETTID);
    }
}
