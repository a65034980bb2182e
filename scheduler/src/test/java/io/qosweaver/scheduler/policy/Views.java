package io.qosweaver.scheduler.policy;

import io.qosweaver.platform.JavaPriorities;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.platform.ThreadCpuClock;
import io.qosweaver.scheduler.spi.Parameters;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.ThreadView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Test views of threads and task classes, and policy contexts, for driving policies directly. */
final class Views {
    private Views() {}

    static final List<String> WARNINGS = new ArrayList<>();

    static PolicyContext context(String policy, Map<String, String> parameters) {
        return context(policy, parameters, NativeThreads.get());
    }

    static PolicyContext context(String policy, Map<String, String> parameters, int cores) {
        return new PolicyContext(new Parameters(policy, parameters), System::nanoTime, NativeThreads.get(),
                JavaPriorities::ofThisJvm, ThreadCpuClock.jvm(), WARNINGS::add, cores);
    }

    static PolicyContext context(String policy, Map<String, String> parameters, NativeThreads nt) {
        return new PolicyContext(new Parameters(policy, parameters), System::nanoTime, nt,
                JavaPriorities::ofThisJvm, ThreadCpuClock.jvm(), WARNINGS::add);
    }

    static TaskClass cls(String name, int rank) {
        return new TaskClass() {
            @Override public String name() { return name; }
            @Override public String attribute(String key) { return null; }
            @Override public int rank() { return rank; }
            @Override public int members() { return 0; }
            @Override public long completed() { return 0; }
            @Override public long progress() { return 0; }
            @Override public String toString() { return name; }
        };
    }

    /** A task class whose counters the test sets. */
    static final class Counted implements TaskClass {
        private final String name;
        private final int rank;
        int members;
        long completed, progress;

        Counted(String name, int rank) {
            this.name = name;
            this.rank = rank;
        }

        @Override public String name() { return name; }
        @Override public String attribute(String key) { return null; }
        @Override public int rank() { return rank; }
        @Override public int members() { return members; }
        @Override public long completed() { return completed; }
        @Override public long progress() { return progress; }
        @Override public String toString() { return name; }
    }

    static ThreadView thread(String name) {
        return of(new Thread(() -> {}, name));
    }

    /** A view of {@code th}, with no role, for driving a policy's per-thread state directly. */
    static ThreadView of(Thread th) {
        return new ThreadView() {
            Object slot;

            @Override public Thread thread() { return th; }
            @Override public TaskClass role() { return null; }
            @Override public boolean yieldFlag() { return false; }
            @Override public boolean parked() { return false; }
            @Override public Object slot() { return slot; }
            @Override public void setSlot(Object s) { slot = s; }
            @Override public long order() { return 0; }
        };
    }
}
