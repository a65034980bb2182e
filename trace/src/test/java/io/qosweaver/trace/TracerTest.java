package io.qosweaver.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.platform.LinuxThreads;
import io.qosweaver.trace.app.AppTrace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perfetto.protos.DebugAnnotationOuterClass.DebugAnnotation;
import perfetto.protos.TrackDescriptorOuterClass.TrackDescriptor;
import perfetto.protos.TrackEventOuterClass.TrackEvent;

class TracerTest {
    @TempDir
    Path dir;

    private static final Object LOCK = new Object();

    static long arg(TrackEvent e, String name) {
        for (DebugAnnotation a : e.getDebugAnnotationsList()) {
            if (a.getName().equals(name)) {
                return a.getIntValue();
            }
        }
        throw new AssertionError("no argument " + name + " in " + e);
    }

    static String sarg(TrackEvent e, String name) {
        for (DebugAnnotation a : e.getDebugAnnotationsList()) {
            if (a.getName().equals(name)) {
                return a.getStringValue();
            }
        }
        return null;
    }

    /** The tid of the thread track named {@code name}. */
    static int tidOf(TraceChecks t, String name) {
        return t.tracks.values().stream().filter(d -> d.hasThread() && name.equals(d.getThread().getThreadName()))
                .mapToInt(d -> d.getThread().getTid()).findFirst()
                .orElseThrow(() -> new AssertionError("no thread track named " + name));
    }

    /** The events on the child track {@code level} of the thread {@code tid}. */
    static List<TrackEvent> level(TraceChecks t, int tid, String level) {
        List<Long> threadTracks = t.tracks.values().stream()
                .filter(d -> d.hasThread() && d.getThread().getTid() == tid).map(TrackDescriptor::getUuid)
                .collect(Collectors.toList());
        List<TrackEvent> out = new ArrayList<>();
        for (var p : t.events) {
            TrackDescriptor d = t.tracks.get(p.getTrackEvent().getTrackUuid());
            if (d != null && threadTracks.contains(d.getParentUuid()) && level.equals(d.getName())) {
                out.add(p.getTrackEvent());
            }
        }
        return out;
    }

    @Test
    void everyLevelLandsOnTheThreadsOsTidWithItsJavaName() throws Exception {
        Path f = dir.resolve("all.pftrace");
        Tracer tracer = Tracer.start(TraceOptions.defaults(f), m -> { });
        AtomicInteger workerTid = new AtomicInteger();
        CountDownLatch holding = new CountDownLatch(1);
        Thread holder = new Thread(() -> {
            synchronized (LOCK) {
                holding.countDown();
                spin(60);
            }
        }, "trace-test-holder");
        Thread worker = new Thread(() -> {
            workerTid.set(LinuxThreads.currentTid());
            try {
                holding.await();
            } catch (InterruptedException e) {
                return;
            }
            AppTrace.requestBegin("chart", "GET", "/chart");
            synchronized (LOCK) { // contended: a JFR monitor enter of about 60 ms
                spin(5);
            }
            spin(60); // on a CPU for several of the OS level's 10 ms samples (5 ms alone can fall between two)
            sleep(50);
            FakeSchedulerEvents.Enter en = new FakeSchedulerEvents.Enter();
            en.taskClass = "chart";
            en.depth = 1;
            en.commit();
            sleep(20);
            FakeSchedulerEvents.Suspend s = new FakeSchedulerEvents.Suspend();
            s.taskClass = "chart";
            s.parkedNanos = 20_000_000L;
            s.commit();
            FakeSchedulerEvents.LimitChange l = new FakeSchedulerEvents.LimitChange();
            l.policy = "importance";
            l.oldLimit = -1;
            l.newLimit = 1;
            l.running = 3;
            l.waiting = 2;
            l.commit();
            FakeSchedulerEvents.Exit ex = new FakeSchedulerEvents.Exit();
            ex.taskClass = "chart";
            ex.depth = 1;
            ex.commit();
            AppTrace.requestEnd();
        }, "trace-test-worker");
        holder.start();
        worker.start();
        holder.join();
        worker.join();
        System.gc();
        Thread.sleep(300);
        tracer.close();
        assertThat(tracer.awaitStop(10_000)).isTrue();

        TraceChecks t = TraceChecks.read(f).valid();
        int tid = tidOf(t, "trace-test-worker");
        assertThat(tid).isEqualTo(workerTid.get());

        // OS: states from /proc on the worker's tid
        List<TrackEvent> os = level(t, tid, "OS state");
        assertThat(os).extracting(TrackEvent::getName).contains("Sleeping").containsAnyOf("Running",
                "Runnable (waiting for CPU)");
        // JVM: the contended enter, and the join of the Java thread to the OS tid
        List<TrackEvent> jvm = level(t, tid, "JVM");
        assertThat(jvm).extracting(TrackEvent::getName).contains("monitor enter");
        TrackEvent join = jvm.stream().filter(e -> e.getName().equals("thread")).findFirst().orElseThrow();
        assertThat(arg(join, "osThreadId")).isEqualTo(tid);
        assertThat(sarg(join, "javaName")).isEqualTo("trace-test-worker");
        // scheduler: enter, the suspension as a slice, the limit as counters
        List<TrackEvent> sched = level(t, tid, "scheduler");
        assertThat(sched).extracting(TrackEvent::getType).containsExactly(TrackEvent.Type.TYPE_SLICE_BEGIN,
                TrackEvent.Type.TYPE_SLICE_BEGIN, TrackEvent.Type.TYPE_SLICE_END, TrackEvent.Type.TYPE_SLICE_END);
        assertThat(sched).extracting(TrackEvent::getName).containsExactly("chart", "suspended", "", "");
        assertThat(t.on("scheduler limit (importance)")).extracting(TrackEvent::getCounterValue).contains(1L);
        assertThat(t.on("scheduler waiting")).extracting(TrackEvent::getCounterValue).contains(2L);
        // application: the request on the thread's own track
        List<TrackEvent> req = t.on("trace-test-worker").stream()
                .filter(e -> e.getType() == TrackEvent.Type.TYPE_SLICE_BEGIN).collect(Collectors.toList());
        assertThat(req).extracting(TrackEvent::getName).containsExactly("chart");
        assertThat(sarg(req.get(0), "path")).isEqualTo("/chart");
        // process-wide: GC pauses, the loss counter, the closing statistics
        assertThat(t.on("GC pauses")).isNotEmpty();
        assertThat(t.on("trace events lost")).isNotEmpty();
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(stats.getName()).isEqualTo("trace statistics");
        assertThat(arg(stats, "jfrDrained")).isEqualTo(1);
        assertThat(arg(stats, "lostRingFull")).isZero();
    }

    @Test
    void aDurationStopsTheTracerByItselfAndLevelsCanBeLeftOut() throws Exception {
        Path f = dir.resolve("short.pftrace");
        TraceOptions o = TraceOptions.parse(java.util.Map.of("trace", f.toString(), "traceDuration", "300ms",
                "traceLevels", "os"));
        Tracer tracer = Tracer.start(o, m -> { });
        assertThat(tracer.awaitStop(10_000)).isTrue();
        TraceChecks t = TraceChecks.read(f).valid();
        assertThat(t.tracks.values()).extracting(TrackDescriptor::getName).contains("OS state")
                .doesNotContain("JVM", "GC pauses");
    }

    @Test
    void aFullRingsLossIsCountedAndWrittenIntoTheTrace() throws Exception {
        Path f = dir.resolve("lossy.pftrace");
        TraceOptions o = TraceOptions.parse(java.util.Map.of("trace", f.toString(), "traceLevels", "app",
                "traceBuffer", "16"));
        Tracer tracer = Tracer.start(o, m -> { });
        Thread burst = new Thread(() -> {
            for (int i = 0; i < 500; i++) { // far faster than one drain every 100 ms
                AppTrace.requestBegin("chart", "GET", "/chart");
                AppTrace.requestEnd();
            }
        }, "trace-test-burst");
        burst.start();
        burst.join();
        tracer.close();
        TraceChecks t = TraceChecks.read(f).valid();
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        long lost = arg(stats, "lostRingFull");
        assertThat(lost).isGreaterThan(0).isLessThanOrEqualTo(1000 - 16);
        assertThat(t.on("trace events lost")).extracting(TrackEvent::getCounterValue).contains(lost);
        assertThat(t.on("trace-test-burst")).hasSize((int) (1000 - lost));
    }

    @Test
    void anUnwritableFileIsReportedWithItsPath() throws Exception {
        Path blocker = Files.writeString(dir.resolve("file"), "x");
        assertThatThrownBy(() -> Tracer.start(TraceOptions.defaults(blocker.resolve("t.pftrace")), m -> { }))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("cannot write the trace file")
                .hasMessageContaining("t.pftrace");
    }

    static void spin(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        long x = 0;
        while (System.nanoTime() < end) {
            x += x * 31 + 7;
        }
        if (x == 42) {
            System.out.print("");
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
