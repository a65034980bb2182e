package io.qosweaver.agent.runtime;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.natives.NativePriorities;
import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs a change of weaving (a swap, an unweave) at a raised OS priority when the JVM may raise one
 * (root, or CAP_SYS_NICE), and puts the thread's nice value back when the change is done.
 *
 * <p>Why: matching and transforming classes is CPU work on the commanding thread, and a change is
 * most needed when the application saturates the CPUs. Under the river monitor's flash crowd (40
 * runnable chart threads on 2 cores) the thread got about 1/20 of a core, and a swap that takes
 * 0.5 s idle took 10-20 s. At nice {@value #NICE} (CFS weight 88761, against 1024 for each thread
 * at nice 0) it gets a core for the few hundred milliseconds it needs. Without the permission
 * nothing changes; that is said once. On JDK 24 and later the native call would make the JVM
 * print its restricted-method warning unless native access is enabled at its start, so there the
 * priority is raised only with {@code --enable-native-access=ALL-UNNAMED} (also said once).
 */
final class WeavingPriority implements AutoCloseable {
    static final int NICE = -20;
    private static final AtomicBoolean TOLD = new AtomicBoolean();

    private final NativeThreads natives;
    private final int tid;
    private final int before;

    private WeavingPriority(NativeThreads natives, int tid, int before) {
        this.natives = natives;
        this.tid = tid;
        this.before = before;
    }

    /** Raises the calling thread's priority if it may; {@link #close} restores it. */
    static WeavingPriority raise(AgentLog log) {
        NativeThreads natives = NativeThreads.get();
        if (NativePriorities.loadingWouldWarn()) {
            tell(log, "native calls would make this JDK print its restricted-method warning; start the JVM with"
                    + " --enable-native-access=ALL-UNNAMED to allow them");
            return new WeavingPriority(natives, -1, 0);
        }
        int tid = natives.currentNativeThreadId();
        if (!natives.available() || tid < 0) {
            tell(log, natives.available() ? "the thread id is unknown" : natives.unavailableReason());
            return new WeavingPriority(natives, -1, 0);
        }
        try {
            int before = natives.getNice(tid);
            natives.setNice(tid, NICE);
            return new WeavingPriority(natives, tid, before);
        } catch (NativePriorityException e) {
            tell(log, e.permissionDenied() ? "the JVM may not raise priorities (no root, no CAP_SYS_NICE)" : e.getMessage());
            return new WeavingPriority(natives, -1, 0);
        }
    }

    /** Forgets that it was said (tests: each starts as a fresh JVM would). */
    static void forgetTold() {
        TOLD.set(false);
    }

    /** Whether the priority was raised. */
    boolean raised() {
        return tid >= 0;
    }

    private static void tell(AgentLog log, String why) {
        if (TOLD.compareAndSet(false, true)) {
            log.info("weaving changes run at the JVM's own priority (" + why + "): under a CPU-saturating load a"
                    + " swap or unweave takes longer");
        }
    }

    @Override
    public void close() {
        if (tid >= 0) {
            try {
                natives.setNice(tid, before);
            } catch (NativePriorityException e) {
                // the thread is the control socket's; it only runs commands, so a raised nice is harmless
            }
        }
    }
}
