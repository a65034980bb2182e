package io.qosweaver.jmh;

import io.qosweaver.agent.bootstrap.Hooks;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.CompilerControl;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The cost of one idle hook of the agent's hooks mode (issue 15: armed but idle hooks under 1 %),
 * each figure against the same method unhooked in the same run. The hooks are those the weaver
 * inserts ({@code HookInserter}): {@code Hooks.enter(n)} at a method's start and {@code
 * Hooks.exit(n)} before its return (an execution join point), {@code Hooks.call(n)} before a call
 * instruction (a call join point), nothing attached. {@code io.qosweaver.agent.bootstrap.Hooks} in
 * this module is an exact copy of the agent's (the agent, a shaded javaagent jar, is no dependency
 * of this one; {@code HooksCopyTest} in the agent keeps the two sources identical).
 * <ul>
 *   <li>{@code baseline}: a call of {@link #plain}, a small method (a 16-element hash: a few ns,
 *       the size of the app's typical getters and helpers is below it, of its page code above);
 *   <li>{@code entryExit}: the same method with an entry and an exit hook: one execution hook costs
 *       {@code (entryExit - baseline) / 2};
 *   <li>{@code call}: a call hook before the call of {@link #plain}: {@code call - baseline}.
 * </ul>
 * One hook (about a nanosecond) is below these three's resolution on a noisy machine (their errors
 * are a few ns, mostly from fork to fork), so the {@code *Loop} benchmarks amortize it: {@link
 * #LOOP} hooked steps per invocation, each step a small method inlined into the loop as the JIT
 * inlines a woven getter into its caller, the hooks with it:
 * <ul>
 *   <li>{@code baselineLoop}: {@link #LOOP} calls of {@link #step};
 *   <li>{@code entryExitLoop}: the same calls of {@link #hookedStep} (an entry and an exit hook
 *       each): one execution hook costs {@code (entryExitLoop - baselineLoop) / (2 * LOOP)};
 *   <li>{@code callLoop}: a call hook before each call of {@link #step}: {@code (callLoop -
 *       baselineLoop) / LOOP}.
 * </ul>
 * {@code bench hooks} uses the loop benchmarks when the file has them.
 * The methods are not inlined into the benchmark loop (a real method boundary each time; the JIT
 * cannot hoist a volatile read out of it), their argument changes each time and the result goes to
 * a Blackhole, so nothing folds away. The hooks themselves are inlined as the JIT chooses; {@link
 * HooksNotInlinedBenchmark} runs the same with the hooks never inlined (the worst case: a call per
 * hook). {@code qosweaver bench hooks --hook-cost FILE} reads the JSON of both. Run (build first
 * with {@code ./mvnw -B -q -pl jmh -am -DskipTests package}):
 * <pre>
 * java -jar jmh/target/qosweaver-jmh.jar 'io.qosweaver.jmh.Hooks.*Benchmark' -f 3 -wi 5 -w 1 -i 10 -r 1 -prof gc \
 *      -rf json -rff jmh/results/hooks-DATE.json
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class HooksBenchmark {
    /** The join point numbers the weaver would pass (any: an idle hook ignores it). */
    static final int EXECUTION = 17;
    static final int CALL = 18;
    /** Hooked steps per invocation of a {@code *Loop} benchmark (the length of {@link #values}). */
    public static final int LOOP = 16;

    int[] values;
    int k;

    @Setup
    public void setUp() {
        SplittableRandom r = new SplittableRandom(42);
        values = new int[LOOP];
        for (int i = 0; i < values.length; i++) {
            values[i] = r.nextInt();
        }
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static int plain(int[] v, int seed) {
        int h = seed;
        for (int x : v) {
            h = 31 * h + x;
        }
        return h;
    }

    /** {@link #plain} as the weaver leaves it: an entry hook, and an exit hook before the return. */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static int hooked(int[] v, int seed) {
        Hooks.enter(EXECUTION);
        int h = seed;
        for (int x : v) {
            h = 31 * h + x;
        }
        Hooks.exit(EXECUTION);
        return h;
    }

    /** One step of the loops: small enough that the JIT inlines it, as it inlines a woven getter. */
    static int step(int h, int x) {
        return 31 * h + x;
    }

    /** {@link #step} as the weaver leaves it. */
    static int hookedStep(int h, int x) {
        Hooks.enter(EXECUTION);
        int r = 31 * h + x;
        Hooks.exit(EXECUTION);
        return r;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static int plainLoop(int[] v, int seed) {
        int h = seed;
        for (int x : v) {
            h = step(h, x);
        }
        return h;
    }

    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static int hookedLoop(int[] v, int seed) {
        int h = seed;
        for (int x : v) {
            h = hookedStep(h, x);
        }
        return h;
    }

    /** A call hook before every call of {@link #step}, as the weaver inserts one before a call instruction. */
    @CompilerControl(CompilerControl.Mode.DONT_INLINE)
    static int callHookedLoop(int[] v, int seed) {
        int h = seed;
        for (int x : v) {
            Hooks.call(CALL);
            h = step(h, x);
        }
        return h;
    }

    @Benchmark
    public void baselineLoop(Blackhole bh) {
        bh.consume(plainLoop(values, k++));
    }

    @Benchmark
    public void entryExitLoop(Blackhole bh) {
        bh.consume(hookedLoop(values, k++));
    }

    @Benchmark
    public void callLoop(Blackhole bh) {
        bh.consume(callHookedLoop(values, k++));
    }

    @Benchmark
    public void baseline(Blackhole bh) {
        bh.consume(plain(values, k++));
    }

    @Benchmark
    public void entryExit(Blackhole bh) {
        bh.consume(hooked(values, k++));
    }

    @Benchmark
    public void call(Blackhole bh) {
        Hooks.call(CALL);
        bh.consume(plain(values, k++));
    }
}
