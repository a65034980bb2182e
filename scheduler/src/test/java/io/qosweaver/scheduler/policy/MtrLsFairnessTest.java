package io.qosweaver.scheduler.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.RuntimeShare;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The racetest's fairness load on the fake clock ({@link MtrLsMachine}: each runner's CPU between
 * ticks exactly known): 10 runners at 9 % each through run-time shares, P = 2 on 2 cores, reserved
 * 5 %; the measure, the largest deviation of a runner's CPU from the mean of the ten over
 * each 10 s window.
 */
class MtrLsFairnessTest {
    static final int RUNNERS = 10;

    /** Runs 3 s of warm-up, then {@code windows} windows of 10 s; per window the largest deviation from the mean, as a fraction of it. */
    static Result run(Map<String, String> params, int windows) {
        return run(params, windows, new long[1]);
    }

    /** {@code longestTurn[0]}: the longest run of consecutive steps in which one runner ran, in ms. */
    static Result run(Map<String, String> params, int windows, long[] longestTurn) {
        return run(params, windows, longestTurn, MtrLsMachine.STEP_NANOS);
    }

    static Result run(Map<String, String> params, int windows, long[] longestTurn, long cpuPerStep) {
        MtrLsMachine m = new MtrLsMachine(params, 2, List.of());
        m.cpuPerStep = cpuPerStep;
        ThreadState[] ts = shareRunners(m);
        m.run(3_000);
        Result r = new Result(windows);
        long[] start = new long[RUNNERS];
        for (int i = 0; i < RUNNERS; i++) {
            start[i] = m.cpu.get(ts[i].thread());
        }
        long[] before = start.clone();
        int[] turn = new int[RUNNERS];
        for (int w = 0; w < windows; w++) {
            for (int k = 0; k < 10_000; k++) {
                m.step();
                for (int i = 0; i < RUNNERS; i++) {
                    turn[i] = MtrLsMachine.runs(ts[i]) ? turn[i] + 1 : 0;
                    longestTurn[0] = Math.max(longestTurn[0], turn[i]);
                }
            }
            long[] now = new long[RUNNERS];
            for (int i = 0; i < RUNNERS; i++) {
                now[i] = m.cpu.get(ts[i].thread());
            }
            r.windows[w] = deviation(before, now);
            before = now;
        }
        r.whole = deviation(start, before);
        for (int i = 0; i < RUNNERS; i++) {
            long k = m.policy.rounds("r" + i);
            r.minRounds = Math.min(r.minRounds, k);
            r.maxRounds = Math.max(r.maxRounds, k);
        }
        return r;
    }

    /** {@link #RUNNERS} threads, each in a run-time share of 9 %, as the racetest's fairness runners. */
    static ThreadState[] shareRunners(MtrLsMachine m) {
        ThreadState[] ts = new ThreadState[RUNNERS];
        for (int i = 0; i < RUNNERS; i++) {
            ts[i] = m.thread("r" + i);
            m.enter(ts[i], new RuntimeShare("r" + i, 0.09));
        }
        return ts;
    }

    static double deviation(long[] from, long[] to) {
        double sum = 0;
        for (int i = 0; i < from.length; i++) {
            sum += to[i] - from[i];
        }
        double mean = sum / from.length, worst = 0;
        for (int i = 0; i < from.length; i++) {
            worst = Math.max(worst, Math.abs(to[i] - from[i] - mean) / mean);
        }
        return worst;
    }

    static final class Result {
        final double[] windows;
        double whole;
        long minRounds = Long.MAX_VALUE, maxRounds;

        Result(int n) {
            windows = new double[n];
        }

        double worstWindow() {
            double w = 0;
            for (double d : windows) {
                w = Math.max(w, d);
            }
            return w;
        }
    }

    /**
     * With a 5 ms tick, turns of 10 ms start and end at the same ticks: entities due at one tick
     * must move to the rear in their order on L, or the same ones overtake the others every round
     * (before the fix: 2.5-3 % per window, and 45 rounds apart after 43 s).
     */
    @Test
    void entitiesDueAtTheSameTickKeepTheirOrderOnTheList() {
        Result r = run(Map.of("cores", "2", "sample", "5ms", "reserved", "5%", "minTurn", "0ms"), 4);
        assertThat(r.maxRounds - r.minRounds).as("rounds apart: an equal entity never overtakes another").isLessThanOrEqualTo(1);
        assertThat(r.whole).as("largest deviation from the mean over 40 s").isLessThan(0.005);
        assertThat(r.worstWindow()).as("largest deviation from the mean per 10 s window").isLessThan(0.01);
    }

    /**
     * The goal at the default settings (sample 20 ms): every runner within 1 % of the mean
     * over each 10 s window. A turn used to end at the first tick after its 9 ms quantum was used
     * (turns of 20-40 ms, 1.2-3 % per window); the tick now comes when the turn is expected to end.
     */
    @Test
    void equalSharesWithinOnePercentOfTheMeanPerTenSecondWindowAtTheDefaults() {
        long[] longest = new long[1];
        Result r = run(Map.of("cores", "2", "reserved", "5%"), 6, longest);
        assertThat(r.worstWindow()).as("largest deviation from the mean per 10 s window").isLessThan(0.01);
        assertThat(r.whole).as("over 60 s").isLessThan(0.005);
        assertThat(r.maxRounds - r.minRounds).isLessThanOrEqualTo(1);
    }

    /**
     * A turn ends at the step its 9 ms quantum is used (the fake machine parks a flagged thread at
     * its next step), not at the next 20 ms sample: the paper's turns ({@code minTurn: 0}), and the
     * default floor's (10 ms: a quantum of at least half of it is not floored); under a floor of
     * 20 ms it ends when that much is used.
     */
    @Test
    void aTurnEndsWhenItsQuantumIsUsedNotAtTheNextSample() {
        long[] longest = new long[1];
        run(Map.of("cores", "2", "reserved", "5%", "sample", "20ms", "minTurn", "0ms"), 1, longest);
        assertThat(longest[0]).as("longest turn, ms (quantum 9 ms)").isLessThanOrEqualTo(9);
        long[] dflt = new long[1];
        run(Map.of("cores", "2", "reserved", "5%", "sample", "20ms"), 1, dflt);
        assertThat(dflt[0]).as("longest turn, ms (minTurn 10 ms, quantum 9 ms)").isLessThanOrEqualTo(9);
        long[] floored = new long[1];
        run(Map.of("cores", "2", "reserved", "5%", "sample", "20ms", "minTurn", "20ms"), 1, floored);
        assertThat(floored[0]).as("longest turn, ms (minTurn 20 ms)").isEqualTo(20);
    }

    /** minSample bounds the tick rate: quanta of 0.3 ms never ask for a tick sooner than 2 ms. */
    @Test
    void tinyQuantaCannotSpinTheTickThread() {
        MtrLsMachine m = new MtrLsMachine(Map.of("cores", "2", "reserved", "0", "quantum", "10ms",
                "minSample", "2ms", "minTurn", "0ms"), 2, List.of());
        for (int i = 0; i < 4; i++) {
            m.enter(m.thread("r" + i), new RuntimeShare("r" + i, 0.03));
        }
        long soonest = Long.MAX_VALUE;
        for (int k = 0; k < 1_000; k++) {
            m.step();
            soonest = Math.min(soonest, m.policy.nextTickNanos());
        }
        assertThat(soonest).as("the shortest delay asked, ns").isEqualTo(2_000_000L);
        assertThat(m.ticks).as("ticks in 1 s").isBetween(400L, 501L);
    }

    /**
     * Runners getting 40 % of their cores (a machine shared with other work): a turn of 9 ms of CPU
     * lasts 22.5 ms of wall time; the tick expected at 9 ms finds some left and comes again when
     * the rest could be used, so the turn still ends within a step or minSample of its quantum.
     */
    @Test
    void aTurnOfThreadsGettingLessThanTheirCoreEndsWhenTheirCpuTimeReachesTheQuantum() {
        long[] longest = new long[1];
        Result r = run(Map.of("cores", "2", "reserved", "5%", "minTurn", "0ms"), 3, longest, 400_000L);
        assertThat(longest[0]).as("longest turn, ms (9 ms of CPU at 0.4 ms per ms: 22.5 ms)").isBetween(22L, 24L);
        assertThat(r.worstWindow()).isLessThan(0.01);
    }

    /**
     * The reserved share's turns last one sample (each is a park and a wake of managed work), not
     * less because its quantum is small, nor more because it is in debt; its share stays exact.
     */
    @Test
    void theReservedSharesTurnsLastOneSample() {
        MtrLsMachine m = new MtrLsMachine(Map.of("cores", "2", "reserved", "5%", "minTurn", "0ms"), 2, List.of());
        for (int i = 0; i < RUNNERS; i++) {
            m.enter(m.thread("r" + i), new RuntimeShare("r" + i, 0.09));
        }
        m.run(1_000);
        long run = 0, shortest = Long.MAX_VALUE, longest = 0, turns = 0;
        for (int k = 0; k < 20_000; k++) {
            m.step();
            if (m.policy.reserveRunning()) {
                run++;
            } else if (run > 0) {
                shortest = Math.min(shortest, run);
                longest = Math.max(longest, run);
                turns++;
                run = 0;
            }
        }
        assertThat(turns).as("turns in 20 s: 5 %% of 2 cores in 20 ms turns").isBetween(90L, 110L);
        assertThat(shortest).as("shortest turn, ms").isGreaterThanOrEqualTo(20L);
        assertThat(longest).as("longest turn, ms").isLessThanOrEqualTo(21L);
    }

    /**
     * Every 200 ms one of the two runners gets a quarter of its core for 20 ms (the JIT compiler or a
     * GC thread on its core): it holds the front of L while the other slot goes round, and someone
     * behind it gets a second turn before it ends its first. Appended at the very rear, it stayed a
     * turn behind that one for good, and the turns so given drifted like a random walk (this test:
     * 4 rounds apart and 0.19 % over 60 s before L was kept sorted by rounds; on the real host, 40 ms
     * in a minute); now the one that got ahead waits for it: 1 round, 0.08 %.
     */
    @Test
    void aRunnerTheOsSlowsOnItsCoreIsNotOvertakenForGood() {
        MtrLsMachine m = new MtrLsMachine(Map.of("cores", "2", "reserved", "0", "minTurn", "0ms"), 2, List.of());
        ThreadState[] ts = shareRunners(m);
        Random rnd = new Random(7);
        ThreadState[] slowed = new ThreadState[1];
        long[] until = new long[1];
        m.cpuOf = t -> t == slowed[0] && m.clock.now < until[0] ? MtrLsMachine.STEP_NANOS / 4 : MtrLsMachine.STEP_NANOS;
        long[] start = new long[RUNNERS];
        for (int k = 0; k < 63_000; k++) {
            if (k == 3_000) {
                for (int i = 0; i < RUNNERS; i++) {
                    start[i] = m.cpu.get(ts[i].thread());
                }
            }
            if (k % 200 == 0) {
                List<ThreadState> running = new ArrayList<>();
                for (ThreadState t : ts) {
                    if (MtrLsMachine.runs(t)) {
                        running.add(t);
                    }
                }
                slowed[0] = running.get(rnd.nextInt(running.size()));
                until[0] = m.clock.now + 20 * MtrLsMachine.STEP_NANOS;
            }
            m.step();
        }
        long[] end = new long[RUNNERS];
        long minRounds = Long.MAX_VALUE, maxRounds = 0;
        for (int i = 0; i < RUNNERS; i++) {
            end[i] = m.cpu.get(ts[i].thread());
            minRounds = Math.min(minRounds, m.policy.rounds("r" + i));
            maxRounds = Math.max(maxRounds, m.policy.rounds("r" + i));
        }
        assertThat(maxRounds - minRounds).as("rounds apart after 63 s").isLessThanOrEqualTo(1);
        assertThat(deviation(start, end)).as("largest deviation from the mean over 60 s").isLessThan(0.001);
    }

    /**
     * A runner that holds its slot without using it for a second (blocked outside a control point)
     * gets back at most one turn beyond the rest of its quantum, as the paper's blocked entity gets
     * the rest of its quantum: it is not owed the 20 rounds the others made meanwhile.
     */
    @Test
    void aRunnerThatHeldItsSlotUnusedGetsAtMostOneTurnBack() {
        MtrLsMachine m = new MtrLsMachine(Map.of("cores", "2", "reserved", "0", "minTurn", "0ms"), 2, List.of());
        ThreadState[] ts = shareRunners(m);
        m.run(3_000);
        heldSlotUnused(m, ts);
    }

    /**
     * The same with task classes of the policy file, beside a class that ran once and has nothing
     * to run since: it keeps its old place at the front of L, and must not be what bounds the
     * blocked runner's credit.
     */
    @Test
    void aRunnerOfAClassThatHeldItsSlotUnusedGetsAtMostOneTurnBackBesideAnIdleClass() {
        List<TaskClassSpec> classes = new ArrayList<>();
        for (int i = 0; i < RUNNERS; i++) {
            classes.add(MtrLsMachine.cls("r" + i, "fraction", "0.09"));
        }
        classes.add(MtrLsMachine.cls("once", "fraction", "0.01"));
        MtrLsMachine m = new MtrLsMachine(Map.of("cores", "2", "reserved", "0", "minTurn", "0ms"), 2, classes);
        ThreadState once = m.enter("once-1", "once");
        m.run(5);
        m.exit(once);
        ThreadState[] ts = new ThreadState[RUNNERS];
        for (int i = 0; i < RUNNERS; i++) {
            ts[i] = m.enter("r" + i, "r" + i);
        }
        m.run(3_000);
        heldSlotUnused(m, ts);
    }

    private static void heldSlotUnused(MtrLsMachine m, ThreadState[] ts) {
        ThreadState blocked = null;
        for (ThreadState t : ts) {
            if (MtrLsMachine.runs(t)) {
                blocked = t;
            }
        }
        ThreadState b = blocked;
        long[] until = {m.clock.now + 1_000 * MtrLsMachine.STEP_NANOS};
        m.cpuOf = t -> t == b && m.clock.now < until[0] ? 0 : MtrLsMachine.STEP_NANOS;
        m.run(1_000);
        assertThat(m.policy.rounds(b.thread().getName())).as("it held its place").isLessThan(
                m.policy.rounds(ts[b == ts[0] ? 1 : 0].thread().getName()) - 10);
        long before = m.cpu.get(b.thread());
        m.run(200);
        // Its fraction of 2 cores over 200 ms is 36 ms; the rest of its quantum and one turn back add
        // at most 18 (owed the 20 rounds, it would have run throughout: 200 ms).
        assertThat((m.cpu.get(b.thread()) - before) / 1_000_000).as("its CPU in the 200 ms after, ms")
                .isLessThanOrEqualTo(36 + 18 + 2);
        m.run(10_000);
        long min = Long.MAX_VALUE, max = 0;
        for (ThreadState t : ts) {
            if (t != b) {
                min = Math.min(min, m.policy.rounds(t.thread().getName()));
                max = Math.max(max, m.policy.rounds(t.thread().getName()));
            }
        }
        assertThat(max - min).as("the others still go round in step").isLessThanOrEqualTo(1);
    }

    /**
     * A share that joins late starts at the rounds of the rear of L, not at zero: after its first
     * turn it goes behind every runner there. Counted from zero it stayed behind them in rounds,
     * so its first move put it before all of them and it ran a second turn at once.
     */
    @Test
    void aLateJoinerGetsNoCreditForTheRoundsItMissed() {
        MtrLsMachine m = new MtrLsMachine(Map.of("cores", "2", "reserved", "0", "minTurn", "0ms"), 2, List.of());
        ThreadState[] ts = shareRunners(m);
        m.run(3_000);
        ThreadState late = m.thread("late");
        m.enter(late, new RuntimeShare("late", 0.05));
        while (m.policy.rounds("late") == 0) {
            m.step();
        }
        long[] at = new long[RUNNERS];
        for (int i = 0; i < RUNNERS; i++) {
            at[i] = m.policy.rounds("r" + i);
        }
        while (!MtrLsMachine.runs(late)) {
            m.step();
        }
        int moved = 0;
        for (int i = 0; i < RUNNERS; i++) {
            moved += m.policy.rounds("r" + i) > at[i] ? 1 : 0;
        }
        assertThat(moved).as("runners that moved before its second turn (P = 2: all but one)")
                .isGreaterThanOrEqualTo(RUNNERS - 1);
    }
}
