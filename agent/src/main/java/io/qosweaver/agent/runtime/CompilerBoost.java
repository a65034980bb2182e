package io.qosweaver.agent.runtime;

import io.qosweaver.agent.log.AgentLog;
import io.qosweaver.agent.natives.NativePriorities;
import io.qosweaver.platform.NativePriorityException;
import io.qosweaver.platform.NativeThreads;
import io.qosweaver.platform.PriorityProbe;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * After a change of weaving that retransformed classes (a swap to other join points, an unweave, a
 * late attach), gives the JIT's compiler threads a raised OS priority for a while, when the JVM may
 * raise one (root, or CAP_SYS_NICE), and puts their nice values back after.
 *
 * <p>Why: retransforming a class throws away the compiled code of its methods and of every method
 * that inlined them. Under the river monitor's flash crowd (40 runnable chart threads on 2 cores)
 * an {@code unweave} made 344-411 methods not entrant within 0.7 s (JFreeChart's and Marlin's
 * rendering among them), and the compiler threads, two runnable threads among 40, compiled 0-1
 * methods in C2 per 5 s for half a minute: the charts ran interpreted, at 0.18-0.21 of their rate
 * before; with this boost they kept 1.06-1.25 of it ({@code bench/results/swap/jit-2026-11-27/}).
 * A compiler thread sleeps while its queue is empty, so a
 * raised priority costs nothing then; while it has work it gets a core at nice {@value #NICE}.
 *
 * <p>Compiler threads are found by name in {@code /proc/self/task/<tid>/comm} ({@code C1
 * CompilerThre}, {@code C2 CompilerThre}, {@code JVMCI}: the kernel keeps 15 characters); the JVM
 * starts and stops some on demand, so the task list is read again every {@value #RESCAN_MILLIS} ms
 * during the window. Another retransformation during the window extends it. The window is
 * {@value #DEFAULT_SECONDS} s by default; {@code -Dqosweaver.jitBoostSeconds=0} turns the boost off.
 * While a weaving change runs ({@link #pause} to {@link #resume}) the compiler threads are back at
 * their own values: the change's thread runs at nice -20 too ({@code WeavingPriority}), and three
 * such threads on two cores made a swap right after an unweave take 1.4 s instead of about 0.5.
 * Without the permission nothing changes (the weaving priority already says so once).
 *
 * <p>Between windows a policy may ask for the compiler threads to <em>rest</em> at a lower priority
 * ({@link #rest}: the importance policy's {@code compilerNice}, a nice value or {@link #IDLE} for
 * Linux's {@code SCHED_IDLE}), so that a compilation uses the CPU the low classes use and never the one a
 * high-importance request waits for: on Tika a light request's thread waited 2.7-7.6 ms behind a C2
 * compilation on one core while the other ran an extraction in {@code SCHED_IDLE}, which it would have
 * preempted at once ({@code bench/results/mixed-tika/critpath-2026-12-06/}). A window raises them from the
 * rest and puts them back at it; the JVM starts new compiler threads from its compiler threads, so they are
 * born at the rest too, and are put back with the others when the rest ends ({@code rest(null)}: the
 * policy is gone or asks for none).
 */
final class CompilerBoost {
    static final int NICE = -20;
    /** The rest value that stands for Linux's SCHED_IDLE policy, as the scheduler's policies write it. */
    static final int IDLE = io.qosweaver.scheduler.spi.Policy.IDLE_PRIORITY;
    static final long DEFAULT_SECONDS = 30;
    static final long RESCAN_MILLIS = 500;
    private static final String[] COMPILER_NAMES = {"C1 CompilerThre", "C2 CompilerThre", "JVMCI"};

    /** A thread of this process: its kernel id and its name as the kernel knows it. */
    record Task(int tid, String name) {}

    /** Read when used: the agent registers its native priorities after this is built. */
    private final Supplier<NativeThreads> natives;
    private final Supplier<List<Task>> tasks;
    private final LongSupplier clock;
    private final long windowNanos;
    private final AgentLog log;
    /** Threads raised in the current window, with the nice values they had before. */
    private final Map<Integer, Integer> raised = new LinkedHashMap<>();
    private long until;
    private boolean active;
    /** A weaving change runs: nothing raised until {@link #resume}. */
    private boolean paused;
    /** Whether this window's first raise was said in the log. */
    private boolean told;
    /** The priority the compiler threads rest at between windows, or null for their own. */
    private Integer rest;
    /** Threads put at the rest value, with the nice values they had before. */
    private final Map<Integer, Integer> rested = new LinkedHashMap<>();
    private Thread driver;

    CompilerBoost(Supplier<NativeThreads> natives, Supplier<List<Task>> tasks, LongSupplier clock, long windowNanos, AgentLog log) {
        this.natives = natives;
        this.tasks = tasks;
        this.clock = clock;
        this.windowNanos = windowNanos;
        this.log = log;
    }

    /** The agent's boost: the registered native priorities, this process's tasks, the system clock. */
    static CompilerBoost forThisJvm(AgentLog log) {
        long seconds = Long.getLong("qosweaver.jitBoostSeconds", DEFAULT_SECONDS);
        return new CompilerBoost(NativeThreads::get, CompilerBoost::ownTasks, System::nanoTime,
                Math.max(0, seconds) * 1_000_000_000L, log);
    }

    /**
     * Classes were retransformed just now: raise the compiler threads for a window from now (or
     * extend the running one), on a daemon thread of its own. Returns at once; never throws.
     */
    synchronized void retransformed() {
        if (windowNanos == 0 || !natives.get().available() || NativePriorities.loadingWouldWarn()) {
            return;
        }
        if (!begin()) {
            return;
        }
        if (driver == null) {
            Thread t = new Thread(this::drive, "qosweaver-jit-boost");
            t.setDaemon(true);
            driver = t;
            t.start();
        }
    }

    /**
     * Opens or extends the window and raises the compiler threads not raised yet; false when the
     * JVM may not raise priorities (nothing changed). For tests, which drive {@link #step} themselves.
     */
    synchronized boolean begin() {
        until = clock.getAsLong() + windowNanos;
        if (!active) {
            told = false;
        }
        active = true;
        if (paused) {
            return true; // raised at resume
        }
        if (!raiseCompilers()) {
            active = !raised.isEmpty();
            return false;
        }
        return true;
    }

    /**
     * One step of the window: raise compiler threads started since, or, once the window is over,
     * put every raised thread's nice value back. Returns whether the window is still open.
     */
    synchronized boolean step() {
        if (!active) {
            return false;
        }
        if (clock.getAsLong() - until < 0) {
            if (!paused && !raiseCompilers()) {
                active = false;
                return false;
            }
            return true;
        }
        restore();
        return false;
    }

    /**
     * A weaving change begins: the compiler threads go back to their own nice values until
     * {@link #resume}, so that the change's thread has the CPU; the window keeps running.
     */
    synchronized void pause() {
        paused = true;
        putBack();
    }

    /** The weaving change is over: raise the compiler threads again if the window is still open. */
    synchronized void resume() {
        paused = false;
        if (active && clock.getAsLong() - until < 0 && !raiseCompilers()) {
            active = false;
        }
        if (!active) {
            restCompilers();
        }
    }

    private void drive() {
        try {
            while (true) {
                Thread.sleep(RESCAN_MILLIS);
                synchronized (this) {
                    if (!step()) {
                        driver = null;
                        return;
                    }
                }
            }
        } catch (InterruptedException e) {
            synchronized (this) {
                restore();
                driver = null;
            }
        }
    }

    /** False when the JVM may not raise priorities. */
    private boolean raiseCompilers() {
        NativeThreads natives = this.natives.get();
        for (Task t : tasks.get()) {
            if (!isCompiler(t.name()) || raised.containsKey(t.tid())) {
                continue;
            }
            try {
                Integer own = rested.remove(t.tid());
                if (rest != null && rest == IDLE && natives.isIdle(t.tid())) {
                    natives.setIdle(t.tid(), false); // resting, or born of one that was
                }
                int nice = own != null ? own : natives.getNice(t.tid());
                if (own == null && rest != null && rest != IDLE && nice == rest) {
                    nice = 0; // born of a resting thread: its own value is the process's
                }
                natives.setNice(t.tid(), NICE);
                raised.put(t.tid(), nice);
                if (!told) {
                    told = true;
                    log.info("the JIT's compiler threads at nice " + NICE + " for " + windowNanos / 1_000_000_000L
                            + " s: the retransformed methods, and those that inlined them, are compiled again"
                            + " (paused while a weaving change runs)");
                }
            } catch (NativePriorityException e) {
                if (e.permissionDenied()) {
                    return false;
                }
                // ESRCH: the JVM stopped that compiler thread meanwhile; nothing to raise
            }
        }
        return true;
    }

    private void restore() {
        if (!raised.isEmpty()) {
            log.debug("jit boost over: " + raised.size() + " compiler thread(s) back to their nice values");
        }
        putBack();
        active = false;
        restCompilers();
    }

    /**
     * The priority the compiler threads keep between windows while the policy in force asks for one: a nice
     * value, {@link #IDLE} for SCHED_IDLE, or null for their own values (the policy is gone, or asks for
     * none). Applied at once unless a window is open (then when it ends). Never throws.
     */
    synchronized void rest(Integer value) {
        if (java.util.Objects.equals(rest, value)) {
            return;
        }
        unrest();
        rest = null;
        if (value == null || !natives.get().available()) {
            return;
        }
        String why = undoable(value);
        if (why != null) {
            log.warn("the JIT's compiler threads cannot rest at " + describe(value) + " (" + why
                    + "); they keep their own priority");
            return;
        }
        rest = value;
        if (!active || paused) {
            restCompilers();
        }
    }

    /**
     * Whether this JVM may put a thread at {@code value} and back, tried on a throw-away thread: entering
     * SCHED_IDLE or a higher nice value needs no privilege, leaving it does, and a compiler thread left there
     * after the policy is gone would compile slowly for good. Null when it may; else why not.
     */
    private String undoable(int value) {
        NativeThreads n = natives.get();
        return PriorityProbe.run(n, "qosweaver-jit-rest-probe", tid -> {
            int nice = n.getNice(tid);
            if (value == IDLE) {
                n.setIdle(tid, true);
                n.setIdle(tid, false);
            } else {
                n.setNice(tid, value);
                n.setNice(tid, nice);
            }
        }, e -> (e.permissionDenied() ? "it could not be undone: " : "") + e.getMessage());
    }

    /** The rest value in force (tests). */
    synchronized Integer rest() {
        return rest;
    }

    /** The threads at the rest value now, with their nice values before (tests). */
    synchronized Map<Integer, Integer> rested() {
        return new LinkedHashMap<>(rested);
    }

    /** Every compiler thread not at the rest value yet put there; on EPERM the rest is given up, said once. */
    private void restCompilers() {
        if (rest == null) {
            return;
        }
        NativeThreads natives = this.natives.get();
        for (Task t : tasks.get()) {
            if (!isCompiler(t.name()) || rested.containsKey(t.tid()) || raised.containsKey(t.tid())) {
                continue;
            }
            try {
                int nice = natives.getNice(t.tid());
                if (rest == IDLE) {
                    natives.setIdle(t.tid(), true);
                } else {
                    natives.setNice(t.tid(), rest);
                }
                rested.put(t.tid(), nice);
            } catch (NativePriorityException e) {
                if (e.permissionDenied() || e.errno() == 0) { // EPERM, or SCHED_IDLE unsupported here
                    log.warn("the JIT's compiler threads cannot rest at " + describe(rest) + " (" + e.getMessage()
                            + "); they keep their own priority");
                    unrest();
                    rest = null;
                    return;
                }
                // ESRCH: the JVM stopped that compiler thread meanwhile
            }
        }
    }

    /**
     * Every compiler thread back from the rest value to its own: those put there, and those the JVM started
     * from them meanwhile (born at the rest), which go back to the process's own nice value, 0.
     */
    private void unrest() {
        if (rest == null) {
            return;
        }
        NativeThreads natives = this.natives.get();
        for (Task t : tasks.get()) {
            if (!isCompiler(t.name()) || raised.containsKey(t.tid())) {
                continue;
            }
            Integer own = rested.get(t.tid());
            try {
                if (rest == IDLE && natives.isIdle(t.tid())) {
                    natives.setIdle(t.tid(), false);
                }
                if (own != null) {
                    natives.setNice(t.tid(), own);
                } else if (rest != IDLE && natives.getNice(t.tid()) == rest) {
                    natives.setNice(t.tid(), 0);
                }
            } catch (NativePriorityException gone) {
                // the thread ended, or may not be put back: nothing more to do for it
            }
        }
        rested.clear();
    }

    private static String describe(int value) {
        return value == IDLE ? "SCHED_IDLE" : "nice " + value;
    }

    /** Every raised thread back to the nice value it had. */
    private void putBack() {
        NativeThreads natives = this.natives.get();
        for (Map.Entry<Integer, Integer> e : raised.entrySet()) {
            try {
                natives.setNice(e.getKey(), e.getValue());
            } catch (NativePriorityException gone) {
                // the thread ended (the JVM stops idle compiler threads): nothing to put back
            }
        }
        raised.clear();
    }

    /** The threads raised now, with their nice values before (tests). */
    synchronized Map<Integer, Integer> raised() {
        return new LinkedHashMap<>(raised);
    }

    static boolean isCompiler(String name) {
        for (String prefix : COMPILER_NAMES) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** This process's threads from {@code /proc/self/task}; empty where there is none (not Linux). */
    static List<Task> ownTasks() {
        List<Task> out = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path d : dirs) {
                try {
                    String name = Files.readString(d.resolve("comm"), StandardCharsets.UTF_8).strip();
                    out.add(new Task(Integer.parseInt(d.getFileName().toString()), name));
                } catch (IOException | NumberFormatException gone) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            return List.of();
        }
        return out;
    }
}
