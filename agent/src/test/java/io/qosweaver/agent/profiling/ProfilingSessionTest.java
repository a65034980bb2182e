package io.qosweaver.agent.profiling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.qosweaver.agent.bootstrap.CallProbe;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.runtime.PolicyWeavingTest;
import io.qosweaver.agent.testing.ProfileFiles;
import io.qosweaver.pointcuts.BinaryProfileReader;
import io.qosweaver.testtargets.profiled.Calls;
import io.qosweaver.testtargets.profiled.ReentrantThread;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.ObjectName;
import net.bytebuddy.agent.ByteBuddyAgent;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The profiling mode in-process: the probe woven into a test class, recordings read back. */
class ProfilingSessionTest {
    static final String P = "io.qosweaver.testtargets.profiled.Calls";
    static final String RUN = "int " + P + ".run(int)";
    static final String TWICE = "long " + P + ".twice(java.lang.String)";
    static final String LEAF = "int " + P + ".leaf(int)";

    private static Instrumentation inst;
    private ProfilingSession profiling;
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();

    @TempDir
    Path dir;

    record Jp(long time, long thread, String caller, String callee) {}

    @BeforeAll
    static void attach() {
        inst = ByteBuddyAgent.install();
        new Calls().run(1); // loaded before weaving: must be retransformed
    }

    @AfterEach
    void close() {
        if (profiling != null) {
            profiling.close();
        }
    }

    /** A session writing every join point (version 1) unless {@code extra} names a format. */
    private ProfilingSession start(String extra) {
        return start(ProfilingArgs.parse("profile=" + dir.resolve("p.qwp") + ",include=io.qosweaver.testtargets.profiled"
                + "+org.nothing" + (extra.contains("format=") ? "" : ",format=joinpoints") + extra));
    }

    private ProfilingSession start(ProfilingArgs args) {
        profiling = ProfilingSession.start(args, inst, new AgentLog(new PrintStream(logged, true, StandardCharsets.UTF_8), false));
        return profiling;
    }

    private String log() {
        return logged.toString(StandardCharsets.UTF_8);
    }

    static List<Jp> read(Path file) throws Exception {
        List<Jp> out = new ArrayList<>();
        BinaryProfileReader.read(file, (t, th, caller, callee) -> out.add(new Jp(t, th, caller, callee)));
        return out;
    }

    static List<String> pairs(List<Jp> jps, long thread) {
        return jps.stream().filter(j -> j.thread() == thread)
                .map(j -> j.caller().substring(j.caller().lastIndexOf('.', j.caller().indexOf('(')) + 1) + " -> "
                        + j.callee())
                .toList();
    }

    @SuppressWarnings("deprecation")
    static long tid() {
        return Thread.currentThread().getId();
    }

    /**
     * The profile says which calls ran with a monitor held, from the class files the probe was
     * woven into, and the generator excludes them without being given a class path.
     */
    @Test
    void theProfileRecordsTheCallsMadeWithAMonitorHeld() throws Exception {
        start("");
        assertThat(new io.qosweaver.testtargets.profiled.LockedCalls().run(5)).isEqualTo(9);
        profiling.stop();
        io.qosweaver.pointcuts.Profile profile = io.qosweaver.pointcuts.Profile.read(List.of(dir.resolve("p.qwp")));
        io.qosweaver.pointcuts.SynchronizedRegions recorded = profile.recordedRegions();
        assertThat(recorded).as("recorded by the profiler").isNotNull();
        String type = "io.qosweaver.testtargets.profiled.LockedCalls";
        assertThat(recorded.holdsMonitor("int " + type + ".run(int)", "int " + type + ".leaf(int)"))
                .as("inside the synchronized block").isTrue();
        assertThat(recorded.holdsMonitor("int " + type + ".locked(int)", "int " + type + ".other(int)"))
                .as("in the synchronized method").isTrue();
        assertThat(recorded.holdsMonitor("int " + type + ".run(int)", "int " + type + ".other(int)"))
                .as("before the block").isFalse();

        io.qosweaver.pointcuts.GenerationReport r = io.qosweaver.pointcuts.PointcutsTool.run(
                List.of(dir.resolve("p.qwp")), java.time.Duration.ofNanos(1), Integer.MAX_VALUE, null,
                new PrintStream(java.io.OutputStream.nullOutputStream()));
        assertThat(r.toText()).as("no class path given").containsPattern("excluded: 2 in synchronized code");
        assertThat(r.pointcuts()).extracting(p -> p.caller() + " -> " + p.callee())
                .doesNotContain("int " + type + ".run(int) -> int " + type + ".leaf(int)",
                        "int " + type + ".locked(int) -> int " + type + ".other(int)");
    }

    @Test
    void recordsCallerCalleeInOrderWithMonotonicTimes() throws Exception {
        start("");
        Calls c = new Calls();
        assertThat(c.run(2)).isEqualTo(10);
        String summary = profiling.stop();
        assertThat(summary).contains("profile " + dir.resolve("p.qwp")).contains(" join points, 1 threads");

        List<Jp> jps = read(dir.resolve("p.qwp"));
        List<String> perIteration = List.of(
                "run(int) -> " + TWICE,
                "twice(java.lang.String) -> int java.lang.String.length()",
                "twice(java.lang.String) -> " + LEAF,
                "twice(java.lang.String) -> " + LEAF,
                "twice(java.lang.String) -> int java.lang.Math.abs(int)");
        List<String> expected = new ArrayList<>();
        expected.add("<init>() -> void java.lang.Object.<init>()");
        expected.addAll(perIteration);
        expected.addAll(perIteration);
        expected.add("run(int) -> java.lang.Integer java.lang.Integer.valueOf(int)");
        expected.add("run(int) -> int java.lang.Integer.intValue()");
        assertThat(pairs(jps, tid())).containsExactlyElementsOf(expected);
        // full canonical caller signatures, as the generator and the pointcuts need them
        assertThat(jps).extracting(Jp::caller).contains(RUN, TWICE, "void " + P + ".<init>()");
        for (int i = 1; i < jps.size(); i++) {
            assertThat(jps.get(i).time()).isGreaterThanOrEqualTo(jps.get(i - 1).time());
        }
        assertThat(ProfileFiles.summary(dir.resolve("p.qwp")).limit()).isNull();
    }

    @Test
    void threadsAreSeparateTimelines() throws Exception {
        start("");
        Map<Long, Integer> ids = new LinkedHashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int n = 100 * (i + 1);
            Thread t = new Thread(() -> new Calls().run(n));
            threads.add(t);
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
            @SuppressWarnings("deprecation")
            long id = t.getId();
            ids.put(id, threads.indexOf(t));
        }
        // the threads have ended: their partial chunks are written without a stop
        await().atMost(10, TimeUnit.SECONDS).until(() -> profiling.getJoinPoints() == (1 + 500 + 2) + (1 + 1000 + 2)
                + (1 + 1500 + 2));
        profiling.stop();
        List<Jp> jps = read(dir.resolve("p.qwp"));
        for (Map.Entry<Long, Integer> e : ids.entrySet()) {
            List<String> mine = pairs(jps, e.getKey());
            assertThat(mine).hasSize(1 + 5 * 100 * (e.getValue() + 1) + 2);
            assertThat(mine.get(1)).isEqualTo("run(int) -> " + TWICE);
            List<Jp> timeline = jps.stream().filter(j -> j.thread() == e.getKey()).toList();
            for (int i = 1; i < timeline.size(); i++) {
                assertThat(timeline.get(i).time()).isGreaterThanOrEqualTo(timeline.get(i - 1).time());
            }
        }
    }

    /**
     * The probe reads {@code Thread.getId()} of a thread it meets for the first time; the
     * profiled override makes two calls there, i.e. two probes entered from inside the probe. They
     * are skipped and counted, not recursed into: one recorder for the thread (without the guard,
     * every nested probe registers the thread again until the stack or the thread limit runs out).
     */
    @Test
    void aProbeEnteredFromInsideTheProbeDoesNotRecurse() throws Exception {
        start("");
        ReentrantThread t = new ReentrantThread(() -> new Calls().run(10));
        t.start();
        t.join();
        String summary = profiling.stop();
        // this thread (the constructor's call of Thread.<init>) and t, each registered once
        assertThat(summary).contains(", 2 threads, ").doesNotContain("PARTIAL");
        assertThat(profiling.probeErrors()).isZero();
        assertThat(t.calls).isEqualTo(1);
        long id = t.getId(); // after the stop: its profiled calls are not recorded any more
        List<String> mine = pairs(read(dir.resolve("p.qwp")), id);
        assertThat(mine).hasSize(1 + 5 * 10 + 2).noneMatch(s -> s.startsWith("getId()"));
        assertThat(ProfileFiles.summary(dir.resolve("p.qwp")).limit()).isNull();
        assertThat(profiling.probeReentered()).isEqualTo(2);
        assertThat(BinaryProfileReader.read(dir.resolve("p.qwp"), (a, b, c, d) -> { }).meta().get("reentered"))
                .startsWith("2 profiled calls made from inside the probe");
    }

    @Test
    void manyChunksAndALimitStopRecordingWithAMessageAndAReadableProfile() throws Exception {
        start(",maxBytes=20k");
        Calls c = new Calls();
        c.run(20_000); // 100,000 join points, far more than 20 KiB
        await().atMost(10, TimeUnit.SECONDS).until(() -> !profiling.isRecording());
        long before = profiling.getJoinPoints();
        c.run(100);
        profiling.stop();
        assertThat(profiling.getJoinPoints()).isEqualTo(before).isPositive().isLessThan(100_000);
        assertThat(log()).contains("profile limit reached, recording STOPPED")
                .contains("(maxBytes)").contains("maxBytes=40k (now 20k)");
        ProfileFiles.Summary s = ProfileFiles.summary(dir.resolve("p.qwp"));
        assertThat(s.limit()).contains("maxBytes");
        assertThat(s.joinPoints()).isEqualTo(before);
        assertThat(s.bytes()).isLessThanOrEqualTo(20 * 1024 + 512);
        assertThat(profiling.status()).contains("PARTIAL");
    }

    @Test
    void pausedThenStartedAndStoppedOverJmx() throws Exception {
        start(",start=paused");
        new Calls().run(10);
        assertThat(profiling.isRecording()).isFalse();
        assertThat(Files.exists(dir.resolve("p.qwp"))).isFalse();
        assertThat(log()).contains("profiling paused")
                .containsPattern("\\([1-9]\\d* of them already loaded, retransformed\\)"); // Calls, loaded in attach()

        var server = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName(ProfilingMXBean.OBJECT_NAME);
        assertThat((String) server.invoke(name, "start", null, null)).startsWith("recording " + dir.resolve("p.qwp"));
        assertThat((Boolean) server.getAttribute(name, "Recording")).isTrue();
        Calls c = new Calls();
        c.run(2);
        assertThat((String) server.invoke(name, "stop", null, null)).contains("13 join points");
        c.run(50); // stopped: not recorded
        assertThat(read(dir.resolve("p.qwp"))).hasSize(13);

        // a second start writes a second file
        assertThat((String) server.invoke(name, "start", null, null)).contains("p-2.qwp");
        c.run(1);
        profiling.stop();
        assertThat(read(dir.resolve("p-2.qwp"))).hasSize(7);
        assertThat((String) server.invoke(name, "status", null, null)).contains("p-2.qwp: 7 join points");
    }

    @Test
    void syntheticLambdaBodiesAreNotProfiledButTheirCallSitesAre() throws Exception {
        start("");
        new Calls().lambda(1);
        profiling.stop();
        List<String> p = pairs(read(dir.resolve("p.qwp")), tid());
        assertThat(p).contains("lambda(int) -> int java.util.function.IntUnaryOperator.applyAsInt(int)");
        assertThat(p).noneMatch(s -> s.startsWith("lambda$"));
    }

    @Test
    void probeGoesImmediatelyBeforeEachCallAndUnweaveRestoresTheClass() throws Exception {
        var original = PolicyWeavingTest.instructions(currentBytes(Calls.class));
        start("");
        List<String> twice = PolicyWeavingTest.instructions(currentBytes(Calls.class)).get("twice(Ljava/lang/String;)J");
        List<String> calls = twice.stream().filter(i -> i.startsWith("INVOKE")).toList();
        assertThat(calls).hasSize(8);
        for (int i = 0; i < twice.size(); i++) {
            if (twice.get(i).startsWith("INVOKE") && !twice.get(i).contains("CallProbe.record")) {
                assertThat(twice.get(i - 1)).isEqualTo("INVOKESTATIC io/qosweaver/agent/bootstrap/CallProbe.record(II)V");
            }
        }
        profiling.close();
        profiling = null;
        assertThat(PolicyWeavingTest.instructions(currentBytes(Calls.class))).isEqualTo(original);
    }

    static byte[] currentBytes(Class<?> type) throws Exception {
        java.util.concurrent.atomic.AtomicReference<byte[]> bytes = new java.util.concurrent.atomic.AtomicReference<>();
        java.lang.instrument.ClassFileTransformer capture = new java.lang.instrument.ClassFileTransformer() {
            @Override
            public byte[] transform(ClassLoader loader, String name, Class<?> c, java.security.ProtectionDomain pd,
                    byte[] b) {
                if (c == type) {
                    bytes.set(b.clone());
                }
                return null;
            }
        };
        inst.addTransformer(capture, true);
        try {
            inst.retransformClasses(type);
        } finally {
            inst.removeTransformer(capture);
        }
        return bytes.get();
    }

    /**
     * By default the profile is slot summaries (version 2) whose time stamps have the probe's cost,
     * estimated from the recording's own gaps, taken out (and the time off the CPU): the thread's
     * timeline is shorter than the run by at least half of what the probes cost.
     */
    @Test
    void slotSummariesAreTheDefaultAndTakeTheProbesCostOut() throws Exception {
        Path file = dir.resolve("slots.qwp");
        ProfilingArgs args = ProfilingArgs.parse("profile=" + file + ",include=io.qosweaver.testtargets.profiled");
        assertThat(args.joinPoints()).isFalse();
        assertThat(args.slotNanos()).isEqualTo(1_000_000);
        assertThat(args.probeCostNanos()).isEqualTo(ProfilingArgs.MEASURE);
        start(args);
        Calls c = new Calls();
        long t0 = System.nanoTime();
        assertThat(c.run(100_000)).isPositive();
        long wall = System.nanoTime() - t0;
        assertThat(profiling.stop()).contains(" join points, 1 threads"); // and the constructor's super()

        assertThat(BinaryProfileReader.version(file)).isEqualTo(2);
        Map<String, Long> byCallee = new LinkedHashMap<>();
        BinaryProfileReader.Summary s = ProfileFiles.forEachPair(file,
                (thread, caller, callee, count) -> byCallee.merge(callee, count, Long::sum));
        assertThat(byCallee).containsEntry(LEAF, 200_000L).containsEntry(TWICE, 100_000L);
        long cost = Long.parseLong(s.meta().get(io.qosweaver.pointcuts.BinaryProfileFormat.PROBE_COST_NANOS));
        assertThat(cost).isPositive();
        assertThat(s.meta().get(io.qosweaver.pointcuts.BinaryProfileFormat.TIME_BASE))
                .startsWith("real: the probe's cost estimated per chunk of join points (the mean of its gaps from their 1 %"
                        + " quantile to twice that, ")
                .contains(", " + cost + " ns per join point in all; ");
        assertThat(log()).contains("the probe's cost is estimated from the recording (a calibration loop measured")
                .contains("; time base: the probe's cost estimated per chunk");

        io.qosweaver.pointcuts.SlotProfile p = io.qosweaver.pointcuts.SlotProfile.read(List.of(file), 1_000_000);
        assertThat(p.timelines()).isEqualTo(1);
        long span = p.timelineEnd(0) - p.timelineStart(0);
        assertThat(span).as("the timeline, after %d ns per join point was taken out of a %d ns run", cost, wall)
                .isLessThanOrEqualTo(wall - 500_000 * cost / 2);
    }

    @Test
    void arguments() {
        ProfilingArgs a = ProfilingArgs.parse("profile=/t/p.qwp,include=org.jfree+org.rivermonitor;org.x.*,start=paused,"
                + "maxBytes=256m,maxSignatures=1000,metricsPort=0");
        assertThat(a.include()).containsExactly("org.jfree", "org.rivermonitor", "org.x");
        assertThat(a.paused()).isTrue();
        assertThat(a.maxBytes()).isEqualTo(256L << 20);
        assertThat(a.maxSignatures()).isEqualTo(1000);
        assertThat(a.metricsPort()).isZero();
        assertThat(ProfilingArgs.isProfile("profile=x,include=a")).isTrue();
        assertThat(ProfilingArgs.isProfile("policy=x")).isFalse();
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=org.jfree,org.rivermonitor"))
                .hasMessageContaining("separated by '+'");
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p")).hasMessageContaining("needs include=");
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=java.util")).hasMessageContaining("never profiled");
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=sun")).hasMessageContaining("never profiled")
                .hasMessageContaining("sun.misc"); // more in ProfiledPackagesTest
        assertThat(ProfilingArgs.parse("profile=p,include=org.jfree+sun.java2d.marlin+com.sun.imageio.plugins.png")
                .include()).containsExactly("org.jfree", "sun.java2d.marlin", "com.sun.imageio.plugins.png");
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=io.qosweaver")).hasMessageContaining("never profiled");
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=a,maxBytes=1x")).hasMessageContaining("256m");
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=a,policy=x")).hasMessageContaining("cannot be combined");

        ProfilingArgs slots = ProfilingArgs.parse("profile=p,include=a,slot=10ms,probeCost=40ns");
        assertThat(slots.joinPoints()).isFalse();
        assertThat(slots.slotNanos()).isEqualTo(10_000_000);
        assertThat(slots.probeCostNanos()).isEqualTo(40);
        assertThat(ProfilingArgs.parse("profile=p,include=a,probeCost=none").probeCostNanos()).isZero();
        assertThat(ProfilingArgs.parse("profile=p,include=a,slot=500us,probeCost=auto").slotNanos()).isEqualTo(500_000);
        assertThat(ProfilingArgs.parse("profile=p,include=a,format=joinpoints").joinPoints()).isTrue();
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=a,format=joinpoints,slot=1ms"))
                .hasMessageContaining("apply to slot summaries");
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=a,format=xml"))
                .hasMessageContaining("format=xml must be slots");
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=a,slot=0"))
                .hasMessageContaining("slot=0 must be a duration");
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=a,slot=3s"))
                .hasMessageContaining("slot=3s must be a duration");
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=a,probeCost=fast"))
                .hasMessageContaining("probeCost=fast must be a duration");
        assertThat(ProfilingArgs.parse("profile=p,include=a").workSharePpm()).isEqualTo(ProfilingArgs.PPM);
        assertThat(ProfilingArgs.parse("profile=p,include=a,workShare=0.85").workSharePpm()).isEqualTo(850_000);
        assertThat(ProfilingArgs.parse("profile=p,include=a,workShare=1").workSharePpm()).isEqualTo(ProfilingArgs.PPM);
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=a,probeCost=none,workShare=0.9"))
                .hasMessageContaining("drop one of the two");
        assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=a,format=joinpoints,workShare=0.9"))
                .hasMessageContaining("apply to slot summaries");
        for (String bad : new String[] {"0", "1.5", "-0.2", "half", "NaN"}) {
            assertThatThrownBy(() -> ProfilingArgs.parse("profile=p,include=a,workShare=" + bad))
                    .hasMessageContaining("workShare=" + bad + " must be a fraction above 0 and at most 1");
        }
    }

    /**
     * The work share set over HTTP applies to the recordings started after it, and the profile's
     * meta records say how much it took out.
     */
    @Test
    void aWorkShareSetOverHttpIsAppliedToTheNextRecording() throws Exception {
        Path file = dir.resolve("share.qwp");
        start(ProfilingArgs.parse("profile=" + file + ",include=io.qosweaver.testtargets.profiled,start=paused,"
                + "probeCost=10ns,metricsPort=0"));
        int port = Integer.parseInt(log().replaceAll("(?s).*profile control on http://127\\.0\\.0\\.1:(\\d+)/.*", "$1"));
        var http = java.net.http.HttpClient.newHttpClient();
        java.util.function.BiFunction<String, String, java.net.http.HttpResponse<String>> call = (method, path) -> {
            try {
                return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + path))
                        .method(method, java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        };
        assertThat(call.apply("GET", "/profile/work-share").body().strip()).isEqualTo("1000000");
        assertThat(call.apply("POST", "/profile/work-share?ppm=abc").statusCode()).isEqualTo(400);
        assertThat(call.apply("POST", "/profile/work-share?ppm=0").statusCode()).isEqualTo(409);
        assertThat(call.apply("POST", "/profile/work-share?ppm=2000000").statusCode()).isEqualTo(409);
        var set = call.apply("POST", "/profile/work-share?ppm=500000");
        assertThat(set.statusCode()).isEqualTo(200);
        assertThat(set.body().strip()).isEqualTo("500000");
        assertThat(profiling.getWorkSharePpm()).isEqualTo(500_000);

        assertThat(call.apply("POST", "/profile/start").statusCode()).isEqualTo(200);
        new Calls().run(1000);
        assertThat(call.apply("POST", "/profile/stop").body()).contains("join points");
        BinaryProfileReader.Summary s = BinaryProfileReader.summary(file);
        assertThat(s.meta()).containsEntry(io.qosweaver.pointcuts.BinaryProfileFormat.WORK_SHARE, "0.5")
                .containsKey(io.qosweaver.pointcuts.BinaryProfileFormat.PROBE_COST_NANOS);
        long removed = Long.parseLong(s.meta().get(io.qosweaver.pointcuts.BinaryProfileFormat.PROBE_REMOVED_NANOS));
        long shareRemoved = Long.parseLong(s.meta().get(io.qosweaver.pointcuts.BinaryProfileFormat.WORK_SHARE_REMOVED_NANOS));
        long clamped = Long.parseLong(s.meta().get("clampedJoinPoints")); // gaps shorter than 10 ns lose only themselves
        assertThat(clamped).isLessThan(s.joinPoints() / 10);
        assertThat(removed).isBetween(10 * (s.joinPoints() - 1 - clamped), 10 * (s.joinPoints() - 1));
        // half of what is left of every gap: at least the 1000 calls' own work, the probe's cost aside
        assertThat(shareRemoved).isPositive();
        assertThat(s.meta().get(io.qosweaver.pointcuts.BinaryProfileFormat.TIME_BASE)).contains("of the rest 0.5000 kept");
    }
}
