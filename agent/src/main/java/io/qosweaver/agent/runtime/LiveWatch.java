package io.qosweaver.agent.runtime;

import io.qosweaver.agent.bootstrap.WatchProbe;
import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.unit.watch.WatchUnit;
import io.qosweaver.agent.weaving.Weaving;
import io.qosweaver.agent.weaving.WeavingStats;
import io.qosweaver.model.pointcut.Pointcut;
import io.qosweaver.model.pointcut.PointcutParser;
import io.qosweaver.model.pointcut.PointcutSyntaxException;
import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * {@code qosweaver watch}: a tracing aspect woven into the running JVM for a bounded time, beside
 * the policy's hooks (its own transformer, so that unweaving it leaves the policy's in place). One
 * watch at a time. Weaving and unweaving hold the runtime's lock, like a swap, so that no two
 * retransformations overlap. A watch whose client went away is unwoven by a timer
 * {@link #GRACE_MS} after its end.
 */
final class LiveWatch {
    static final long GRACE_MS = 10_000;
    static final long MAX_DURATION_MS = 3_600_000;

    private final Object lock;
    private final Instrumentation inst;
    private final AgentLog log;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "qosweaver-watch-timer");
        t.setDaemon(true);
        return t;
    });
    private Weaving weaving;
    private WatchProbe.Watch watch;
    private String text;
    private ScheduledFuture<?> expiry;

    LiveWatch(Object lock, Instrumentation inst, AgentLog log) {
        this.lock = lock;
        this.inst = inst;
        this.log = log;
    }

    /**
     * Weaves the watch.
     *
     * @throws IllegalArgumentException a pointcut that does not parse, is not an execution
     *     pointcut, or selects no loaded method (then nothing stays woven)
     * @throws IllegalStateException a watch already runs
     */
    String start(String pointcutText, long durationMs, int maxPerSecond) {
        Pointcut p;
        try {
            p = PointcutParser.parse(pointcutText);
        } catch (PointcutSyntaxException e) {
            throw new IllegalArgumentException("watch: " + e.getMessage());
        }
        for (Pointcut.Designator d : p.designators()) {
            if (d.kind() != Pointcut.Kind.EXECUTION) {
                throw new IllegalArgumentException("watch: a watch selects method executions, execution(...); '"
                        + pointcutText + "' has " + d.kind().name().toLowerCase(java.util.Locale.ROOT) + "(...)");
            }
        }
        if (durationMs < 1 || durationMs > MAX_DURATION_MS || maxPerSecond < 1) {
            throw new IllegalArgumentException("watch: duration 1 ms to 1 h, rate at least 1 line a second");
        }
        synchronized (lock) {
            if (weaving != null) {
                throw new IllegalStateException("a watch already runs in this JVM (" + text + "); stop it first");
            }
            WeavingStats stats = new WeavingStats();
            WeavingStats.PointcutStats woven = stats.add("watch", "watch", pointcutText);
            watch = WatchProbe.start(maxPerSecond);
            weaving = Weaving.install(inst, List.of(WatchUnit.create(p, woven)), stats, ElementMatchers.none(),
                    AgentBuilder.Listener.NoOp.INSTANCE, log, Weaving.bootstrapCopy(WatchProbe.class));
            text = pointcutText;
            if (woven.joinPoints() == 0) {
                stopLocked();
                throw new IllegalArgumentException("watch: '" + pointcutText + "' selects no method of the classes this"
                        + " JVM has loaded; nothing is woven");
            }
            expiry = timer.schedule(this::expire, durationMs + GRACE_MS, TimeUnit.MILLISECONDS);
            String m = "watching " + woven.joinPoints() + " methods in " + stats.classesWoven() + " classes for "
                    + durationMs + " ms: " + pointcutText;
            log.info(m);
            return m;
        }
    }

    /** The lines since the last poll, then a counters line. */
    String poll() {
        synchronized (lock) {
            if (watch == null) {
                throw new IllegalStateException("no watch runs in this JVM");
            }
            return lines(watch);
        }
    }

    /** Unweaves the watch; its last lines and counters. */
    String stop() {
        synchronized (lock) {
            if (watch == null) {
                throw new IllegalStateException("no watch runs in this JVM");
            }
            WatchProbe.Watch w = watch;
            stopLocked();
            return lines(w) + "stopped: every watched class is back to its bytes before the watch\n";
        }
    }

    /** Unweaves a running watch, if any (an unweave of everything). */
    void stopIfRunning() {
        synchronized (lock) {
            if (weaving != null) {
                stopLocked();
            }
        }
    }

    private void expire() {
        synchronized (lock) {
            if (weaving != null) {
                log.warn("watch " + text + " outlived its client: unwoven");
                stopLocked();
            }
        }
    }

    private void stopLocked() {
        WatchProbe.stop();
        if (expiry != null) {
            expiry.cancel(false);
            expiry = null;
        }
        if (weaving != null) {
            weaving.reset();
            weaving = null;
        }
        watch = null;
        text = null;
    }

    private static String lines(WatchProbe.Watch w) {
        StringBuilder b = new StringBuilder();
        for (String line : w.drain()) {
            b.append(line).append('\n');
        }
        return b.append("# matched ").append(w.matched()).append(", not printed ").append(w.dropped())
                .append(" (over the rate or the buffer)\n").toString();
    }
}
