package io.qosweaver.scheduler.policy;

import io.qosweaver.platform.MachineLoad;
import io.qosweaver.platform.ThreadCpuClock;
import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Parameters;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.RuntimeShare;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import io.qosweaver.scheduler.stats.EntityShare;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Move-To-Rear List Scheduling (Q-JVM, section 3): proportional CPU shares for managed threads.
 *
 * <p>Every entity (a task class whose threads share one allotment, or a thread: {@code entity})
 * has a service fraction alpha, a time stamp and a quantum {@code left}. The service list L is
 * ordered by time stamp; the threads' order keys in the mechanism's queues are their entity's time
 * stamp, so the runners are always the first threads on L that the limit of {@code cores} (P)
 * allows. CPU time consumed is subtracted from {@code left}; at or below zero the entity gets a
 * new, later time stamp (it moves to the rear) and {@code left = alpha * T + left}. A runner whose
 * entity moved behind a waiter, or behind a thread that joins ahead of it, is told to yield and
 * parks at its next control point (the paper's preemption). With P slots, L is also kept sorted
 * by the quanta each entity was granted, so that one the OS slowed on its core is not overtaken for
 * good ({@link #moveToRear}).
 *
 * <p>CPU time is read from the platform's per-thread clock at the policy's tick for threads that
 * are not parked, and on the thread itself when it joins or leaves a managed scope; never at a
 * control point. The tick comes when the first running turn is expected to end ({@code left / k}
 * of wall time for an entity on k slots: CPU time grows at most as fast as wall time), at most
 * {@code sample} and at least {@code minSample} apart ({@link #nextTickNanos}); a turn with less
 * than {@code minSample / 2} left moves at the tick that sees it. A turn thus ends within about the
 * tick's wake-up latency or {@code minSample / 2} of its quantum, plus the way to the runner's next
 * control point; the overshoot is carried as debt. Entities due at one tick move in their order
 * on L (ties must not favour the same entities every round). With {@code minTurn} (ours, 10 ms by
 * default; 0 gives the paper's turns) a turn of a quantum under half of it also lasts at least that
 * much CPU, the excess paid as debt: fewer turn changes, each a park and a hand-off between OS
 * threads, for the same fractions.
 *
 * <p>Urgent entities are pinned at the front and idle ones at the rear, and neither is charged
 * (the paper's ClockHandler and Idler). The reserved share is an
 * entity of its own on L (the paper's OS thread): while it is among the first P it holds one of
 * the P slots and is charged the wall time; its weight follows the active fractions, so that
 * managed work leaves it exactly that share. Its turns last at least {@code sample}: each is a
 * preemption of managed work, and its quantum is small.
 *
 * <p>A decision (a tick, a join, a leave) runs the move-to-rear loop on the policy's own list and
 * hands the mechanism its outcome only: each moved entity's threads re-keyed once, a smaller
 * limit before and a larger one after, so that no parked thread is woken and told to yield again.
 *
 * <p>Admission control: at install, the fractions of the classes (and of the groups, counted once
 * for their members) must not exceed {@code 1 - reserved}, and a group's members not the group's
 * fraction; {@link #setFraction} applies the same rules at run time.
 *
 * <p>The policy's own code allocates nothing once a thread's slot exists (one per thread record,
 * reused); {@link #shares()} allocates when stats are read, and the JVM's clock may allocate when
 * the tick thread reads another thread's CPU time (never on an application thread's path).
 */
final class MtrLsPolicy implements Policy {
    static final String NAME = "mtr-ls";
    static final String ENTITY = "entity", QUANTUM = "quantum", SAMPLE = "sample",
            MIN_SAMPLE = "minSample", MIN_TURN = "minTurn", CORES = "cores", RESERVED = "reserved", WINDOW = "window",
            GROUP_PREFIX = "group.", RESERVED_SLOT = "reservedSlot";
    static final String FRACTION = "fraction", SHARE = "share", URGENT = "urgent", IDLE = "idle",
            GROUP = "group", PRIORITY = "priority";
    static final long DEFAULT_QUANTUM_NANOS = 100_000_000L, DEFAULT_SAMPLE_NANOS = 20_000_000L,
            DEFAULT_MIN_SAMPLE_NANOS = 1_000_000L, DEFAULT_WINDOW_NANOS = 1_000_000_000L,
            DEFAULT_MIN_TURN_NANOS = 10_000_000L;
    /**
     * {@link Entity#turnCpu} of an entity whose refill left it in debt: no turn is open, so nothing
     * holds it at the front (it moves again whenever it holds a slot, paying one quantum a move).
     */
    static final long NO_TURN = Long.MIN_VALUE / 4;
    static final double DEFAULT_RESERVED = 0.05;
    /** The {@code task_class} label of run-time shares' entities in the metrics. */
    static final String RUNTIME_TASK_CLASS = "api";
    /**
     * Java priority p without an explicit fraction asks p * 0.3 %: NORM_PRIORITY (5) is the 1.5 %
     * the paper gave each runner of its first configuration, MAX (10) 3 %, MIN (1) 0.3 %.
     */
    static final double FRACTION_PER_PRIORITY = 0.003;

    /** Order key = time stamp << SUB_BITS | the thread's rank within its entity. */
    static final int SUB_BITS = 20;
    static final long SUB_MASK = (1L << SUB_BITS) - 1;
    static final long URGENT_STAMP = 0, IDLE_STAMP = (Long.MAX_VALUE >> SUB_BITS) - 1;

    /** Ranks: an urgent scope nested in another managed one decides the thread's role. */
    static final int RANK_IDLE = 1, RANK_NORMAL = 2, RANK_URGENT = 3;

    static final byte NORMAL = 0, PINNED_URGENT = 1, PINNED_IDLE = 2, RESERVE = 3;

    /** A scheduling entity: a task class, a thread, or the reserved share. */
    static final class Entity {
        String name;
        /** The thread of a thread entity (for its metrics name), else null. */
        Thread thread;
        String taskClass;
        byte kind;
        String group;
        double fraction;
        long quantum;
        long left;
        long stamp;
        /**
         * Quanta granted since the entity first joined L (one per move to the rear): its service
         * normalized by its fraction, in units of T. L is kept sorted by it (see {@link #moveToRear}).
         */
        long vround;
        /** On L (normal and reserved entities only). */
        boolean onList;
        Entity prev, next;
        /** Member threads in key order (class entities: any number; thread entities: one). */
        Slot head, tail;
        int members;
        int nextSub;
        boolean due;
        Entity dueNext;
        /** Moved in the decision being made: its threads are re-keyed once when it is applied. */
        boolean moved;
        Entity movedNext;
        /** 0: not yet decided in this decision; 1: keep the members' order; 2: rotated. */
        int rekeyOrder;
        long cpu, cpuAtWindow, cpuAtRotation, rounds;
        /**
         * {@link #cpu} when its current turn began (its last refill that left {@code left} positive),
         * or {@link #NO_TURN}: a turn ends once {@code left} is used up and at least {@code minTurn}
         * of CPU has been used in it.
         */
        long turnCpu;
        double share, lag;
        /** The run-time share of an entity the application asked for (Java API), else null. */
        RuntimeShare runtime;
        /** Run-time share entities with threads inside (their fractions are polled at the tick). */
        Entity dynPrev, dynNext;

        Entity(String name, String taskClass, byte kind) {
            this.name = name;
            this.taskClass = taskClass;
            this.kind = kind;
        }

        String kindName() {
            switch (kind) {
                case PINNED_URGENT: return "urgent";
                case PINNED_IDLE: return "idle";
                case RESERVE: return "reserved";
                default: return "fraction";
            }
        }
    }

    /** The policy's per-thread slot. */
    static final class Slot {
        Thread owner;
        ThreadView view;
        Entity entity;
        /** The thread's own entity when entities are threads; allocated once per slot. */
        Entity own;
        long lastCpu, lastWall;
        /** The time stamp the thread's key was last set from (so that it is set once per move). */
        long rekeyed = -1;
        Slot prev, next;
        Slot allPrev, allNext;
        boolean member;
    }

    /** A managed class as ranked: its entity (class mode) and what its threads ask (thread mode). */
    static final class ClassInfo {
        final String name;
        final byte kind;
        final String group;
        /** NaN: from each thread's Java priority (thread mode only). */
        double fraction;
        final Entity entity;

        ClassInfo(String name, byte kind, String group, double fraction, Entity entity) {
            this.name = name;
            this.kind = kind;
            this.group = group;
            this.fraction = fraction;
            this.entity = entity;
        }
    }

    private final boolean perThread;
    private final long quantumNanos, sampleNanos, minSampleNanos, minTurnNanos, windowNanos;
    /** The delay to the next tick, set by each tick (see {@link #nextTickNanos()}). */
    private long nextTick;
    private final int cores;
    private final double reserved;
    private final Map<String, Double> groups;
    private final ThreadCpuClock clock;
    private final MachineLoad load;
    private final PolicyContext context;
    /** Built once: the join that warns must not allocate. */
    private final String overcommitWarning;

    private final Map<String, ClassInfo> classes = new LinkedHashMap<>();
    /** Admission sums: ungrouped fractions plus whole groups, and per group its members. */
    private double admitted;
    private final Map<String, Double> groupAdmitted = new LinkedHashMap<>();

    /** L: normal entities and the reserved share, by time stamp (appended at the rear). */
    private Entity lHead, lTail;
    private long lastStamp;
    private final Entity os;
    private boolean osRunning;
    /** When the reserved share's turn began (it lasts at least {@code sample}: see {@link #mayEnd}). */
    private long osTurnStart;
    /**
     * Whether something outside managed work was runnable at the last tick (true when the machine's
     * load is unknown): the reserved share holds its slot only then.
     */
    private boolean othersRunnable = true;
    private Slot allHead;
    private int membersTotal, urgentMembers;
    private Entity dueHead;
    private Entity movedHead, movedTail;
    private long lastTick = Long.MIN_VALUE, windowStart = Long.MIN_VALUE;
    /** Run-time share entities with threads inside. */
    private Entity dynHead;
    /**
     * The fractions of the entities with threads inside now (what the reserved share's weight
     * follows), and the thread-mode joins that took it over the bound.
     */
    private double activeSum;
    private long overcommittedJoins;

    MtrLsPolicy(boolean perThread, long quantumNanos, long sampleNanos, long minSampleNanos, long minTurnNanos,
            long windowNanos, int cores, double reserved, Map<String, Double> groups, PolicyContext context) {
        this.perThread = perThread;
        this.quantumNanos = quantumNanos;
        this.sampleNanos = sampleNanos;
        this.minSampleNanos = Math.min(minSampleNanos, sampleNanos);
        this.minTurnNanos = minTurnNanos;
        this.nextTick = sampleNanos;
        this.windowNanos = windowNanos;
        this.cores = cores;
        this.reserved = reserved;
        this.groups = groups;
        this.context = context;
        this.clock = context.cpuClock();
        this.load = context.machineLoad();
        this.overcommitWarning = NAME + ": the threads inside managed task classes ask more than "
                + percent(1 - reserved) + " together; their fractions hold only relative to each other"
                + " (entity: thread cannot refuse a thread entering its scope)";
        double sumGroups = 0;
        for (Map.Entry<String, Double> g : groups.entrySet()) {
            sumGroups += g.getValue();
            if (sumGroups > 1 - reserved + 1e-9) {
                throw new PolicyConfigException("policy." + GROUP_PREFIX + g.getKey(), "the groups' fractions add up to "
                        + percent(sumGroups) + ", more than the " + percent(1 - reserved)
                        + " left beside the reserved share (reserved: " + percent(reserved) + "); lower "
                        + GROUP_PREFIX + g.getKey() + " or another group");
            }
            groupAdmitted.put(g.getKey(), 0.0);
        }
        admitted = sumGroups;
        if (reserved > 0) {
            os = new Entity("os", "os", RESERVE);
            setFraction(os, reserved);
            os.left = os.quantum;
        } else {
            os = null;
        }
    }

    static Policy create(PolicyContext context) {
        Parameters p = context.parameters();
        List<String> known = new ArrayList<>(List.of(ENTITY, QUANTUM, SAMPLE, MIN_SAMPLE, MIN_TURN, CORES, RESERVED,
                WINDOW, RESERVED_SLOT));
        Map<String, Double> groups = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : p.asMap().entrySet()) {
            String k = e.getKey();
            if (k.startsWith(GROUP_PREFIX) && k.length() > GROUP_PREFIX.length()) {
                known.add(k);
            }
        }
        p.allowOnly(known, "entity (class or thread), quantum, sample, minSample, minTurn and window (durations such as"
                + " 100ms),"
                + " cores (a number of threads, or a multiple of the cores such as 1x), reserved (a fraction"
                + " such as 0.05 or 5%), reservedSlot (on-demand or always), group.NAME (a group's fraction, such as 40%)");
        for (Map.Entry<String, String> e : p.asMap().entrySet()) {
            if (e.getKey().startsWith(GROUP_PREFIX)) {
                double f = parseFraction(e.getValue());
                if (!(f > 0 && f <= 1)) {
                    throw new PolicyConfigException("policy." + e.getKey(), e.getKey() + " must be a fraction in (0, 1]"
                            + " such as 0.4 or 40%, got '" + e.getValue() + "'");
                }
                groups.put(e.getKey().substring(GROUP_PREFIX.length()), f);
            }
        }
        String entity = p.asMap().getOrDefault(ENTITY, "class").trim();
        if (!entity.equals("class") && !entity.equals("thread")) {
            throw new PolicyConfigException("policy." + ENTITY, "entity must be class (a task class's threads"
                    + " share one allotment) or thread (each thread has its own), got '" + entity + "'");
        }
        long quantum = p.durationNanos(QUANTUM, DEFAULT_QUANTUM_NANOS, 1_000_000L);
        long sample = p.durationNanos(SAMPLE, DEFAULT_SAMPLE_NANOS, 100_000L);
        long minSample = p.durationNanos(MIN_SAMPLE, DEFAULT_MIN_SAMPLE_NANOS, 100_000L);
        long window = p.durationNanos(WINDOW, DEFAULT_WINDOW_NANOS, 10_000_000L);
        long minTurn = p.durationNanos(MIN_TURN, DEFAULT_MIN_TURN_NANOS, 0L);
        if (minTurn > quantum) {
            throw new PolicyConfigException("policy." + MIN_TURN, "minTurn must be at most the quantum T ("
                    + p.asMap().getOrDefault(QUANTUM, "100ms") + "): it lengthens turns whose quantum is shorter, and"
                    + " one longer than T would hold every entity past its whole quantum; got '"
                    + p.asMap().get(MIN_TURN) + "'");
        }
        int cores = p.threadCount(CORES, context.cores(), context.cores(),
                "P, the managed threads that may run at once");
        if (cores < 1) {
            throw new PolicyConfigException("policy." + CORES, "cores must be at least 1 thread (P = 0 would run"
                    + " nothing), got '" + p.asMap().get(CORES) + "'");
        }
        String r = p.asMap().get(RESERVED);
        double reserved = DEFAULT_RESERVED;
        if (r != null) {
            reserved = parseFraction(r);
            if (!(reserved >= 0 && reserved < 1)) {
                throw new PolicyConfigException("policy." + RESERVED, "reserved must be a fraction in [0, 1) such as"
                        + " 0.05 or 5% (the share left to the rest of the JVM and the machine), got '" + r + "'");
            }
        }
        String slot = p.asMap().getOrDefault(RESERVED_SLOT, "on-demand").trim();
        if (!slot.equals("on-demand") && !slot.equals("always")) {
            throw new PolicyConfigException("policy." + RESERVED_SLOT, "reservedSlot must be on-demand (the reserved"
                    + " share holds its slot only while something unmanaged is runnable) or always (the paper's:"
                    + " during all its turns), got '" + slot + "'");
        }
        PolicyContext ctx = slot.equals("always") ? context.withMachineLoad(MachineLoad.UNKNOWN) : context;
        return new MtrLsPolicy(entity.equals("thread"), quantum, sample, minSample, minTurn, window, cores, reserved,
                groups, ctx);
    }

    /** {@code 0.2}, {@code 20%}; NaN when neither. */
    static double parseFraction(String v) {
        String t = v.trim();
        double scale = 1;
        if (t.endsWith("%")) {
            t = t.substring(0, t.length() - 1).trim();
            scale = 0.01;
        }
        try {
            double d = Double.parseDouble(t) * scale;
            return Double.isFinite(d) && !t.isEmpty() ? d : Double.NaN;
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    static String percent(double f) {
        return String.format(Locale.ROOT, "%.4g%%", f * 100);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long tickNanos() {
        return sampleNanos;
    }

    /**
     * When the first turn running now is expected to end (see {@link #turnEnd(long)}), at most
     * {@code sample} and at least {@code minSample} away.
     */
    @Override
    public long nextTickNanos() {
        return nextTick;
    }

    /** Run-time shares are entities of their own, ranked as fraction classes (innermost wins). */
    @Override
    public int shareRank() {
        return RANK_NORMAL;
    }

    /**
     * What the policy file's classes and groups leave beside the reserved share (in thread mode
     * they count one thread each, as admission does).
     */
    @Override
    public double shareCapacity() {
        return Math.max(0, 1 - reserved - admitted);
    }

    // ------------------------------------------------------------------ configuration

    @Override
    public int rank(TaskClassSpec spec) {
        String n = spec.name();
        String fr = spec.attribute(FRACTION), sh = spec.attribute(SHARE), pr = spec.attribute(PRIORITY);
        String grp = spec.attribute(GROUP);
        boolean urgent = bool(spec, URGENT), idle = bool(spec, IDLE);
        String imp = spec.attribute(Importance.ATTRIBUTE);
        if (fr == null && sh == null && pr == null && grp == null && !urgent && !idle) {
            // Without MTR-LS attributes, importance keeps its meaning across policies: high is
            // urgent, low asks the fraction of a normal priority, normal is not managed.
            if (imp == null || imp.equals("normal")) {
                return 0;
            } else if (imp.equals("high")) {
                urgent = true;
            } else if (!imp.equals("low")) {
                throw new PolicyConfigException("taskClasses." + n + "." + Importance.ATTRIBUTE,
                        "importance must be high, low or normal, got '" + imp + "'");
            }
        }
        if (urgent && idle) {
            throw new PolicyConfigException("taskClasses." + n + "." + IDLE, "a task class cannot be both urgent"
                    + " (front of the service list) and idle (its rear); remove one");
        }
        if (fr != null && sh != null) {
            throw new PolicyConfigException("taskClasses." + n + "." + SHARE, "give either fraction or share, not"
                    + " both (they mean the same: 0.2 is 20%)");
        }
        String fKey = fr != null ? FRACTION : sh != null ? SHARE : PRIORITY;
        if ((urgent || idle) && (fr != null || sh != null || pr != null || grp != null)) {
            throw new PolicyConfigException("taskClasses." + n + "." + (fr != null || sh != null || pr != null
                    ? fKey : GROUP), "an " + (urgent ? "urgent" : "idle") + " task class is not charged and asks"
                    + " no fraction; remove " + (fr != null || sh != null || pr != null ? fKey : GROUP));
        }
        if (urgent || idle) {
            byte kind = urgent ? PINNED_URGENT : PINNED_IDLE;
            Entity e = new Entity(n, n, kind);
            e.stamp = urgent ? URGENT_STAMP : IDLE_STAMP;
            classes.put(n, new ClassInfo(n, kind, null, 0, e));
            return urgent ? RANK_URGENT : RANK_IDLE;
        }
        double f;
        if (fr != null || sh != null) {
            f = parseFraction(fr != null ? fr : sh);
            if (!(f > 0 && f <= 1)) {
                throw new PolicyConfigException("taskClasses." + n + "." + fKey, fKey + " must be a fraction in"
                        + " (0, 1] such as 0.2 or 20%, got '" + (fr != null ? fr : sh) + "'");
            }
        } else if (pr != null) {
            int prio;
            try {
                prio = Integer.parseInt(pr.trim());
            } catch (NumberFormatException e) {
                prio = -1;
            }
            if (prio < Thread.MIN_PRIORITY || prio > Thread.MAX_PRIORITY) {
                throw new PolicyConfigException("taskClasses." + n + "." + PRIORITY, "priority must be a Java"
                        + " priority from 1 to 10 (it asks priority * 0.3 %), got '" + pr + "'");
            }
            f = prio * FRACTION_PER_PRIORITY;
        } else {
            f = perThread ? Double.NaN : Thread.NORM_PRIORITY * FRACTION_PER_PRIORITY;
        }
        if (grp != null && !groups.containsKey(grp)) {
            throw new PolicyConfigException("taskClasses." + n + "." + GROUP, "group '" + grp + "' has no fraction;"
                    + " add policy parameter " + GROUP_PREFIX + grp + " (such as " + GROUP_PREFIX + grp + ": 40%)");
        }
        double asked = Double.isNaN(f) ? Thread.NORM_PRIORITY * FRACTION_PER_PRIORITY : f;
        // Thread mode: a class's fraction is each thread's, so only one thread's is checked here.
        admit(n, grp, 0, asked, fKey);
        if (!perThread) {
            add(grp, asked);
        }
        Entity e = perThread ? null : new Entity(n, n, NORMAL);
        if (e != null) {
            e.group = grp;
            setFraction(e, asked);
            e.left = e.quantum;
        }
        classes.put(n, new ClassInfo(n, NORMAL, grp, f, e));
        return RANK_NORMAL;
    }

    private static boolean bool(TaskClassSpec spec, String key) {
        String v = spec.attribute(key);
        if (v == null) {
            return false;
        }
        String t = v.trim().toLowerCase(Locale.ROOT);
        if (!t.equals("true") && !t.equals("false")) {
            throw new PolicyConfigException("taskClasses." + spec.name() + "." + key, key + " must be true or false,"
                    + " got '" + v + "'");
        }
        return t.equals("true");
    }

    /** Refuses {@code asked} (replacing {@code old}) beyond 1 - reserved, or beyond the group's fraction. */
    private void admit(String cls, String grp, double old, double asked, String key) {
        if (grp != null) {
            double g = groups.get(grp), sum = groupAdmitted.get(grp) - old + asked;
            if (sum > g + 1e-9) {
                throw new PolicyConfigException("taskClasses." + cls + "." + key, "group '" + grp + "' has "
                        + percent(g) + "; its task classes would ask " + percent(sum) + " with " + cls + " at "
                        + percent(asked) + "; lower " + cls + "'s " + key + " or raise " + GROUP_PREFIX + grp);
            }
        } else {
            double sum = admitted - old + asked;
            if (sum > 1 - reserved + 1e-9) {
                throw new PolicyConfigException("taskClasses." + cls + "." + key, "the service fractions would add up"
                        + " to " + percent(sum) + " with " + cls + " at " + percent(asked) + ", more than the "
                        + percent(1 - reserved) + " left beside the reserved share (reserved: " + percent(reserved)
                        + "); lower " + cls + "'s " + key + " or policy." + RESERVED);
            }
        }
    }

    private void add(String grp, double delta) {
        if (grp != null) {
            groupAdmitted.merge(grp, delta, Double::sum);
        } else {
            admitted += delta;
        }
    }

    /** After a refill: a turn begins now if {@code left} is positive; in debt, none (see {@link #NO_TURN}). */
    private static void openTurn(Entity e) {
        e.turnCpu = e.left > 0 ? e.cpu : NO_TURN;
    }

    private void setFraction(Entity e, double f) {
        e.fraction = f;
        e.quantum = Math.max(1, Math.round(f * quantumNanos));
    }

    /**
     * Changes a task class's service fraction at run time, with the admission control of install
     * (class entities: the class's allotment; thread entities: each of its threads'); the quantum
     * changes at the entity's next move to the rear. Call under the mechanism's lock.
     *
     * @throws PolicyConfigException naming {@code taskClasses.<name>.fraction} when refused
     */
    void setFraction(String taskClass, double fraction) {
        ClassInfo ci = classes.get(taskClass);
        String key = "taskClasses." + taskClass + "." + FRACTION;
        if (ci == null || ci.kind != NORMAL) {
            throw new PolicyConfigException(key, "task class '" + taskClass + "' is not managed by " + NAME
                    + " with a fraction");
        }
        if (!(fraction > 0 && fraction <= 1)) {
            throw new PolicyConfigException(key, "a fraction must be in (0, 1], got " + fraction);
        }
        double old = Double.isNaN(ci.fraction) ? Thread.NORM_PRIORITY * FRACTION_PER_PRIORITY : ci.fraction;
        admit(taskClass, ci.group, perThread ? 0 : old, fraction, FRACTION);
        if (!perThread) {
            add(ci.group, fraction - old);
            if (ci.entity.members > 0) {
                activeSum += fraction - ci.entity.fraction;
            }
            setFraction(ci.entity, fraction);
        } else {
            for (Slot s = allHead; s != null; s = s.allNext) {
                if (s.entity == s.own && s.own.taskClass.equals(taskClass)) {
                    activeSum += fraction - s.own.fraction;
                    setFraction(s.own, fraction);
                }
            }
        }
        ci.fraction = fraction;
        reserveWeight();
    }

    /**
     * The reserved share's quantum: its weight follows the active fractions so that it takes
     * {@code reserved} of the managed cores' time whatever they add up to. With a fixed weight, as
     * the paper's OS thread had, MTR-LS would hand it the capacity the others do not ask in
     * proportion (a single class at 1.5 % beside 5 % reserved would leave it 77 %).
     */
    private void reserveWeight() {
        if (os != null) {
            double w = reserved / (1 - reserved) * Math.max(0, activeSum);
            os.quantum = Math.max(1, Math.round(w * quantumNanos));
        }
    }

    // ------------------------------------------------------------------ joining and leaving

    @Override
    public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
        long now = c.nanos();
        if (from != null) {
            leave(c, t, cause, now);
        }
        if (to != null) {
            join(c, t, to, now); // a thread moving between managed classes stays controlled
        }
        reserveWeight();
        decide(c);
        if (from != null && to == null) {
            c.release(t); // last: its slot goes to the waiter the decision put first
        }
    }

    private void join(Control c, ThreadView t, TaskClass to, long now) {
        RuntimeShare rs = to.share();
        ClassInfo ci = rs == null ? classes.get(to.name()) : null;
        Object o = t.slot();
        Slot s;
        if (o instanceof Slot) {
            s = (Slot) o;
        } else {
            s = new Slot();
            t.setSlot(s);
        }
        boolean sameThread = s.owner == t.thread();
        s.owner = t.thread();
        s.view = t;
        Entity e;
        if (rs != null) {
            e = runtimeEntity(rs);
            if (e.members == 0) {
                // The first thread inside: the entity joins L at the rear, keeping its debt, as a
                // thread entity does (it leaves L with its last thread, so that shares the
                // application drops leave nothing behind).
                setFraction(e, rs.fraction());
                e.left = Math.min(0, e.left) + e.quantum;
                openTurn(e);
                e.head = e.tail = null;
                e.nextSub = 0;
                joinRear(e);
                e.dynPrev = null;
                e.dynNext = dynHead;
                if (dynHead != null) {
                    dynHead.dynPrev = e;
                }
                dynHead = e;
                activeSum += e.fraction;
                if (activeSum > 1 - reserved + 1e-9) {
                    overcommittedJoins++;
                    context.warnOnce(overcommitWarning);
                }
            }
        } else if (perThread && ci.kind == NORMAL) {
            e = s.own;
            if (e == null) {
                e = s.own = new Entity(null, null, NORMAL);
                sameThread = false;
            }
            e.name = s.owner.getName();
            e.thread = s.owner;
            e.taskClass = ci.name;
            e.group = ci.group;
            double f = Double.isNaN(ci.fraction) ? s.owner.getPriority() * FRACTION_PER_PRIORITY : ci.fraction;
            setFraction(e, f);
            // A thread coming back keeps its debt: it joins at the rear as a move to the rear would
            // leave it (one quantum added), and still in debt it moves on when it holds a slot.
            e.left = (sameThread ? Math.min(0, e.left) : 0) + e.quantum;
            if (!sameThread) {
                e.cpu = e.cpuAtWindow = e.cpuAtRotation = e.rounds = 0;
                e.share = e.lag = 0;
            }
            if (!sameThread) {
                e.vround = 0;
            }
            openTurn(e);
            e.members = 0;
            e.head = e.tail = null;
            e.nextSub = 0;
            joinRear(e);
            activeSum += f;
            if (activeSum > 1 - reserved + 1e-9) {
                overcommittedJoins++;
                context.warnOnce(overcommitWarning);
            }
        } else {
            e = ci.entity;
            if (e.kind == NORMAL && !e.onList) {
                joinRear(e); // first activity: at the rear; afterwards it keeps its place
            }
            if (e.kind == NORMAL && e.members == 0) {
                activeSum += e.fraction;
            }
        }
        s.entity = e;
        s.prev = e.tail; // the largest key so far: at the tail
        s.next = null;
        if (e.tail == null) {
            e.head = s;
        } else {
            e.tail.next = s;
        }
        e.tail = s;
        e.members++;
        s.allPrev = null;
        s.allNext = allHead;
        if (allHead != null) {
            allHead.allPrev = s;
        }
        allHead = s;
        s.member = true;
        if (e.kind == PINNED_URGENT) {
            urgentMembers++;
        }
        s.lastCpu = clock.cpuNanos(s.owner); // the joining thread itself: the cheap call
        s.lastWall = now;
        if (membersTotal++ == 0) {
            osRunning = false;
            c.setLimit(cores);
        }
        c.admitAtEntry(t);
        c.setOrder(t, key(e.stamp, e.nextSub++));
    }

    private void leave(Control c, ThreadView t, Cause cause, long now) {
        Object o = t.slot();
        if (!(o instanceof Slot) || !((Slot) o).member) {
            return;
        }
        Slot s = (Slot) o;
        Entity e = s.entity;
        if (cause == Cause.SCOPE) {
            sample(s, now); // on the leaving thread itself: short tasks between ticks are charged too
        }
        if (s.prev == null) {
            e.head = s.next;
        } else {
            s.prev.next = s.next;
        }
        if (s.next == null) {
            e.tail = s.prev;
        } else {
            s.next.prev = s.prev;
        }
        s.prev = s.next = null;
        e.members--;
        if (s.allPrev == null) {
            allHead = s.allNext;
        } else {
            s.allPrev.allNext = s.allNext;
        }
        if (s.allNext != null) {
            s.allNext.allPrev = s.allPrev;
        }
        s.allPrev = s.allNext = null;
        s.member = false;
        s.view = null;
        if (e.kind == PINNED_URGENT) {
            urgentMembers--;
        }
        if (e == s.own) {
            unlink(e); // a thread entity leaves L with its thread (its debt stays in the slot)
            activeSum -= e.fraction;
        } else if (e.runtime != null) {
            if (e.members == 0) {
                unlink(e); // its debt stays in the entity, which the share keeps
                activeSum -= e.fraction;
                if (e.dynPrev == null) {
                    dynHead = e.dynNext;
                } else {
                    e.dynPrev.dynNext = e.dynNext;
                }
                if (e.dynNext != null) {
                    e.dynNext.dynPrev = e.dynPrev;
                }
                e.dynPrev = e.dynNext = null;
            }
        } else if (e.kind == NORMAL && e.members == 0) {
            activeSum -= e.fraction;
        }
        if (--membersTotal == 0) {
            activeSum = 0;
        }
    }

    // ------------------------------------------------------------------ accounting

    @Override
    public void onTick(Control c, long now) {
        long elapsed = lastTick == Long.MIN_VALUE ? 0 : now - lastTick;
        lastTick = now;
        if (windowStart == Long.MIN_VALUE) {
            windowStart = now;
        }
        if (dynHead != null && pollRuntimeFractions()) {
            reserveWeight();
        }
        if (membersTotal > 0) {
            int awake = 0;
            for (Slot s = allHead; s != null; s = s.allNext) {
                if (sample(s, now)) {
                    awake++;
                }
            }
            if (osRunning && elapsed > 0) {
                charge(os, elapsed); // the reserved share held one slot since the last tick
            }
            if (os != null) {
                othersRunnable = othersRunnable(awake);
            }
            decide(c);
        }
        if (now - windowStart >= windowNanos) {
            closeWindow(now);
        }
        nextTick = turnEnd(now);
    }

    /**
     * The delay until the earliest expected end of a turn running now: an entity holding k slots
     * cannot use its {@code left} before {@code left / k} of wall time has passed (a running
     * thread's CPU time grows at most as fast as wall time), and the reserved share is charged wall
     * time. The tick then reads the CPU time and moves the entity to the rear; when its threads got
     * less than the whole core, the next delay is computed from what is left, so the turn ends at
     * the first tick after its quantum is used, within about the tick thread's wake-up latency, and
     * never more than {@code minSample} late. Nothing is read at a control point. Bounded by
     * {@code sample} (entities joining between ticks, and the window) and by {@code minSample}, so
     * that tiny quanta cannot spin the tick thread.
     */
    private long turnEnd(long now) {
        long d = Math.min(sampleNanos, windowStart + windowNanos - now); // the window closes on time
        if (membersTotal > 0 && someoneWaits()) {
            int slots = urgentMembers;
            for (Entity x = lHead; x != null && slots < cores; x = x.next) {
                int takes = slotsTaken(x);
                boolean osTurn = x == os && osRunning; // in debt, it still ends its turn at a tick
                long rest = x == os ? x.left : Math.max(x.left, turnFloorLeft(x));
                if (takes > 0 && (rest > 0 || osTurn)) {
                    int threads = Math.min(takes, cores - slots);
                    long end = (rest + threads - 1) / threads;
                    if (osTurn) {
                        end = Math.max(end, osTurnStart + sampleNanos - now);
                    }
                    d = Math.min(d, end);
                }
                slots += takes;
            }
        }
        return Math.max(minSampleNanos, d);
    }

    /**
     * Whether the entities on L want more slots than the P there are. While they do not, every one
     * of them holds its slots whatever the order, so a turn ending changes nothing and waits for
     * the {@code sample} tick (which charges it and moves it to the rear as often as its CPU says):
     * one runner alone at 1.5 % otherwise woke the tick thread every {@code minSample}, 1.6 % of a
     * core for nothing (`bench/results/racetest/overhead-threads-2026-11-27/`).
     */
    private boolean someoneWaits() {
        int slots = urgentMembers;
        for (Entity x = lHead; x != null; x = x.next) {
            slots += slotsTaken(x);
            if (slots > cores) {
                return true;
            }
        }
        return false;
    }

    /** The policy's entity for a run-time share: created at its first scope, kept on the share. */
    private Entity runtimeEntity(RuntimeShare rs) {
        Object o = rs.slot(this);
        if (o instanceof Entity) {
            return (Entity) o;
        }
        Entity e = new Entity(rs.name(), RUNTIME_TASK_CLASS, NORMAL);
        e.runtime = rs;
        rs.setSlot(this, e);
        return e;
    }

    /**
     * Applies the fractions the application changed (lock-free volatile writes on its side): the
     * new quantum from the entity's next move to the rear, as {@link #setFraction(String, double)}.
     */
    private boolean pollRuntimeFractions() {
        boolean changed = false;
        for (Entity d = dynHead; d != null; d = d.dynNext) {
            double f = d.runtime.fraction();
            if (f != d.fraction) {
                activeSum += f - d.fraction;
                setFraction(d, f);
                changed = true;
            }
        }
        return changed;
    }

    /**
     * Whether a thread the policy does not manage is runnable now, from the machine's runnable
     * count less this tick's thread and the {@code awake} managed threads (not parked: running, or
     * running on to a control point). A managed thread blocked outside a control point (I/O) is
     * counted as runnable, so such a thread can hide one unmanaged runnable thread for a tick.
     */
    private boolean othersRunnable(int awake) {
        int runnable = load.runnableThreads();
        return runnable < 0 || runnable - 1 - awake > 0;
    }

    /** Charges a thread's CPU time since its last sample (a parked thread used none); whether it is awake. */
    private boolean sample(Slot s, long now) {
        if (s.view.parked()) {
            s.lastWall = now;
            return false;
        }
        long cpu = clock.cpuNanos(s.owner);
        long d;
        if (cpu >= 0 && s.lastCpu >= 0) {
            d = cpu - s.lastCpu;
        } else {
            d = cpu < 0 ? now - s.lastWall : 0; // no CPU clock (a virtual thread): wall time while not parked
        }
        s.lastCpu = cpu;
        s.lastWall = now;
        if (d > 0) {
            charge(s.entity, d);
        }
        return true;
    }

    private void charge(Entity e, long d) {
        e.cpu += d;
        if (e.kind == PINNED_URGENT || e.kind == PINNED_IDLE) {
            return; // stationary on L: their left is never updated (paper 3.3)
        }
        e.left -= d;
        if (e.left <= 0 && !e.due) {
            markDue(e);
        }
    }

    /**
     * Moves every entity whose {@code left} is used up to the rear, one quantum at a time, as the
     * paper's scheduler loop does at the head of L: an entity still in debt after its refill moves
     * again whenever it holds a slot (the others moved behind it, or cannot fill the P slots), so
     * that a debt of k quanta costs it k - 1 rounds. The loop runs on the policy's own list; the
     * mechanism sees only its outcome (each moved entity's threads re-keyed once, then the limit),
     * so that no thread is woken and told to yield again within one decision.
     */
    private void decide(Control c) {
        if (os != null && membersTotal > 0 && !os.onList) {
            joinRear(os);
        }
        processDue(c.nanos());
        // The reserved share holds a slot while it is among the first P on L and something outside
        // managed work is runnable: the limit is P - 1. Work-conserving: with nothing else wanting
        // the CPU, managed work may use all P slots, and the share, not charged, keeps its turn.
        boolean run = os != null && membersTotal > 0 && othersRunnable && slotsAhead(os) < cores;
        int limit = membersTotal == 0 ? Control.UNLIMITED : run ? cores - 1 : cores;
        if (run && !osRunning) {
            osTurnStart = c.nanos();
        }
        osRunning = run;
        // A smaller limit first (it demotes runners, never parked threads), a larger one last (it
        // wakes waiters): either way no woken thread is told to yield again by the re-keying.
        if (limit < c.limit()) {
            c.setLimit(limit);
        }
        applyMoves(c);
        if (limit > c.limit()) {
            c.setLimit(limit);
        }
    }

    private void processDue(long now) {
        int guard = 0;
        do {
            while (dueHead != null) {
                Entity e = dueHead;
                dueHead = e.dueNext;
                e.dueNext = null;
                e.due = false;
                if (e.left <= minSampleNanos / 2 && e.onList && mayEnd(e, now)) {
                    moveToRear(e, guard >= MAX_MOVES_PER_DECISION);
                }
            }
            // Entities holding a slot now, in L's order: one in debt moves (again). Scanned at least
            // once per decision: a thread coming back in debt, or an entity the others let through.
            int slots = urgentMembers;
            for (Entity x = lHead; x != null && slots < cores; x = x.next) {
                int takes = slotsTaken(x);
                // Less left than half the shortest tick interval: ending the turn now errs less than
                // ending it at the next tick; the remainder is carried (left = alpha * T + left).
                if (takes > 0 && x.left <= minSampleNanos / 2 && !x.due && mayEnd(x, now)) {
                    markDue(x);
                }
                slots += takes;
            }
            guard++;
        } while (dueHead != null);
    }

    /**
     * The waiting threads of moved entities first (a later key changes nothing for a waiter), then
     * their runners, in the order the entities moved.
     */
    private void applyMoves(Control c) {
        for (Entity e = movedHead; e != null; e = e.movedNext) {
            rekey(c, e, true);
        }
        for (Entity e = movedHead, next; e != null; e = next) {
            next = e.movedNext;
            rekey(c, e, false);
            e.movedNext = null;
            e.moved = false;
        }
        movedHead = movedTail = null;
    }

    /**
     * Whether the entity's turn may end now: always, but the reserved share's only {@code sample}
     * after it began. Its turn is a preemption of managed work, paid in a park and a wake at control
     * points; its quantum is small (4.7 ms beside 90 % of fractions, 0.08 ms beside one 1.5 % class),
     * and ending its turns as soon as used would multiply those switches. Its share stays exact: it
     * is charged the wall time of the whole turn and pays the debt in rounds.
     */
    private boolean mayEnd(Entity e, long now) {
        if (e == os) {
            return !osRunning || now - osTurnStart >= sampleNanos;
        }
        return turnFloorLeft(e) <= minSampleNanos / 2;
    }

    /**
     * The CPU the entity's open turn must still use before it may end ({@code minTurn}; at most 0
     * when none is set or the entity is in debt). Each turn change costs a park at a control point, a
     * hand-off and a tick, about 18 us of two cores on this host (the idle gap and the tick thread,
     * `bench/results/racetest/overhead-threads-2026-11-27/`): with 1.5 % fractions, turns of 1.5 ms
     * lost 1.5 % of the runners' CPU to them. A floor on a turn's length cuts the changes while
     * keeping every fraction: the CPU used beyond {@code left} is debt, paid in later rounds.
     *
     * <p>Only for a quantum under half the floor: a longer one would save less than half of its
     * turn changes, and the debt costs every entity so floored a sawtooth in its share (it skips a
     * round whenever the debt reaches a quantum, at its own phase), as large as its quantum: 10
     * runners at 9 % under a 10 ms floor were up to 1.09 % apart over 10 s windows, beside the
     * goal's 1 % (`bench/results/racetest/vround-2026-11-27/`).
     */
    private long turnFloorLeft(Entity e) {
        if (2 * e.quantum >= minTurnNanos) {
            return NO_TURN;
        }
        return minTurnNanos - (e.cpu - e.turnCpu);
    }

    /**
     * Keeps the due list in time stamp order (it is short: the entities whose quantum ran out since
     * the last decision), so that entities due at the same tick move to the rear in their order on
     * L. Pushed at the head instead, they moved in the order they were sampled in, and the same
     * entities overtook the others at every tie: with a 5 ms tick, turns start and end at the same
     * ticks, and the first-sampled entity gained a turn every few rounds (5 % more CPU than the last
     * over a whole run: MtrLsFairnessTest).
     */
    private void markDue(Entity e) {
        e.due = true;
        if (dueHead == null || e.stamp < dueHead.stamp) {
            e.dueNext = dueHead;
            dueHead = e;
            return;
        }
        Entity p = dueHead;
        while (p.dueNext != null && p.dueNext.stamp < e.stamp) {
            p = p.dueNext;
        }
        e.dueNext = p.dueNext;
        p.dueNext = e;
    }

    /** Beyond this many moves in one decision, the rest of a debt is refilled at once (bounded work). */
    static final int MAX_MOVES_PER_DECISION = 1_000;

    /**
     * A new, later time stamp, and {@code left = alpha * T + left}, on the policy's list only.
     *
     * <p>Ours beyond the paper: L stays sorted by {@link Entity#vround}, the quanta each entity was
     * granted. On the paper's one CPU that is the order of the moves already. With P slots, an
     * entity whose thread the OS ran slower than its slot's wall time (a JIT compiler or a GC thread
     * on its core) holds the front while the other slots go round: someone behind it gets a second
     * turn before it has ended its first. Appended at the very rear it would then stay a turn behind
     * that entity for good, and each such event adds a turn to a random entity: 10 runners drifted
     * by up to 4 turns (40 ms) in a minute on this host (`bench/results/racetest/vround-2026-11-27/`).
     * Here it lands before the entities a round ahead of it, which wait for it. An entity that held
     * its place without using it (blocked outside a control point, or a class with nothing to run)
     * is raised to one round behind the first entity on L with threads, so that it gets at most one turn back (the
     * paper's blocked entity keeps its place and gets the rest of its quantum). The reserved share,
     * charged wall time, is not ordered by rounds.
     */
    private void moveToRear(Entity e, boolean payAll) {
        e.left += e.quantum;
        if (payAll && e.left <= 0) {
            e.left += (-e.left / e.quantum + 1) * e.quantum; // forgiven: it does not wait for it
        }
        openTurn(e);
        e.rounds++;
        unlink(e);
        e.stamp = ++lastStamp;
        if (e == os) {
            append(e); // charged wall time, it is not ordered by rounds (and never overtaken)
        } else {
            e.vround++;
            Entity lowest = lHead;
            while (lowest != null && (lowest == os || lowest.members == 0)) {
                lowest = lowest.next; // a class with nothing to run keeps its old place, and round
            }
            if (lowest != null && lowest.vround - 1 > e.vround) {
                e.vround = lowest.vround - 1;
            }
            // The entities ahead of it in rounds are a suffix of L (it is sorted): they go behind
            // it, in their order, with new time stamps. The reserved share stays where it is; its
            // stamp may then be older than the entity before it, which is harmless: it keys no thread.
            Entity ahead = null;
            for (Entity x = lTail; x != null && (x == os || x.vround > e.vround); x = x.prev) {
                if (x != os) {
                    ahead = x;
                }
            }
            if (ahead == null) {
                append(e);
            } else {
                Entity last = lTail;
                insertBefore(e, ahead);
                for (Entity x = ahead, next; x != null; x = next) {
                    next = x == last ? null : x.next;
                    if (x != os) {
                        unlink(x);
                        x.stamp = ++lastStamp;
                        append(x);
                        markMoved(x);
                    }
                }
            }
        }
        markMoved(e);
        if (e.moved && e.head != null && e.rekeyOrder == 0) {
            // Once per T of the entity's CPU, its waiting threads go first, then those that ran, each
            // in their old order (the member list is kept in key order), so that a class's threads
            // take turns; otherwise they keep their order, so that a small quantum does not preempt
            // and wake threads of the same class at every move.
            e.rekeyOrder = e.cpu - e.cpuAtRotation >= quantumNanos ? 2 : 1;
            if (e.rekeyOrder == 2) {
                e.cpuAtRotation = e.cpu;
                rotate(e);
            }
        }
    }

    /** Reorders the member list: waiters first, then runners, each in their old order. */
    private static void rotate(Entity e) {
        Slot wHead = null, wTail = null, rHead = null, rTail = null;
        for (Slot s = e.head, next; s != null; s = next) {
            next = s.next;
            s.next = null;
            if (s.view.yieldFlag()) {
                s.prev = wTail;
                if (wTail == null) {
                    wHead = s;
                } else {
                    wTail.next = s;
                }
                wTail = s;
            } else {
                s.prev = rTail;
                if (rTail == null) {
                    rHead = s;
                } else {
                    rTail.next = s;
                }
                rTail = s;
            }
        }
        if (wTail != null) {
            wTail.next = rHead;
            if (rHead != null) {
                rHead.prev = wTail;
            }
            e.head = wHead;
            e.tail = rTail != null ? rTail : wTail;
        } else {
            e.head = rHead;
            e.tail = rTail;
        }
    }

    /** Gives the entity's waiting (or running) threads their keys from its time stamp. */
    private static void rekey(Control c, Entity e, boolean waiters) {
        int sub = 0;
        for (Slot s = e.head; s != null; s = s.next) {
            if (waiters ? s.view.yieldFlag() : s.rekeyed != e.stamp) {
                c.setOrder(s.view, key(e.stamp, sub));
                s.rekeyed = e.stamp;
            }
            sub++;
        }
        e.nextSub = sub;
        if (!waiters) {
            e.rekeyOrder = 0;
        }
    }

    /** The slots an entity on L takes when its turn comes: its threads', or the reserved share's one when it is wanted. */
    private int slotsTaken(Entity x) {
        return x.kind == RESERVE ? (othersRunnable ? 1 : 0) : x.members;
    }

    /** Slots the threads ahead of {@code e} take: urgent ones, entities before it on L, the reserved share's. */
    private int slotsAhead(Entity e) {
        int ahead = urgentMembers;
        for (Entity x = lHead; x != e && x != null && ahead < cores; x = x.next) {
            ahead += slotsTaken(x);
        }
        return ahead;
    }

    static long key(long stamp, int sub) {
        return (stamp << SUB_BITS) | (sub & SUB_MASK);
    }

    /** Adds the entity to the moved list: its threads are re-keyed from its new stamp when the decision is applied. */
    private void markMoved(Entity e) {
        if (!e.moved && e.head != null) {
            e.moved = true;
            e.movedNext = null;
            if (movedTail == null) {
                movedHead = e;
            } else {
                movedTail.movedNext = e;
            }
            movedTail = e;
        }
    }

    /** Appends a joining entity, no earlier in rounds than the rear of L (a newcomer gets no credit). */
    private void joinRear(Entity e) {
        Entity rear = os != null && lTail == os ? os.prev : lTail;
        if (e != os && rear != null && rear.vround > e.vround) {
            e.vround = rear.vround;
        }
        e.stamp = ++lastStamp;
        append(e);
    }

    private void insertBefore(Entity e, Entity at) {
        e.prev = at.prev;
        e.next = at;
        if (at.prev == null) {
            lHead = e;
        } else {
            at.prev.next = e;
        }
        at.prev = e;
        e.onList = true;
    }

    private void append(Entity e) {
        e.prev = lTail;
        e.next = null;
        if (lTail == null) {
            lHead = e;
        } else {
            lTail.next = e;
        }
        lTail = e;
        e.onList = true;
    }

    private void unlink(Entity e) {
        if (!e.onList) {
            return;
        }
        if (e.prev == null) {
            lHead = e.next;
        } else {
            e.prev.next = e.next;
        }
        if (e.next == null) {
            lTail = e.prev;
        } else {
            e.next.prev = e.prev;
        }
        e.prev = e.next = null;
        e.onList = false;
    }

    // ------------------------------------------------------------------ metrics

    private void closeWindow(long now) {
        double capacity = (double) (now - windowStart) * cores;
        if (perThread) {
            for (Slot s = allHead; s != null; s = s.allNext) {
                if (s.own != null && s.entity == s.own) {
                    closeWindow(s.own, capacity);
                }
            }
        }
        for (ClassInfo ci : classes.values()) {
            if (ci.entity != null) {
                closeWindow(ci.entity, capacity);
            }
        }
        for (Entity d = dynHead; d != null; d = d.dynNext) {
            closeWindow(d, capacity);
        }
        if (os != null) {
            closeWindow(os, capacity);
        }
        windowStart = now;
    }

    private static void closeWindow(Entity e, double capacity) {
        long d = e.cpu - e.cpuAtWindow;
        e.cpuAtWindow = e.cpu;
        e.share = capacity > 0 ? d / capacity : 0;
        e.lag = (e.fraction * capacity - d) / 1e9;
    }

    @Override
    public List<EntityShare> shares() {
        List<EntityShare> out = new ArrayList<>();
        for (ClassInfo ci : classes.values()) {
            if (ci.entity != null) {
                out.add(report(ci.entity));
            }
        }
        if (perThread) {
            for (Slot s = allHead; s != null; s = s.allNext) {
                if (s.own != null && s.entity == s.own) {
                    out.add(report(s.own));
                }
            }
        }
        for (Entity d = dynHead; d != null; d = d.dynNext) {
            out.add(report(d));
        }
        if (os != null) {
            out.add(report(os));
        }
        return out;
    }

    @SuppressWarnings("deprecation") // getId: threadId() is JDK 19+, this is Java 17 bytecode
    private static EntityShare report(Entity e) {
        // A thread entity is named with its thread's id: thread names need not be unique.
        String name = e.thread != null ? e.name + "#" + e.thread.getId() : e.name;
        return new EntityShare(name, e.taskClass, e.kindName(), e.fraction, e.share, e.lag, e.cpu, e.rounds);
    }

    // ------------------------------------------------------------------ for tests

    /** The service list's normal and reserved entities, front first. */
    List<String> serviceList() {
        List<String> l = new ArrayList<>();
        for (Entity e = lHead; e != null; e = e.next) {
            l.add(e.name);
        }
        return l;
    }

    /** The entity's {@code left} in nanoseconds (class entities and the reserved share: "os"). */
    long left(String entity) {
        return entity(entity).left;
    }

    long rounds(String entity) {
        return entity(entity).rounds;
    }

    private Entity entity(String name) {
        if (os != null && name.equals("os")) {
            return os;
        }
        ClassInfo ci = classes.get(name);
        if (ci != null && ci.entity != null) {
            return ci.entity;
        }
        for (Slot s = allHead; s != null; s = s.allNext) {
            if (s.own != null && name.equals(s.own.name)) {
                return s.own;
            }
        }
        for (Entity d = dynHead; d != null; d = d.dynNext) {
            if (name.equals(d.name)) {
                return d;
            }
        }
        throw new IllegalArgumentException("no entity " + name);
    }

    boolean reserveRunning() {
        return osRunning;
    }

    int cores() {
        return cores;
    }

    long quantumNanos() {
        return quantumNanos;
    }

    double reserved() {
        return reserved;
    }

    boolean perThread() {
        return perThread;
    }

    long overcommittedJoins() {
        return overcommittedJoins;
    }
}
