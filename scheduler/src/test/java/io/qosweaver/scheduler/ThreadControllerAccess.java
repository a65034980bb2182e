package io.qosweaver.scheduler;

/** Test helper: the calling thread's scope depth. */
final class ThreadControllerAccess {
    private ThreadControllerAccess() {}

    static int depth() {
        ManagedThread t = QoS.STATE.get();
        return t == null ? 0 : t.depth;
    }
}
