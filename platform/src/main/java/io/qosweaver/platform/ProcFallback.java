package io.qosweaver.platform;

/**
 * The built-in {@link NativeThreads}: pure Java, reads {@code /proc}, cannot set priorities.
 *
 * <p>Setting one has no pure-Java path that is fit for a per-request call: {@code /proc} has no
 * writable per-thread nice file ({@code /proc/PID/autogroup} sets the nice of a whole session's
 * autogroup, not of a thread); {@code Thread.setPriority} reaches the kernel only with
 * {@code -XX:ThreadPriorityPolicy=1} and then only as nice -5..4, which is the java-priority
 * baseline, not this one; running {@code renice -n N -p TID} forks a process per scope entry and
 * exit (milliseconds each), which would measure the fork rather than the priority; moving threads
 * between cgroups changes weights, not nice. So this fallback reports itself unavailable.
 */
final class ProcFallback implements NativeThreads {
    static final ProcFallback INSTANCE = new ProcFallback();

    private ProcFallback() {}

    @Override
    public boolean available() {
        return false;
    }

    @Override
    public String unavailableReason() {
        return "no native implementation registered (Java 17 has no FFI and /proc has no per-thread"
                + " nice file; register one with NativeThreads.register, e.g. the agent's JNA one)";
    }

    @Override
    public int currentNativeThreadId() {
        return LinuxThreads.currentTid();
    }

    @Override
    public void setNice(int tid, int nice) throws NativePriorityException {
        throw new NativePriorityException(unavailableReason(), 0);
    }

    @Override
    public int getNice(int tid) throws NativePriorityException {
        return ProcThreadStat.nice(tid);
    }
}
