package io.qosweaver.bench.mixed;

import io.qosweaver.bench.load.LoadSpec;
import java.util.List;

/**
 * The load and the windows of a run.
 *
 * @param heavyClients   heavy closed-loop clients (issue 13: 8 x cores)
 * @param lightRate      light requests started per second (open loop)
 * @param lightMaxInFlight cap on light requests outstanding; a start beyond it is an {@code overflow} error
 * @param warmupS        each warm-up: first one heavy client per core with the light stream, then, before the
 *                       loaded window, the full load for as long again (the two-phase warm-up of bench/README.md)
 * @param idleS          the idle window: the light stream alone (the idle light p99)
 * @param durationS      the loaded window: heavy clients and the light stream
 * @param heavyNice      the nice value of the heavy driver's JVM (the light driver runs at the harness's)
 * @param lightClient    the light driver's HTTP client: {@link LoadSpec.Transport#SOCKET} (the default since
 *                       2026-11-28: one blocking keep-alive socket per sending thread, no hand-off between
 *                       threads) or {@link LoadSpec.Transport#JDK} (the JDK's asynchronous client, every
 *                       earlier run's)
 * @param appJvmFlags    JVM options the operator adds to the app's own in every process and window (a collector,
 *                       a heap size): the application's configuration, the same for every version; none by default
 * @param lightFifo      the {@code SCHED_FIFO} priority of the light driver's sending threads, idle and loaded
 *                       windows alike ({@link io.qosweaver.bench.load.RealtimeThreads}), or 0 for none (the fair
 *                       class at the harness's nice value, every run before 2026-12-05): with it the light client
 *                       wakes at once, not after the heavy driver's running thread ends its slice
 */
public record MixedParams(int heavyClients, double lightRate, int lightMaxInFlight, double warmupS, double idleS,
                          double durationS, int heavyNice, LoadSpec.Transport lightClient, List<String> appJvmFlags,
                          int lightFifo) {

    /** With the default light client, no added JVM option and the default light driver's priority. */
    public MixedParams(int heavyClients, double lightRate, int lightMaxInFlight, double warmupS, double idleS,
                       double durationS, int heavyNice) {
        this(heavyClients, lightRate, lightMaxInFlight, warmupS, idleS, durationS, heavyNice, DEFAULT_LIGHT_CLIENT,
                List.of(), DEFAULT_LIGHT_FIFO);
    }

    public static final LoadSpec.Transport DEFAULT_LIGHT_CLIENT = LoadSpec.Transport.SOCKET;

    /** The lowest real-time priority: above every fair-class thread, below the kernel's own real-time threads. */
    public static final int DEFAULT_LIGHT_FIFO = 1;

    static final int CORES = Runtime.getRuntime().availableProcessors();

    public MixedParams {
        if (heavyClients < 1) {
            throw new IllegalArgumentException("heavy clients must be at least 1, got " + heavyClients);
        }
        if (!(lightRate > 0)) {
            throw new IllegalArgumentException("the light rate must be positive, got " + lightRate);
        }
        if (lightMaxInFlight < 1) {
            throw new IllegalArgumentException("light max in flight must be at least 1, got " + lightMaxInFlight);
        }
        if (!(warmupS >= 0) || !(idleS > 0) || !(durationS > 0)) {
            throw new IllegalArgumentException("windows must be positive (warm-up may be 0): warm-up " + warmupS
                    + " s, idle " + idleS + " s, loaded " + durationS + " s");
        }
        java.util.Objects.requireNonNull(lightClient, "lightClient");
        appJvmFlags = List.copyOf(appJvmFlags);
        for (String f : appJvmFlags) {
            if (!f.startsWith("-") || f.length() < 2) {
                throw new IllegalArgumentException("an app JVM option starts with '-', got '" + f + "'");
            }
            if (f.startsWith("-javaagent") || f.startsWith("-agentlib") || f.startsWith("-agentpath")) {
                throw new IllegalArgumentException("app JVM options cannot add an agent (" + f
                        + "): the harness attaches QoSWeaver's or a peer's per version");
            }
        }
        if (heavyNice < 0 || heavyNice > 19) {
            throw new IllegalArgumentException("heavy nice must be 0..19, got " + heavyNice);
        }
        if (lightFifo < 0 || lightFifo > 99) {
            throw new IllegalArgumentException("the light driver's SCHED_FIFO priority must be 1..99 (0: none), got "
                    + lightFifo);
        }
    }

    /** These parameters with the light driver's sending threads at {@code fifo} (0: in the fair class). */
    public MixedParams withLightFifo(int fifo) {
        return new MixedParams(heavyClients, lightRate, lightMaxInFlight, warmupS, idleS, durationS, heavyNice,
                lightClient, appJvmFlags, fifo);
    }

    /**
     * These parameters as this process can run them: with {@link #lightFifo} when the kernel lets a thread of
     * it enter {@code SCHED_FIFO}, else without, after a line that says why (the light latencies then include
     * the light client's own waits for a CPU).
     */
    public MixedParams runnableHere(java.util.function.Consumer<String> warn) {
        if (lightFifo == 0) {
            return this;
        }
        String why = io.qosweaver.bench.load.RealtimeThreads.probe(lightFifo);
        if (why == null) {
            return this;
        }
        warn.accept("the light driver stays in the fair class (nice 0): " + why + "; its own waits for a CPU behind"
                + " the heavy driver are in the light latencies");
        return withLightFifo(0);
    }

    /** The full run: 8 x cores heavy clients, 20 light requests/s, 30 s warm-ups and idle, 120 s loaded. */
    public static MixedParams full() {
        return new MixedParams(8 * CORES, 20, 200, 30, 30, 120, 10);
    }

    /** A short run with the same load: 10 s warm-ups and idle, 30 s loaded. */
    public static MixedParams quick() {
        return new MixedParams(8 * CORES, 20, 200, 10, 10, 30, 10);
    }

    /** Roughly how long one version takes, start-up (about 20 s) included. */
    public double secondsPerVersion() {
        return 20 + 2 * warmupS + idleS + durationS + 9;
    }
}
