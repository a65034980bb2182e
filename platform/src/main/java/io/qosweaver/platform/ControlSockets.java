package io.qosweaver.platform;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a JVM running the agent keeps its local control socket, so that the agent and {@code
 * qosweaver ctl} agree on it: {@code /tmp/qosweaver-UID/PID.sock}, one directory per user, which
 * only that user can enter (the agent creates it mode 700 and refuses one that is not). {@code
 * /tmp} and not {@code java.io.tmpdir}: the application may set its own, and the CLI cannot know
 * it (the JDK's attach mechanism uses {@code /tmp} for the same reason).
 */
public final class ControlSockets {
    private ControlSockets() {}

    /** This user's directory. */
    public static Path directory() throws IOException {
        return directory(Path.of("/tmp"), uid());
    }

    /** The directory of user {@code uid} under {@code base}. */
    public static Path directory(Path base, int uid) {
        return base.resolve("qosweaver-" + uid);
    }

    /** The socket of the JVM with process id {@code pid} in {@code dir}. */
    public static Path socketOf(Path dir, long pid) {
        return dir.resolve(pid + ".sock");
    }

    /** The real user id of this process, from {@code /proc/self} (Linux). */
    public static int uid() throws IOException {
        try {
            return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            throw new IOException("cannot tell this process's user id (the local control needs Linux): " + e, e);
        }
    }
}
