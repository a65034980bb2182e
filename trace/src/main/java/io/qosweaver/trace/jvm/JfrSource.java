package io.qosweaver.trace.jvm;

import io.qosweaver.trace.proto.Args;
import io.qosweaver.trace.proto.PerfettoWriter;
import io.qosweaver.trace.timeline.Level;
import io.qosweaver.trace.timeline.Timeline;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingStream;

/**
 * The JVM and scheduler levels, from JFR streamed in this process ({@link RecordingStream}).
 *
 * <p>JVM: contended monitor enters, monitor waits and parks longer than a threshold, GC pauses (a
 * process-wide track), thread starts. Scheduler: the scheduler already records every decision as a
 * JFR event ({@code qosweaver.Enter}, {@code Exit}, {@code Yield}, {@code Suspend}, {@code Resume},
 * {@code LimitChange}); enabling them here is the whole hook, and costs the scheduler nothing while
 * no recording asks for them. Enter and exit make a slice per task-class scope.
 *
 * <p>Every event's thread is joined to its OS thread: JFR's {@link RecordedThread} carries the OS
 * thread id, so each event lands on the same per-tid tracks as the OS level's samples, and the
 * first event of each thread writes an instant "thread" with both ids and the Java name.
 *
 * <p>Time: JFR hands out {@link Instant}s; a calibration event ({@link ClockEvent}) committed every
 * second with {@link System#nanoTime()} inside gives the offset to the trace's clock.
 */
public final class JfrSource implements AutoCloseable {
    private final Timeline timeline;
    private final boolean jvm;
    private final boolean scheduler;
    private final Duration threshold;
    private final RecordingStream rs;
    private final Map<Long, Boolean> joined = new ConcurrentHashMap<>();
    private final Map<String, Integer> tidByName = new ConcurrentHashMap<>();
    private final CountDownLatch fenceSeen = new CountDownLatch(1);
    private final ClockOffset offset;
    private final SequentialSlices sequential = new SequentialSlices();
    private volatile long events;
    private long gcTrack;
    private static final long FORGET_AFTER_NANOS = 60_000_000_000L;

    public JfrSource(Timeline timeline, boolean jvm, boolean scheduler, Duration threshold) {
        this.timeline = timeline;
        this.jvm = jvm;
        this.scheduler = scheduler;
        this.threshold = threshold;
        Instant now = Instant.now();
        this.offset = new ClockOffset(System.nanoTime() - epochNanos(now));
        this.rs = new RecordingStream();
    }

    private static long epochNanos(Instant i) {
        return i.getEpochSecond() * 1_000_000_000L + i.getNano();
    }

    private long mono(Instant i) {
        return epochNanos(i) + offset.get();
    }

    public long events() {
        return events;
    }

    /** JVM-level slices whose start was moved to the end of the thread's slice before (see {@link SequentialSlices}). */
    public long trimmedOverlaps() {
        return sequential.trimmed();
    }

    /** JVM-level slices dropped because they lay inside the thread's slice before. */
    public long droppedOverlaps() {
        return sequential.dropped();
    }

    public void start() {
        rs.enable(ClockEvent.class);
        rs.onEvent("qosweaver.trace.Clock", e -> {
            long nano = e.getLong("nanoTime");
            offset.add(nano - epochNanos(e.getStartTime()));
            sequential.forgetEndedBefore(nano - FORGET_AFTER_NANOS);
            if (e.getBoolean("fence")) {
                fenceSeen.countDown();
            }
        });
        if (jvm) {
            gcTrack = timeline.processChild("GC pauses", 0);
            rs.enable("jdk.JavaMonitorEnter").withThreshold(threshold);
            rs.enable("jdk.JavaMonitorWait").withThreshold(threshold);
            rs.enable("jdk.ThreadPark").withThreshold(threshold);
            rs.enable("jdk.GCPhasePause");
            rs.enable("jdk.ThreadStart");
            // One event per live Java thread every second: joins and names threads that do nothing
            // JFR records otherwise (those already running when an attached tracer starts).
            rs.enable("jdk.ThreadAllocationStatistics").withPeriod(Duration.ofSeconds(1));
            rs.onEvent("jdk.ThreadAllocationStatistics", e -> thread(e.getThread("thread")));
            rs.onEvent("jdk.JavaMonitorEnter", e -> blocked(e, "monitor enter", "monitorClass", "previousOwner"));
            rs.onEvent("jdk.JavaMonitorWait", e -> blocked(e, "monitor wait", "monitorClass", "notifier"));
            rs.onEvent("jdk.ThreadPark", e -> blocked(e, "park", "parkedClass", null));
            rs.onEvent("jdk.GCPhasePause", this::gcPause);
            rs.onEvent("jdk.ThreadStart", e -> thread(e.getThread("thread")));
        }
        if (scheduler) {
            for (String n : new String[] {"Enter", "Exit", "Yield", "Suspend", "Resume", "LimitChange"}) {
                rs.enable("qosweaver." + n);
            }
            rs.onEvent("qosweaver.Enter", this::enter);
            rs.onEvent("qosweaver.Exit", this::exit);
            rs.onEvent("qosweaver.Yield", e -> targeted(e, "yield requested"));
            rs.onEvent("qosweaver.Resume", e -> targeted(e, "resume"));
            rs.onEvent("qosweaver.Suspend", this::suspend);
            rs.onEvent("qosweaver.LimitChange", this::limit);
        }
        // The stream runs on a daemon of ours: startAsync's thread would keep the application's JVM
        // alive. Waiting until the calibration event is enabled means the recording runs: nothing
        // the application does after start() returns is missed.
        Thread t = new Thread(() -> {
            try {
                rs.start();
            } catch (IllegalStateException e) {
                // closed before it started
            }
        }, "qosweaver-trace-jfr");
        t.setDaemon(true);
        t.start();
        jdk.jfr.EventType clock = jdk.jfr.EventType.getEventType(ClockEvent.class);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!clock.isEnabled() && System.nanoTime() < deadline && t.isAlive()) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        calibrate(false);
    }

    /** Commits a calibration event; the tracer calls this about once a second. */
    public void calibrate(boolean fence) {
        ClockEvent c = new ClockEvent();
        c.fence = fence;
        c.nanoTime = System.nanoTime();
        c.commit();
    }

    /** The OS tid of a JFR thread (joined and named on first sight), or -1. */
    private int thread(RecordedThread t) {
        if (t == null) {
            return -1;
        }
        long os = t.getOSThreadId();
        if (os <= 0 || os > Integer.MAX_VALUE) {
            return -1; // a virtual thread, or a thread JFR saw without its OS id
        }
        int tid = (int) os;
        String name = t.getJavaName();
        if (name != null) {
            timeline.nameThread(tid, name);
            tidByName.put(name, tid);
        }
        if (joined.putIfAbsent(t.getJavaThreadId() << 32 ^ os, Boolean.TRUE) == null) {
            timeline.instant(System.nanoTime(), Timeline.levelTrack(tid, Level.JVM), "thread", "jvm",
                    new Args().add("javaThreadId", t.getJavaThreadId()).add("osThreadId", os).add("javaName", name));
        }
        return tid;
    }

    private static String className(RecordedClass c) {
        return c == null ? null : c.getName();
    }

    private void blocked(RecordedEvent e, String what, String classField, String otherThread) {
        events++;
        int tid = thread(e.getThread());
        if (tid < 0) {
            return;
        }
        Args a = new Args().add("class", className(e.getClass(classField)));
        if (otherThread != null) {
            RecordedThread o = e.getThread(otherThread);
            if (o != null) {
                a.add(otherThread, o.getJavaName()).add(otherThread + "Tid", o.getOSThreadId());
            }
        }
        long end = mono(e.getEndTime());
        long start = sequential.start(tid, mono(e.getStartTime()), end);
        if (start != SequentialSlices.DROP) {
            timeline.slice(start, end, Timeline.levelTrack(tid, Level.JVM), what, "jvm", a);
        }
    }

    private void gcPause(RecordedEvent e) {
        events++;
        timeline.slice(mono(e.getStartTime()), mono(e.getEndTime()), gcTrack, e.getString("name"), "gc",
                new Args().add("gcId", e.getInt("gcId")));
    }

    /** A task-class scope begins: a slice named by the class, ended by its exit. */
    private void enter(RecordedEvent e) {
        events++;
        int tid = thread(e.getThread());
        if (tid >= 0) {
            String cls = e.getString("taskClass");
            timeline.begin(mono(e.getStartTime()), Timeline.levelTrack(tid, Level.SCHEDULER), cls, "scheduler",
                    new Args().add("taskClass", cls).add("depth", e.getInt("depth")));
        }
    }

    private void exit(RecordedEvent e) {
        events++;
        int tid = thread(e.getThread());
        if (tid >= 0) {
            timeline.end(mono(e.getStartTime()), Timeline.levelTrack(tid, Level.SCHEDULER));
        }
    }

    /** Yield and resume name their target thread: on its track when the name is known, else the decider's. */
    private void targeted(RecordedEvent e, String what) {
        events++;
        int decider = thread(e.getThread());
        String target = e.getString("targetThread");
        Integer tid = target == null ? null : tidByName.get(target);
        int on = tid != null ? tid : decider;
        if (on >= 0) {
            timeline.instant(mono(e.getStartTime()), Timeline.levelTrack(on, Level.SCHEDULER), what, "scheduler",
                    new Args().add("thread", target).add("taskClass", e.getString("taskClass"))
                            .add("byTid", decider));
        }
    }

    /** A suspension: the event is committed when the thread goes on, and says how long it was parked. */
    private void suspend(RecordedEvent e) {
        events++;
        int tid = thread(e.getThread());
        if (tid >= 0) {
            long end = mono(e.getStartTime());
            long parked = Math.max(0, e.getLong("parkedNanos"));
            String cls = e.getString("taskClass");
            timeline.slice(end - parked, end, Timeline.levelTrack(tid, Level.SCHEDULER), "suspended", "scheduler",
                    new Args().add("taskClass", cls).add("interrupted", e.getBoolean("interrupted") ? 1 : 0));
        }
    }

    private void limit(RecordedEvent e) {
        events++;
        long ts = mono(e.getStartTime());
        String policy = e.getString("policy");
        timeline.counter(ts, timeline.processChild("scheduler limit (" + policy + ")", PerfettoWriter.UNIT_COUNT),
                e.getInt("newLimit"));
        timeline.counter(ts, timeline.processChild("scheduler running", PerfettoWriter.UNIT_COUNT), e.getInt("running"));
        timeline.counter(ts, timeline.processChild("scheduler waiting", PerfettoWriter.UNIT_COUNT), e.getInt("waiting"));
    }

    /**
     * Stops the stream once what was committed before this call has been delivered (a fence
     * calibration event, waited for up to {@code waitMillis}).
     */
    public boolean stop(long waitMillis) {
        // JDK 20+: RecordingStream.stop() returns once every recorded event was consumed, also while
        // the JVM exits (where JFR's own shutdown hook may end the recording before a fence
        // arrives). JDK 17 has no stop(): the fence below.
        try {
            Object stopped = RecordingStream.class.getMethod("stop").invoke(rs);
            rs.close();
            return Boolean.TRUE.equals(stopped);
        } catch (NoSuchMethodException e) {
            // JDK 17 to 19
        } catch (ReflectiveOperationException | RuntimeException e) {
            // already stopped (the JVM is exiting): fall back to the fence, which then times out
        }
        calibrate(true);
        boolean seen;
        try {
            seen = fenceSeen.await(waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            seen = false;
        }
        rs.close();
        return seen;
    }

    @Override
    public void close() {
        rs.close();
    }
}
