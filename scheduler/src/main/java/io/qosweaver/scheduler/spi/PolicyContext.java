package io.qosweaver.scheduler.spi;

import io.qosweaver.platform.JavaPriorities;
import io.qosweaver.platform.MachineLoad;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.platform.ThreadCpuClock;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What a policy factory gets: its parameters, the scheduler's clock, and the platform services a
 * policy may use to act on or observe threads. The runtime passes the real ones; the simulator
 * passes models of them, which is how one policy file runs unchanged in both.
 */
public final class PolicyContext {
    private final Parameters parameters;
    private final Ticker ticker;
    private final NativeThreads nativeThreads;
    private final Supplier<JavaPriorities> javaPriorities;
    private final ThreadCpuClock cpuClock;
    private final Consumer<String> warnings;
    private final int cores;
    private final MachineLoad machineLoad;

    /** With the processors this JVM may use as {@link #cores()}. */
    public PolicyContext(Parameters parameters, Ticker ticker, NativeThreads nativeThreads,
            Supplier<JavaPriorities> javaPriorities, ThreadCpuClock cpuClock, Consumer<String> warnings) {
        this(parameters, ticker, nativeThreads, javaPriorities, cpuClock, warnings,
                Runtime.getRuntime().availableProcessors());
    }

    public PolicyContext(Parameters parameters, Ticker ticker, NativeThreads nativeThreads,
            Supplier<JavaPriorities> javaPriorities, ThreadCpuClock cpuClock, Consumer<String> warnings, int cores) {
        this(parameters, ticker, nativeThreads, javaPriorities, cpuClock, warnings, cores, MachineLoad.UNKNOWN);
    }

    private PolicyContext(Parameters parameters, Ticker ticker, NativeThreads nativeThreads,
            Supplier<JavaPriorities> javaPriorities, ThreadCpuClock cpuClock, Consumer<String> warnings, int cores,
            MachineLoad machineLoad) {
        if (cores < 1) {
            throw new IllegalArgumentException("cores must be >= 1, got " + cores);
        }
        this.cores = cores;
        this.parameters = parameters;
        this.ticker = ticker;
        this.nativeThreads = nativeThreads;
        this.javaPriorities = javaPriorities;
        this.cpuClock = cpuClock;
        this.warnings = warnings;
        this.machineLoad = machineLoad;
    }

    /** This context with {@code load} as {@link #machineLoad()} (a model of it in tests and the simulator). */
    public PolicyContext withMachineLoad(MachineLoad load) {
        return new PolicyContext(parameters, ticker, nativeThreads, javaPriorities, cpuClock, warnings, cores,
                load);
    }

    /** The real platform: the registered native threads, this JVM's priorities, the JVM's CPU clock. */
    public static PolicyContext of(String policyName, Map<String, String> parameters, Ticker ticker,
            Consumer<String> warnings) {
        return new PolicyContext(new Parameters(policyName, parameters), ticker, NativeThreads.get(),
                JavaPriorities::ofThisJvm, ThreadCpuClock.jvm(), warnings).withMachineLoad(MachineLoad.linux());
    }

    public Parameters parameters() {
        return parameters;
    }

    public Ticker ticker() {
        return ticker;
    }

    /**
     * The processors managed work may use: what limits written relative to the cores
     * ({@code lowCap: 1x}) are relative to. At run time the JVM's available processors (its
     * affinity and container limits count); in the simulator, the model's.
     */
    public int cores() {
        return cores;
    }

    /** Native priorities and affinity (may be unavailable: ask it). */
    public NativeThreads nativeThreads() {
        return nativeThreads;
    }

    /** What Java priorities do here (measured on first call). */
    public JavaPriorities javaPriorities() {
        return javaPriorities.get();
    }

    /** Per-thread CPU time; not for every control point (hundreds of ns). */
    public ThreadCpuClock cpuClock() {
        return cpuClock;
    }

    /**
     * The machine's runnable threads now ({@link MachineLoad#UNKNOWN} unless the runtime or a test
     * gives it): whether anything outside managed work wants a CPU. For a tick, not a control point.
     */
    public MachineLoad machineLoad() {
        return machineLoad;
    }

    /**
     * A warning that changes what a run measures (priorities that are ignored): said once per
     * distinct message, loudly, never silently.
     */
    public void warnOnce(String message) {
        warnings.accept(message);
    }
}
