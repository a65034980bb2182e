package io.qosweaver.scheduler.policy;

import io.qosweaver.scheduler.spi.Control;
import io.qosweaver.scheduler.spi.Parameters;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.TaskClass;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.spi.ThreadView;
import java.util.ArrayList;
import java.util.List;

/**
 * Adaptive target throughput (QoSWeaver paper, 4.4 and 5.5). Three levels of
 * {@code importance}: high (the collector), middle (the up-to-date page) and low (the charts).
 *
 * <ul>
 *   <li>While no high task runs, the policy keeps the middle class's throughput (its completed
 *       tasks per second) near {@code target}: every {@code period} (the scheduler's tick) the
 *       limit on running low threads is multiplied by observed/target, then bounded to
 *       [{@code lowMin}, {@code lowMax}] (paper: 5 becomes 6 at 180 against 150 pages/s; between 1
 *       and 6 in its Fig. 25). The limit is kept as a real number and rounded when applied, so that
 *       a limit of 1 can grow again under a ratio below 1.5. A period in which no middle task
 *       completed and no middle thread is inside its scope has no middle demand: the limit goes to
 *       {@code lowMax} (the paper saw it rise "just after JMeter stopped sending requests").
 *   <li>While a high task runs, at most {@code lowLimit} low threads run (the importance policy's
 *       limit, paper: one), at most {@code middleCap} middle threads run (paper: 15), and a middle
 *       thread that had to wait sleeps {@code middlePacing} (paper: 100 ms) before it goes on,
 *       holding its slot, which bounds the middle throughput to about middleCap / middlePacing.
 *       Middle threads wait at their scope's entry, as the paper's {@code startMidImportance}
 *       does. Those already running hold slots and count against the cap; the ones over it are
 *       told to yield and park at their next control point, if their code has one (the paper's
 *       up-to-date page had none, so they ran to their end). The throughput is not adjusted
 *       meanwhile.
 *   <li>When the last high task ends, the low limit returns to its value before the high task
 *       (the paper changed this from a fixed value so that the limit settles quickly), every
 *       waiting middle thread goes on without pacing, and a new measurement period starts; a tick
 *       less than half a period into it does not judge it (the paper's {@code adjust} "does
 *       nothing until the specified time elapses").
 * </ul>
 *
 * <p>Limits apply per task class (a cap on each low class and on each middle class, through
 * {@link Control#setCap}), the same as a limit on the level with one class of each, as in the
 * paper. Low threads are suspended at their next control point, as with importance.
 *
 * <p>Beyond the paper, two parameters (their defaults are the paper's behaviour):
 * <ul>
 *   <li>{@code dither} (default false): the real-valued limit is applied as a time average of the
 *       integers around it, the cap changing {@value #DITHER_STEPS} times a period with the
 *       rounding error carried from one step to the next (error diffusion). Where one thread more
 *       or less moves the middle throughput by much more than the tolerance (on 2 cores, one chart
 *       thread moves the up-to-date page by about 20 %), a rounded limit can only oscillate around
 *       the target; a dithered one holds it on average.
 *   <li>{@code gain} (default 1, the paper's): the limit is multiplied by
 *       {@code (observed/target)^gain}. Below 1 it damps the reaction to one period's noise (a
 *       second of up-to-date pages varies by about 10 % at a constant limit here) at the cost of a
 *       slower approach.
 * </ul>
 */
final class AdaptivePolicy implements Policy {
    static final String NAME = "adaptive";
    static final String TARGET = "target", PERIOD = "period", LOW_MIN = "lowMin", LOW_MAX = "lowMax",
            LOW_INITIAL = "lowInitial", LOW_LIMIT = "lowLimit", MIDDLE_CAP = "middleCap",
            MIDDLE_PACING = "middlePacing", DITHER = "dither", GAIN = "gain";
    /** Cap changes per period when dithering. */
    static final int DITHER_STEPS = 10;
    static final double DEFAULT_TARGET = 150;
    static final long DEFAULT_PERIOD_NANOS = 1_000_000_000L, DEFAULT_PACING_NANOS = 100_000_000L;
    static final int DEFAULT_LOW_MIN = 1, DEFAULT_LOW_MAX = 6, DEFAULT_LOW_LIMIT = 1, DEFAULT_MIDDLE_CAP = 15;

    private final double target;
    private final long periodNanos;
    private final int lowMin, lowMax, lowLimit, middleCap;
    private final long middlePacingNanos;
    private final boolean dither;
    private final double gain;
    /** The rounding error carried to the next dithering step. */
    private double carry;
    /** The cap applied to low classes while no high task runs (dithered or rounded). */
    private int applied;

    private final List<TaskClass> lowClasses = new ArrayList<>(2);
    private final List<TaskClass> middleClasses = new ArrayList<>(2);
    /** The adaptive limit on running low threads while no high task runs. */
    private double low;
    private double lowBeforeHigh;
    private int highThreads;
    /** The measurement period: its start on the scheduler's clock, and the middle completions then. */
    private long windowStart;
    private long windowCompleted;
    private double lastObserved = Double.NaN;

    AdaptivePolicy(double target, long periodNanos, int lowMin, int lowMax, int lowInitial, int lowLimit,
            int middleCap, long middlePacingNanos) {
        this(target, periodNanos, lowMin, lowMax, lowInitial, lowLimit, middleCap, middlePacingNanos, false, 1);
    }

    AdaptivePolicy(double target, long periodNanos, int lowMin, int lowMax, int lowInitial, int lowLimit,
            int middleCap, long middlePacingNanos, boolean dither, double gain) {
        this.target = target;
        this.periodNanos = periodNanos;
        this.lowMin = lowMin;
        this.lowMax = lowMax;
        this.low = lowInitial;
        this.lowLimit = lowLimit;
        this.middleCap = middleCap;
        this.middlePacingNanos = middlePacingNanos;
        this.dither = dither;
        this.gain = gain;
        this.applied = lowInitial;
    }

    static Policy create(PolicyContext context) {
        Parameters p = context.parameters().allowOnly(
                List.of(TARGET, PERIOD, LOW_MIN, LOW_MAX, LOW_INITIAL, LOW_LIMIT, MIDDLE_CAP, MIDDLE_PACING, DITHER,
                        GAIN),
                "target, the middle class's completed tasks per second (a number > 0); period and middlePacing,"
                        + " durations such as 1s or 100ms; lowMin, lowMax, lowInitial, lowLimit and middleCap, a"
                        + " number of threads (an integer, or a multiple of the cores such as 1x); dither, true or"
                        + " false; gain, a number in (0, 1]");
        int cores = context.cores();
        double target = p.number(TARGET, DEFAULT_TARGET, 0, 1e9,
                "the middle class's target throughput, completed tasks per second");
        if (target <= 0) {
            throw new PolicyConfigException("policy." + TARGET, "target must be greater than 0, got '"
                    + p.asMap().get(TARGET) + "'");
        }
        long period = p.durationNanos(PERIOD, DEFAULT_PERIOD_NANOS, 1_000_000L);
        int lowMin = p.threadCount(LOW_MIN, DEFAULT_LOW_MIN, cores, "the smallest adaptive limit on running low threads");
        if (lowMin < 1) {
            throw new PolicyConfigException("policy." + LOW_MIN, "lowMin must be at least 1 thread: a limit of 0"
                    + " could never grow again by multiplication; got '" + p.asMap().get(LOW_MIN) + "'");
        }
        int lowMax = p.threadCount(LOW_MAX, Math.max(DEFAULT_LOW_MAX, lowMin), cores,
                "the largest adaptive limit on running low threads");
        if (lowMax < lowMin) {
            throw new PolicyConfigException("policy." + LOW_MAX, "lowMax (" + lowMax + " threads) must not be below"
                    + " lowMin (" + lowMin + " threads)");
        }
        int lowInitial = p.threadCount(LOW_INITIAL, lowMax, cores, "the adaptive limit at start");
        if (lowInitial < lowMin || lowInitial > lowMax) {
            throw new PolicyConfigException("policy." + LOW_INITIAL, "lowInitial (" + lowInitial + " threads) must lie"
                    + " between lowMin (" + lowMin + ") and lowMax (" + lowMax + ")");
        }
        int lowLimit = p.threadCount(LOW_LIMIT, DEFAULT_LOW_LIMIT, cores,
                "the number of low threads that keep running while a high one runs");
        int middleCap = p.threadCount(MIDDLE_CAP, DEFAULT_MIDDLE_CAP, cores,
                "the number of middle threads that run while a high one runs");
        long pacing = p.durationNanos(MIDDLE_PACING, DEFAULT_PACING_NANOS, 0);
        double gain = p.number(GAIN, 1, 0, 1, "the exponent of observed/target throughput in the limit's update");
        if (gain <= 0) {
            throw new PolicyConfigException("policy." + GAIN, "gain must be greater than 0 (0 would never adapt),"
                    + " got '" + p.asMap().get(GAIN) + "'");
        }
        if (p.booleanValue(DITHER, false) && period / DITHER_STEPS < 1_000_000L) {
            throw new PolicyConfigException("policy." + PERIOD, "with dither the period must be at least "
                    + DITHER_STEPS + "ms (the cap changes " + DITHER_STEPS + " times a period), got '"
                    + p.asMap().get(PERIOD) + "'");
        }
        return new AdaptivePolicy(target, period, lowMin, lowMax, lowInitial, lowLimit, middleCap, pacing,
                p.booleanValue(DITHER, false), gain);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int rank(TaskClassSpec spec) {
        return Importance.rankOfThree(spec);
    }

    @Override
    public long tickNanos() {
        return dither ? periodNanos / DITHER_STEPS : periodNanos;
    }

    @Override
    public void onStart(Control c) {
        windowStart = c.nanos();
    }

    @Override
    public void onRoleChange(Control c, ThreadView t, TaskClass from, TaskClass to, Cause cause) {
        learn(c, from);
        learn(c, to);
        if (isLow(from) || isMiddle(from)) {
            c.release(t);
        }
        int before = highThreads;
        if (isHigh(from)) {
            highThreads--;
        }
        if (isHigh(to)) {
            highThreads++;
        }
        if (before == 0 && highThreads > 0) {
            highStarts(c);
        } else if (before > 0 && highThreads == 0) {
            highEnds(c);
        }
        if (isLow(to)) {
            c.admit(t);
        } else if (isMiddle(to)) {
            c.admitAtEntry(t);
        }
    }

    @Override
    public void onTick(Control c, long nowNanos) {
        if (highThreads > 0) {
            return; // the target holds outside high tasks; their end starts a new period
        }
        long elapsed = nowNanos - windowStart;
        // Undithered, a tick comes every period: less than half of one is a tick right after a high
        // task's end, too short to judge. Dithered, ticks come every step; a period is judged at
        // the step that ends it (half a step early, for the tick thread's lateness).
        long judgeAfter = dither ? periodNanos - tickNanos() / 2 : periodNanos / 2;
        if (elapsed < judgeAfter) {
            if (dither) {
                applyLow(c);
            }
            return;
        }
        long completed = middleCompleted();
        long done = completed - windowCompleted;
        windowStart = nowNanos;
        windowCompleted = completed;
        lastObserved = done * 1e9 / elapsed;
        if (done == 0 && middleMembers() == 0) {
            low = lowMax; // no middle demand: nothing to protect
        } else {
            double ratio = lastObserved / target;
            low = Math.max(lowMin, Math.min(lowMax, low * (gain == 1 ? ratio : Math.pow(ratio, gain))));
        }
        applyLow(c);
    }

    private void highStarts(Control c) {
        lowBeforeHigh = low;
        applyLow(c);
        for (TaskClass m : middleClasses) {
            c.setPacing(m, middlePacingNanos);
            c.setCap(m, middleCap);
        }
    }

    private void highEnds(Control c) {
        low = lowBeforeHigh;
        applyLow(c);
        for (TaskClass m : middleClasses) {
            c.setPacing(m, 0); // those woken now go on at once
            c.setCap(m, Control.UNLIMITED);
        }
        windowStart = c.nanos();
        windowCompleted = middleCompleted();
    }

    /** The running low threads allowed now. */
    int lowPermits() {
        return highThreads > 0 ? Math.min(lowLimit, (int) Math.round(low)) : applied;
    }

    /** Outside high tasks, the next step of the limit: rounded, or dithered with the carried error. */
    private void step() {
        if (!dither) {
            applied = (int) Math.round(low);
            return;
        }
        double want = low + carry;
        applied = (int) Math.max(lowMin, Math.min(lowMax, Math.round(want)));
        carry = want - applied;
    }

    private void applyLow(Control c) {
        if (highThreads == 0) {
            step();
        }
        int permits = lowPermits();
        for (TaskClass k : lowClasses) {
            c.setCap(k, permits);
        }
    }

    /** A class is capped as the current state says when its first thread enters it. */
    private void learn(Control c, TaskClass k) {
        if (isLow(k) && !lowClasses.contains(k)) {
            lowClasses.add(k);
            c.setCap(k, lowPermits());
        } else if (isMiddle(k) && !middleClasses.contains(k)) {
            middleClasses.add(k);
            if (highThreads > 0) {
                c.setPacing(k, middlePacingNanos);
                c.setCap(k, middleCap);
            }
        }
    }

    private long middleCompleted() {
        long sum = 0;
        for (TaskClass m : middleClasses) {
            sum += m.completed();
        }
        return sum;
    }

    private int middleMembers() {
        int sum = 0;
        for (TaskClass m : middleClasses) {
            sum += m.members();
        }
        return sum;
    }

    private static boolean isLow(TaskClass c) {
        return c != null && c.rank() == Importance.LOW3;
    }

    private static boolean isMiddle(TaskClass c) {
        return c != null && c.rank() == Importance.MIDDLE3;
    }

    private static boolean isHigh(TaskClass c) {
        return c != null && c.rank() == Importance.HIGH3;
    }

    // for tests
    double low() {
        return low;
    }

    double lastObserved() {
        return lastObserved;
    }

    int highThreads() {
        return highThreads;
    }
}
