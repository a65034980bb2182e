package io.qosweaver.scheduler.spi;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The built-in {@link NativeThreads}: pure Java, reads {@code /proc}, cannot set priorities.
 *
 * <p>The thread id comes from {@code readlink /proc/thread-self} ("PID/task/TID", Linux 3.17+)
 * and a nice value from field 19 of {@code /proc/self/task/TID/stat}. Setting one has no
 * pure-Java path that is fit for a per-request call: {@code /proc} has no writable per-thread nice
 * file ({@code /proc/PID/autogroup} sets the nice of a whole session's autogroup, not of a thread);
 * {@code Thread.setPriority} reaches the kernel only with {@code -XX:ThreadPriorityPolicy=1} and
 * then only as nice -5..4, which is the java-priority baseline, not this one; running
 * {@code renice -n N -p TID} forks a process per scope entry and exit (milliseconds each), which
 * would measure the fork rather than the priority; moving threads between cgroups changes weights,
 * not nice. So this fallback reports itself unavailable and the linux-priority policy says so.
 */
final class ProcFallback implements NativeThreads {
    static final ProcFallback INSTANCE = new ProcFallback();
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

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
        try {
            String link = Files.readSymbolicLink(THREAD_SELF).toString(); // "PID/task/TID"
            return Integer.parseInt(link.substring(link.lastIndexOf('/') + 1));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    @Override
    public void setNice(int tid, int nice) throws NativePriorityException {
        throw new NativePriorityException(unavailableReason(), 0);
    }

    @Override
    public int getNice(int tid) throws NativePriorityException {
        return readNice(tid);
    }

    /** Field 19 (nice) of /proc/self/task/TID/stat; public for other implementations' use. */
    static int readNice(int tid) throws NativePriorityException {
        try {
            String stat = new String(Files.readAllBytes(Path.of("/proc/self/task/" + tid + "/stat")),
                    StandardCharsets.US_ASCII);
            // comm (field 2) may contain spaces and parentheses: fields 3.. start after the last ')'
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return Integer.parseInt(f[19 - 3]);
        } catch (IOException | RuntimeException e) {
            throw new NativePriorityException("cannot read the nice value of thread " + tid + ": " + e, NativePriorityException.ESRCH);
        }
    }
}
