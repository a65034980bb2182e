package io.qosweaver.agent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The JIT's compiler threads raised for a window after a retransformation, on a fake kernel and clock. */
class CompilerBoostTest {
    private static final long WINDOW = 30_000_000_000L;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final AgentLog log = new AgentLog(new PrintStream(out, true, StandardCharsets.UTF_8), false);
    private final AtomicLong now = new AtomicLong(1_000);
    private final List<CompilerBoost.Task> tasks = new ArrayList<>();
    private final FakeNice kernel = new FakeNice();

    private CompilerBoost boost() {
        kernel.nice.putIfAbsent(1, 0); // the thread that tries a rest value and back first
        return new CompilerBoost(() -> kernel, () -> List.copyOf(tasks), now::get, WINDOW, log);
    }

    @Test
    void raisesOnlyTheCompilerThreadsAndPutsTheirNiceBackWhenTheWindowEnds() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        tasks.add(new CompilerBoost.Task(11, "C1 CompilerThre"));
        tasks.add(new CompilerBoost.Task(12, "qtp1234-17"));
        kernel.nice.put(10, 0);
        kernel.nice.put(11, 5);
        kernel.nice.put(12, 0);
        CompilerBoost b = boost();

        assertThat(b.begin()).isTrue();
        assertThat(kernel.nice).containsEntry(10, CompilerBoost.NICE).containsEntry(11, CompilerBoost.NICE)
                .containsEntry(12, 0);
        now.addAndGet(WINDOW - 1);
        assertThat(b.step()).isTrue();
        assertThat(kernel.nice.get(10)).isEqualTo(CompilerBoost.NICE);

        now.addAndGet(1);
        assertThat(b.step()).isFalse();
        assertThat(kernel.nice).containsEntry(10, 0).containsEntry(11, 5).containsEntry(12, 0);
        assertThat(b.raised()).isEmpty();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("compiler threads at nice -20 for 30 s");
    }

    @Test
    void aCompilerThreadStartedDuringTheWindowIsRaisedAtTheNextStepAndOneThatEndedIsNotAnError() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        kernel.nice.put(10, 0);
        CompilerBoost b = boost();
        b.begin();
        tasks.add(new CompilerBoost.Task(13, "C2 CompilerThre"));
        kernel.nice.put(13, 0);
        assertThat(b.step()).isTrue();
        assertThat(kernel.nice.get(13)).isEqualTo(CompilerBoost.NICE);

        kernel.nice.remove(10); // the JVM stopped an idle compiler thread
        now.addAndGet(WINDOW);
        assertThat(b.step()).isFalse();
        assertThat(kernel.nice).containsEntry(13, 0).doesNotContainKey(10);
    }

    @Test
    void anotherRetransformationExtendsTheWindowAndKeepsTheFirstNiceValues() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        kernel.nice.put(10, 3);
        CompilerBoost b = boost();
        b.begin();
        now.addAndGet(WINDOW / 2);
        b.begin(); // must not record -20 as the value to restore
        now.addAndGet(WINDOW / 2 + 1);
        assertThat(b.step()).isTrue();
        now.addAndGet(WINDOW / 2);
        assertThat(b.step()).isFalse();
        assertThat(kernel.nice.get(10)).isEqualTo(3);
    }

    @Test
    void aWeavingChangeRunsWithTheCompilerThreadsAtTheirOwnValuesAndTheyAreRaisedAgainAfter() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        kernel.nice.put(10, 2);
        CompilerBoost b = boost();
        b.begin();
        assertThat(kernel.nice.get(10)).isEqualTo(CompilerBoost.NICE);

        b.pause(); // a swap begins during the window
        assertThat(kernel.nice.get(10)).isEqualTo(2);
        b.begin(); // the swap retransformed: the window is extended, nothing raised yet
        assertThat(b.step()).isTrue();
        assertThat(kernel.nice.get(10)).as("not raised by a step while paused").isEqualTo(2);

        b.resume();
        assertThat(kernel.nice.get(10)).isEqualTo(CompilerBoost.NICE);
        now.addAndGet(WINDOW);
        assertThat(b.step()).isFalse();
        assertThat(kernel.nice.get(10)).isEqualTo(2);
    }

    @Test
    void aChangeThatStartsAWindowWhilePausedRaisesAtItsEnd() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        kernel.nice.put(10, 0);
        CompilerBoost b = boost();
        b.pause();
        b.begin(); // an unweave retransformed
        assertThat(kernel.nice.get(10)).isZero();
        b.resume();
        assertThat(kernel.nice.get(10)).isEqualTo(CompilerBoost.NICE);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("compiler threads at nice -20");
    }

    @Test
    void aResumeAfterTheWindowEndedRaisesNothing() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        kernel.nice.put(10, 0);
        CompilerBoost b = boost();
        b.begin();
        b.pause();
        now.addAndGet(WINDOW);
        assertThat(b.step()).isFalse();
        b.resume();
        assertThat(kernel.nice.get(10)).isZero();
        assertThat(b.raised()).isEmpty();
    }

    @Test
    void withoutThePermissionNothingChanges() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        kernel.nice.put(10, 0);
        kernel.denied = true;
        CompilerBoost b = boost();
        assertThat(b.begin()).isFalse();
        assertThat(kernel.nice.get(10)).isZero();
        assertThat(b.step()).isFalse();
    }

    @Test
    void aRestPutsOnlyTheCompilerThreadsInSchedIdleAndItsEndPutsThemBack() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        tasks.add(new CompilerBoost.Task(11, "C1 CompilerThre"));
        tasks.add(new CompilerBoost.Task(12, "qtp1234-17"));
        kernel.nice.put(10, 0);
        kernel.nice.put(11, 5);
        kernel.nice.put(12, 0);
        CompilerBoost b = boost();

        b.rest(CompilerBoost.IDLE);
        assertThat(kernel.idle).containsExactlyInAnyOrder(10, 11);
        assertThat(kernel.nice).containsEntry(10, 0).containsEntry(11, 5).containsEntry(12, 0);

        b.rest(null);
        assertThat(kernel.idle).isEmpty();
        assertThat(kernel.nice).containsEntry(10, 0).containsEntry(11, 5);
        assertThat(b.rested()).isEmpty();
    }

    @Test
    void aWindowRaisesRestingCompilerThreadsAndLeavesThemAtTheRestWhenItEnds() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        kernel.nice.put(10, 2);
        CompilerBoost b = boost();
        b.rest(19);
        assertThat(kernel.nice.get(10)).isEqualTo(19);

        b.begin(); // a swap retransformed: compile at -20 for the window
        assertThat(kernel.nice.get(10)).isEqualTo(CompilerBoost.NICE);
        assertThat(b.raised()).as("its own value, not the rest's, is what it had").containsEntry(10, 2);
        now.addAndGet(WINDOW);
        assertThat(b.step()).isFalse();
        assertThat(kernel.nice.get(10)).as("back at the rest").isEqualTo(19);

        b.rest(null);
        assertThat(kernel.nice.get(10)).isEqualTo(2);
    }

    @Test
    void aRestAskedDuringAWindowWaitsForItsEnd() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        kernel.nice.put(10, 0);
        CompilerBoost b = boost();
        b.begin();
        b.rest(CompilerBoost.IDLE);
        assertThat(kernel.idle).isEmpty();
        assertThat(kernel.nice.get(10)).isEqualTo(CompilerBoost.NICE);
        now.addAndGet(WINDOW);
        b.step();
        assertThat(kernel.idle).containsExactly(10);
        assertThat(kernel.nice.get(10)).isZero();
    }

    @Test
    void aCompilerThreadBornOfARestingOneIsRaisedByAWindowAndPutBackWhenTheRestEnds() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        kernel.nice.put(10, 0);
        CompilerBoost b = boost();
        b.rest(CompilerBoost.IDLE);
        // the JVM starts a compiler thread from a resting one: Linux gives it SCHED_IDLE too
        tasks.add(new CompilerBoost.Task(13, "C1 CompilerThre"));
        kernel.nice.put(13, 0);
        kernel.idle.add(13);

        b.begin();
        assertThat(kernel.idle).as("out of SCHED_IDLE for the window").isEmpty();
        assertThat(kernel.nice).containsEntry(10, CompilerBoost.NICE).containsEntry(13, CompilerBoost.NICE);
        now.addAndGet(WINDOW);
        b.step();
        assertThat(kernel.idle).containsExactlyInAnyOrder(10, 13);

        tasks.add(new CompilerBoost.Task(14, "C2 CompilerThre"));
        kernel.nice.put(14, 0);
        kernel.idle.add(14); // born of a resting one after the window
        b.rest(null);
        assertThat(kernel.idle).isEmpty();
        assertThat(kernel.nice).containsEntry(10, 0).containsEntry(13, 0).containsEntry(14, 0);
    }

    @Test
    void aRestThatCannotBeUndoneIsNeverAppliedAndSaidOnce() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        kernel.nice.put(10, 0);
        kernel.leaveIdleDenied = true; // unprivileged: into SCHED_IDLE is allowed, out of it is not
        CompilerBoost b = boost();
        b.rest(CompilerBoost.IDLE);
        assertThat(kernel.idle).as("no compiler thread left in SCHED_IDLE for good").doesNotContain(10);
        assertThat(b.rest()).isNull();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("cannot rest at SCHED_IDLE (it could not be undone");
        kernel.leaveIdleDenied = false;
        now.addAndGet(WINDOW);
        b.begin();
        assertThat(kernel.nice.get(10)).as("the boost still works").isEqualTo(CompilerBoost.NICE);
    }

    @Test
    void aRestThatIsDeniedIsGivenUpWithOneWarningAndChangesNothing() {
        tasks.add(new CompilerBoost.Task(10, "C2 CompilerThre"));
        kernel.nice.put(10, 0);
        kernel.idleDenied = true;
        CompilerBoost b = boost();
        b.rest(CompilerBoost.IDLE);
        assertThat(kernel.idle).isEmpty();
        assertThat(b.rest()).isNull();
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("cannot rest at SCHED_IDLE");
        now.addAndGet(WINDOW);
        b.begin();
        assertThat(kernel.nice.get(10)).as("the boost still works").isEqualTo(CompilerBoost.NICE);
    }

    @Test
    void recognisesTheNamesTheKernelKeeps() {
        assertThat(CompilerBoost.isCompiler("C2 CompilerThre")).isTrue();
        assertThat(CompilerBoost.isCompiler("C1 CompilerThre")).isTrue();
        assertThat(CompilerBoost.isCompiler("JVMCI CompilerT")).isTrue();
        assertThat(CompilerBoost.isCompiler("GC Thread#0")).isFalse();
        assertThat(CompilerBoost.isCompiler("C2 CompilerThre".substring(0, 4))).isFalse();
    }

    @Test
    void thisJvmsCompilerThreadsAreFoundInProc() {
        List<CompilerBoost.Task> own = CompilerBoost.ownTasks();
        org.junit.jupiter.api.Assumptions.assumeTrue(!own.isEmpty(), "no /proc/self/task here");
        assertThat(own).anyMatch(t -> CompilerBoost.isCompiler(t.name()));
    }

    /** setpriority on a map: ESRCH for unknown threads, EPERM when denied. */
    private static final class FakeNice implements NativeThreads {
        final Map<Integer, Integer> nice = new HashMap<>();
        final java.util.Set<Integer> idle = new java.util.HashSet<>();
        boolean denied;
        boolean idleDenied;
        boolean leaveIdleDenied;

        @Override
        public void setIdle(int tid, boolean on) throws NativePriorityException {
            if (!nice.containsKey(tid)) {
                throw new NativePriorityException("no thread " + tid, NativePriorityException.ESRCH);
            }
            if (idleDenied || (leaveIdleDenied && !on && idle.contains(tid))) {
                throw new NativePriorityException("denied", NativePriorityException.EPERM);
            }
            if (on) {
                idle.add(tid);
            } else {
                idle.remove(tid);
            }
        }

        @Override
        public boolean isIdle(int tid) {
            return idle.contains(tid);
        }

        @Override
        public boolean available() {
            return true;
        }

        @Override
        public String unavailableReason() {
            return null;
        }

        @Override
        public int currentNativeThreadId() {
            return 1;
        }

        @Override
        public void setNice(int tid, int value) throws NativePriorityException {
            if (!nice.containsKey(tid)) {
                throw new NativePriorityException("no thread " + tid, NativePriorityException.ESRCH);
            }
            if (denied && value < nice.get(tid)) {
                throw new NativePriorityException("denied", NativePriorityException.EPERM);
            }
            nice.put(tid, value);
        }

        @Override
        public int getNice(int tid) throws NativePriorityException {
            Integer v = nice.get(tid);
            if (v == null) {
                throw new NativePriorityException("no thread " + tid, NativePriorityException.ESRCH);
            }
            return v;
        }
    }
}
