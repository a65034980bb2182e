package io.qosweaver.scheduler.policy;

import io.qosweaver.platform.JavaPriorities;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.platform.ThreadCpuClock;
import io.qosweaver.scheduler.core.Effects;
import io.qosweaver.scheduler.core.StateMachine;
import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.Parameters;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.RuntimeShare;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.testing.Configs;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * The MTR-LS policy on the real state machine, played from one thread on a fake clock and a fake
 * per-thread CPU clock: in each step of {@link #STEP_NANOS} every runner uses that much CPU, and a
 * flagged thread reaches a control point and parks; the policy's tick runs when it asks for it
 * ({@code nextTickNanos}, rounded up to a step).
 */
final class MtrLsMachine {
    static final long STEP_NANOS = 1_000_000L;

    final Configs.FakeTicker clock = new Configs.FakeTicker();
    final Map<Thread, Long> cpu = new IdentityHashMap<>();
    final List<String> warnings = new ArrayList<>();
    final StateMachine machine;
    final MtrLsPolicy policy;
    /** Threads inside a scope now, in order of entry. */
    final List<ThreadState> inside = new ArrayList<>();
    private long nextTick;
    /**
     * The machine's runnable threads outside managed work, as the policy's load model sees them
     * (besides its tick thread and the managed threads not parked); -1: unknown, the default.
     */
    int unmanagedRunnable = -1;
    /** The CPU time a runner gets per step: less than the step when the machine is shared. */
    long cpuPerStep = STEP_NANOS;
    /** Per runner, when set: the CPU it gets in this step (the OS running something else on its core). */
    ToLongFunction<ThreadState> cpuOf;
    /** Most runners seen at once. */
    int maxRunners;

    MtrLsMachine(Map<String, String> params, int machineCores, List<TaskClassSpec> classes) {
        ThreadCpuClock cpuClock = t -> cpu.getOrDefault(t, -1L);
        PolicyContext ctx = new PolicyContext(new Parameters("mtr-ls", params), clock, NativeThreads.get(),
                JavaPriorities::ofThisJvm, cpuClock, warnings::add, machineCores)
                .withMachineLoad(() -> unmanagedRunnable < 0 ? -1 : 1 + unmanagedRunnable + awake());
        Policy p = MtrLsPolicy.create(ctx);
        machine = StateMachine.create(p, clock, classes, Effects.NONE);
        policy = (MtrLsPolicy) p;
        policy.onTick(machine, clock.now);
        nextTick = clock.now + policy.nextTickNanos();
    }

    static TaskClassSpec cls(String name, String... kv) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return new TaskClassSpec(name, m);
    }

    ThreadState thread(String name) {
        ThreadState t = new ThreadState(new Thread(() -> {}, name));
        cpu.put(t.thread(), 0L);
        return t;
    }

    ThreadState enter(String name, String cls) {
        ThreadState t = thread(name);
        enter(t, cls);
        return t;
    }

    void enter(ThreadState t, String cls) {
        List<ThreadState> parked = parked();
        machine.changeRole(t, machine.classOrUnknown(cls), Policy.Cause.SCOPE);
        inside.add(t);
        check(parked);
    }

    /** The thread enters a scope of a run-time share (the Java API's), as the bridge makes it. */
    void enter(ThreadState t, RuntimeShare share) {
        List<ThreadState> parked = parked();
        machine.changeRole(t, machine.shareClass(share), Policy.Cause.SCOPE);
        inside.add(t);
        check(parked);
    }

    void exit(ThreadState t) {
        List<ThreadState> parked = parked();
        machine.changeRole(t, null, Policy.Cause.SCOPE);
        inside.remove(t);
        check(parked);
    }

    /** A tick now; the next one when the policy asks for it, as the scheduler's tick thread does. */
    void tick() {
        List<ThreadState> parked = parked();
        nextTick = clock.now + machine.tick(clock.now);
        ticks++;
        check(parked);
    }

    /** Ticks so far. */
    long ticks;

    private List<ThreadState> parked() {
        List<ThreadState> l = new ArrayList<>();
        for (ThreadState t : inside) {
            if (t.parked()) {
                l.add(t);
            }
        }
        return l;
    }

    /**
     * The invariants, and no thread woken and told to yield again by one decision (it would run to
     * its next control point for nothing: the decision must reach the mechanism as its outcome).
     */
    private void check(List<ThreadState> parkedBefore) {
        check();
        for (ThreadState t : parkedBefore) {
            if (t.yieldFlag() && !t.parked()) {
                throw new AssertionError(t + " was woken and told to yield again within one decision");
            }
        }
        wakes += parkedBefore.stream().filter(t -> !t.parked()).count();
    }

    private int awake() {
        int n = 0;
        for (ThreadState t : inside) {
            if (!t.parked()) {
                n++;
            }
        }
        return n;
    }

    /** Parked threads woken so far. */
    long wakes;

    /** A thread running, not told to yield. */
    static boolean runs(ThreadState t) {
        return !t.yieldFlag() && !t.parked();
    }

    /** Plays {@code millis} of time. */
    void run(long millis) {
        for (long i = 0; i < millis; i++) {
            step();
        }
    }

    void step() {
        for (ThreadState t : inside) {
            if (t.yieldFlag() && !t.parked()) {
                machine.beginWait(t); // its next control point
            }
        }
        int runners = 0;
        for (ThreadState t : inside) {
            if (runs(t)) {
                runners++;
                cpu.merge(t.thread(), cpuOf != null ? cpuOf.applyAsLong(t) : cpuPerStep, Long::sum);
            }
        }
        maxRunners = Math.max(maxRunners, runners);
        clock.now += STEP_NANOS;
        if (clock.now >= nextTick) {
            tick();
        }
        check();
    }

    void check() {
        String broken = machine.checkInvariants();
        if (broken != null) {
            throw new AssertionError(broken);
        }
    }

    long cpuMillis(ThreadState t) {
        return cpu.get(t.thread()) / 1_000_000L;
    }
}
