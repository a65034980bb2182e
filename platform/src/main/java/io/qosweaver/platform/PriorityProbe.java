package io.qosweaver.platform;

import java.util.function.Function;

/**
 * Tries a change of OS priority and its undoing on a throw-away thread before anything is applied to the
 * application's threads. Lowering a priority (a higher nice value, {@code SCHED_IDLE}) needs no privilege;
 * raising it back does (root, CAP_SYS_NICE, or RLIMIT_NICE), and a thread left lowered for good is slow for
 * good. Used by the policies' per-thread priorities and by the agent's rest for the JIT's compiler threads.
 */
public final class PriorityProbe {
    private PriorityProbe() {}

    /** The changes to try, on the probe thread, whose kernel id is {@code tid}. */
    @FunctionalInterface
    public interface Steps {
        void run(int tid) throws NativePriorityException;
    }

    /**
     * Runs {@code steps} on a new daemon thread named {@code threadName} and waits for it (at most 5 s).
     *
     * @param describe what to say of a call that failed
     * @return null when every step ran; else why not
     */
    public static String run(NativeThreads nt, String threadName, Steps steps,
            Function<NativePriorityException, String> describe) {
        String[] failure = {"the probe thread did not finish"};
        Thread t = new Thread(() -> {
            int tid = nt.currentNativeThreadId();
            if (tid <= 0) {
                failure[0] = "cannot find the native thread id";
                return;
            }
            try {
                steps.run(tid);
                failure[0] = null;
            } catch (NativePriorityException e) {
                failure[0] = describe.apply(e);
            }
        }, threadName);
        t.setDaemon(true);
        t.start();
        try {
            t.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return failure[0];
    }
}
