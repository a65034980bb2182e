package io.qosweaver.bench.app;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;

/**
 * The nice value of one of the harness's own threads ({@code setpriority(PRIO_PROCESS, tid, nice)}, which
 * on Linux addresses a single thread): for harness threads that must not compete with the app they
 * measure. Lowering a priority needs no privilege. Linux only; elsewhere a reason, not an error.
 */
final class OsNice {
    private static final int PRIO_PROCESS = 0;

    private OsNice() {
    }

    /** JNA's binding, loaded on first use. */
    private static final class Libc {
        static {
            Native.register(Libc.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
        }

        static native int setpriority(int which, int who, int prio) throws LastErrorException;
    }

    /** @return null when thread {@code tid} of this process now runs at {@code nice}, else why not */
    static String set(int tid, int nice) {
        if (!Platform.isLinux()) {
            return "per-thread nice values are Linux's; this is " + System.getProperty("os.name");
        }
        if (tid <= 0) {
            return "the thread's id is unknown";
        }
        try {
            Libc.setpriority(PRIO_PROCESS, tid, nice);
            return null;
        } catch (LastErrorException e) {
            return "setpriority(" + tid + ", " + nice + "): " + e.getMessage();
        } catch (LinkageError e) {
            return "no native access through JNA: " + e;
        }
    }
}
