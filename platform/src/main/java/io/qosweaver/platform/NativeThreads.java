package io.qosweaver.platform;

/**
 * Native (OS) thread priorities and affinity. The platform has no dependencies and Java 17 has no
 * FFI, so the native part is plugged in from outside: the agent (which may use JNA) calls
 * {@link #register} before a policy is installed. Until then {@link #get()} returns the built-in
 * fallback, which reads thread ids and nice values from {@code /proc} but cannot set them (see
 * {@link #unavailableReason()}).
 *
 * <p>Units: a thread id is the kernel's TID (what {@code gettid(2)} returns, the {@code TID} in
 * {@code /proc/PID/task/TID}); a nice value is in [-20, 19], lower meaning more CPU (CFS weight
 * 88761 at -20, 1024 at 0, 15 at 19); a CPU set is an array of CPU numbers as in
 * {@code /proc/cpuinfo}.
 *
 * <p>Implementations must be thread-safe, must not allocate much (priorities change at scope
 * entry and exit of a managed thread) and must never block.
 */
public interface NativeThreads {

    /** Whether {@link #setNice} can work at all (a permission check is separate: EPERM). */
    boolean available();

    /** Why {@link #setNice} cannot work, or {@code null} when {@link #available()}. */
    String unavailableReason();

    /** The calling thread's kernel thread id, or -1 when it cannot be known. */
    int currentNativeThreadId();

    /**
     * Sets the nice value of a thread of this process ({@code setpriority(PRIO_PROCESS, tid,
     * nice)} on Linux, where PRIO_PROCESS with a TID addresses one thread).
     *
     * @throws NativePriorityException with the errno; {@link NativePriorityException#permissionDenied()}
     *     when the process may not raise priorities (no root, no CAP_SYS_NICE, RLIMIT_NICE too low)
     */
    void setNice(int tid, int nice) throws NativePriorityException;

    /** The nice value of a thread of this process. */
    int getNice(int tid) throws NativePriorityException;

    /**
     * Puts a thread of this process into Linux's {@code SCHED_IDLE} policy or back into
     * {@code SCHED_OTHER} ({@code sched_setscheduler(tid, ...)}), its nice value untouched. A thread
     * in {@code SCHED_IDLE} runs only on CPU time no normal thread wants, and any normal thread that
     * wakes takes its CPU at once; nice 19 still holds a CPU for the rest of its slice (up to a tick).
     * Leaving it needs the same privilege as raising the nice value back (root, CAP_SYS_NICE or
     * RLIMIT_NICE). Implementations that cannot do it keep this default.
     *
     * @throws NativePriorityException always in the default: not supported here
     */
    default void setIdle(int tid, boolean idle) throws NativePriorityException {
        throw new NativePriorityException("SCHED_IDLE is not supported by " + getClass().getSimpleName(), 0);
    }

    /** Whether a thread of this process is in {@code SCHED_IDLE}; false where that cannot be known. */
    default boolean isIdle(int tid) throws NativePriorityException {
        return false;
    }

    /**
     * Restricts a thread (or, with a process id, a whole process) to the given CPUs
     * ({@code sched_setaffinity}). Implementations that cannot do it keep this default.
     *
     * @throws NativePriorityException always in the default: not supported here
     */
    default void setAffinity(int tid, int[] cpus) throws NativePriorityException {
        throw new NativePriorityException("CPU affinity is not supported by " + getClass().getSimpleName(), 0);
    }

    /** The CPU the calling thread runs on now ({@code sched_getcpu}), or -1 when it cannot be known. */
    default int currentCpu() {
        return -1;
    }

    /**
     * Reads a thread's CPU mask ({@code sched_getaffinity}) into {@code mask}, CPU i being bit
     * {@code i % 64} of {@code mask[i / 64]}; false when not supported or it failed. Never throws and
     * allocates nothing (the scheduler calls it when it hands a CPU from one thread to another).
     */
    default boolean getAffinityMask(int tid, long[] mask) {
        return false;
    }

    /** Sets a thread's CPU mask ({@code sched_setaffinity}), as {@link #getAffinityMask}; false when it did not. */
    default boolean setAffinityMask(int tid, long[] mask) {
        return false;
    }

    /**
     * Makes {@code impl} the implementation returned by {@link #get()} ({@code null} goes back to
     * the fallback). Policies read it when they are created, so register before installing.
     */
    static void register(NativeThreads impl) {
        Registry.current = impl == null ? ProcFallback.INSTANCE : impl;
    }

    /** The registered implementation, or the {@code /proc} fallback. */
    static NativeThreads get() {
        return Registry.current;
    }

    /** The pure-Java fallback: reads {@code /proc}, cannot set anything. */
    static NativeThreads fallback() {
        return ProcFallback.INSTANCE;
    }
}

/** Holder of the registration (interfaces cannot hold mutable static state). */
final class Registry {
    static volatile NativeThreads current = ProcFallback.INSTANCE;

    private Registry() {}
}
