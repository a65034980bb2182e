package io.qosweaver.scheduler.core;

import java.util.List;
import java.util.function.Function;

/** Effects that record each wake as text ("wake b", "wake b in place of a"), threads named by the test. */
final class RecordingEffects implements Effects {
    private final List<String> log;
    private final Function<ThreadState, String> name;

    RecordingEffects(List<String> log, Function<ThreadState, String> name) {
        this.log = log;
        this.name = name;
    }

    @Override
    public void pendingChanged(int delta) {}

    @Override
    public void wake(ThreadState t) {
        log.add("wake " + name.apply(t));
    }

    @Override
    public void wakeInPlaceOf(ThreadState t, ThreadState predecessor) {
        log.add("wake " + name.apply(t) + " in place of " + name.apply(predecessor));
    }
}
