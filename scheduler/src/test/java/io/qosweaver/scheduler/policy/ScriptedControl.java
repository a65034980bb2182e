package io.qosweaver.scheduler.policy;

import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.ThreadView;
import java.util.ArrayList;
import java.util.List;

/** Records the calls a policy makes, as text; answers queries with what it was told. */
final class ScriptedControl implements Control {
    final List<String> calls = new ArrayList<>();
    int limit = UNLIMITED;
    /** The scheduler's clock as the test sets it. */
    long now;
    final java.util.Map<String, Integer> caps = new java.util.HashMap<>();

    private static String name(ThreadView t) {
        return t.thread().getName();
    }

    private static String permits(int p) {
        return p == UNLIMITED ? "unlimited" : Integer.toString(p);
    }

    @Override public void admit(ThreadView t) { calls.add("admit " + name(t)); }
    @Override public void admitAtEntry(ThreadView t) { calls.add("admitAtEntry " + name(t)); }
    @Override public void release(ThreadView t) { calls.add("release " + name(t)); }
    @Override public void setLimit(int permits) { limit = permits; calls.add("limit " + permits(permits)); }
    @Override public void setLimitWithoutPreemption(int permits) {
        limit = permits;
        calls.add("limitNoPreempt " + permits(permits));
    }
    @Override public int limit() { return limit; }
    @Override public void setCap(TaskClass c, int permits) {
        caps.put(c.name(), permits);
        calls.add("cap " + c.name() + " " + permits(permits));
    }
    @Override public int cap(TaskClass c) { return caps.getOrDefault(c.name(), UNLIMITED); }
    @Override public void setPacing(TaskClass c, long nanos) { calls.add("pacing " + c.name() + " " + nanos); }
    @Override public void setOrder(ThreadView t, long order) { calls.add("order " + name(t) + " " + order); }
    @Override public int runQueueSize() { return 0; }
    @Override public int waitQueueSize() { return 0; }
    @Override public int running(TaskClass c) { return 0; }
    @Override public long nanos() { return now; }
}
