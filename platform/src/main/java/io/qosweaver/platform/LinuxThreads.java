package io.qosweaver.platform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Kernel thread ids without native code. Java 17 cannot ask for the calling thread's TID
 * ({@code gettid(2)}) and offers no way at all to learn another thread's: a caller that needs a
 * thread's TID resolves it on that thread and keeps it.
 */
public final class LinuxThreads {
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");

    private LinuxThreads() {}

    /**
     * The calling thread's kernel thread id, from {@code readlink /proc/thread-self} ("PID/task/TID",
     * Linux 3.17+; a few microseconds: resolve once per thread), or -1 when it cannot be known.
     * For a virtual thread this is its current carrier's id.
     */
    public static int currentTid() {
        try {
            String link = Files.readSymbolicLink(THREAD_SELF).toString();
            return Integer.parseInt(link.substring(link.lastIndexOf('/') + 1));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** This process's id, -1 when unknown. */
    public static long pid() {
        try {
            return ProcessHandle.current().pid();
        } catch (RuntimeException e) {
            return -1;
        }
    }
}
