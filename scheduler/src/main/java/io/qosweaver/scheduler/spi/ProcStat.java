package io.qosweaver.scheduler.spi;

/** Reading a thread's nice value from /proc without native code (Linux only). */
public final class ProcStat {
    private ProcStat() {}

    /** The calling thread's kernel thread id from /proc/thread-self, or -1 off Linux. */
    public static int currentThreadId() {
        return ProcFallback.INSTANCE.currentNativeThreadId();
    }

    /** The nice value of thread {@code tid} of this process (field 19 of its stat file). */
    public static int nice(int tid) throws NativePriorityException {
        return ProcFallback.readNice(tid);
    }
}
