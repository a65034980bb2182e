package io.qosweaver.testtargets.profiled;

/**
 * A profiled class whose code the probe itself runs: the probe reads {@link Thread#getId()} of a
 * thread it meets for the first time, and this override makes a profiled call there. Without the
 * probe's recursion guard, that call enters the probe again from inside the probe (ProfilingSessionTest).
 */
public final class ReentrantThread extends Thread {
    public volatile int calls;

    public ReentrantThread(Runnable r) {
        super(r, "reentrant");
    }

    @Override
    @SuppressWarnings("deprecation") // overridable until JDK 19 deprecated it; the probe calls it
    public long getId() {
        calls = Calls.leaf(calls);
        return super.getId();
    }
}
