package io.qosweaver.agent.profiling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ThreadTimeTest {

    /**
     * 1,000 join points, 40 ns of probe and between two calls no work (one gap in ten) or 50 to
     * 300 ns of it (so the gaps from the cheapest to twice that are all a probe alone); a 3 ms
     * preemption after the 400th, 3 ms off the CPU: the corrected timeline is the work alone (the
     * preemption's gap cut to the floor of a pause, the probe taken from every gap).
     */
    @Test
    void theProbeAndThePreemptionAreTakenOut() {
        Random rnd = new Random(9);
        int n = 1000;
        long[] t = new long[n];
        long[] work = new long[n];
        t[0] = 5_000;
        for (int i = 1; i < n; i++) {
            work[i] = rnd.nextInt(10) == 0 ? 0 : 50 + rnd.nextInt(250);
            t[i] = t[i - 1] + 40 + work[i] + (i == 401 ? 3_000_000 : 0);
        }
        long wallEnd = t[n - 1] + 40;
        long cpu = wallEnd - t[0] - 3_000_000;
        long[] out = new long[n];
        ThreadTime tt = new ThreadTime(25, true);
        tt.correct(7, t, 0, n, 100, 100 + cpu, wallEnd, out);
        long expected = t[0];
        for (int i = 0; i < n; i++) {
            if (i > 0) {
                // the cut gap keeps the floor of a pause, less the probe
                expected += i == 401 ? ThreadTime.MIN_PAUSE_NANOS - 40 : work[i];
            }
            assertThat(out[i]).as("join point %d", i).isEqualTo(expected);
        }
        assertThat(tt.offCpuRemoved()).isEqualTo(3_000_000 + 40 + work[401] - ThreadTime.MIN_PAUSE_NANOS);
        assertThat(tt.meanCost()).isEqualTo(40);
        assertThat(tt.clamped()).isZero();
        assertThat(tt.describe()).contains("40 to 40 ns").contains("calibration 25 ns").contains("3 ms off the CPU");

        // the thread's next chunk goes on from there; another thread starts its own timeline
        long[] next = {wallEnd + 10, wallEnd + 60};
        long[] out2 = new long[2];
        tt.correct(7, next, 0, 2, -1, -1, -1, out2);
        assertThat(out2[1] - out2[0]).isEqualTo(10); // 50 ns less the chunk's cost
        tt.correct(8, next, 0, 2, -1, -1, -1, out2);
        assertThat(out2[0]).isEqualTo(next[0]);
        assertThat(out2[1]).isEqualTo(next[0] + 50 - 25); // too few gaps to estimate: the calibration's cost
    }

    /**
     * A probe that costs 40 ns, and 60 ns one time in four (a store that misses the cache), with no
     * work between the calls: the estimate is its mean, 45 ns, not its cheapest case.
     */
    @Test
    void theEstimateIsTheProbesMeanNotItsCheapestCase() {
        long[] t = new long[4096];
        for (int i = 1; i < t.length; i++) {
            t[i] = t[i - 1] + (i % 4 == 0 ? 60 : 40);
        }
        long[] out = new long[t.length];
        ThreadTime tt = new ThreadTime(25, true);
        tt.correct(1, t, 0, t.length, -1, -1, -1, out);
        assertThat(tt.describe()).contains("45 to 45 ns");
    }

    @Test
    void aGivenCostIsUsedThroughout() {
        long[] t = new long[600];
        for (int i = 0; i < t.length; i++) {
            t[i] = i * 100L;
        }
        long[] out = new long[t.length];
        ThreadTime tt = new ThreadTime(30, false);
        tt.correct(1, t, 0, t.length, -1, -1, -1, out);
        assertThat(out[599]).isEqualTo(599 * 70L);
        assertThat(tt.describe()).startsWith("the probe's cost 30 ns (given)");
    }

    /**
     * A work share (measured against an unprofiled run) keeps that share of every gap once the
     * estimate is out: the total shrinks by exactly that share, and no gap is emptied by it.
     */
    @Test
    void aWorkShareScalesEveryGapOnceTheEstimateIsOut() {
        long[] t = new long[4096];
        for (int i = 1; i < t.length; i++) {
            t[i] = t[i - 1] + (i % 2 == 0 ? 41 : 1001); // probe alone: 40 ns and next to nothing; probe and work: 1 us
        }
        long[] plain = new long[t.length];
        long[] scaled = new long[t.length];
        ThreadTime without = new ThreadTime(25, true);
        without.correct(1, t, 0, t.length, -1, -1, -1, plain);
        ThreadTime with = new ThreadTime(25, true, 0.75);
        with.correct(1, t, 0, t.length, -1, -1, -1, scaled);
        assertThat(with.probeRemoved()).isEqualTo(without.probeRemoved());
        assertThat(with.clamped()).isEqualTo(without.clamped());
        long left = plain[t.length - 1] - plain[0];
        assertThat(scaled[t.length - 1] - scaled[0]).isBetween((long) (0.75 * left) - 1, (long) (0.75 * left) + 1);
        assertThat(with.shareRemoved()).isEqualTo(left - (scaled[t.length - 1] - scaled[0]));
        for (int i = 1; i < t.length; i++) {
            long before = plain[i] - plain[i - 1];
            assertThat(scaled[i] - scaled[i - 1]).as("gap %d", i).isBetween((long) (0.75 * before), (long) (0.75 * before) + 1);
        }
        assertThat(with.describe()).contains("of the rest 0.7500 kept (workShare");
        assertThat(without.describe()).doesNotContain("workShare");
        for (double bad : new double[] {0, -0.1, 1.01, Double.NaN}) {
            assertThatThrownBy(() -> new ThreadTime(25, true, bad)).hasMessageContaining("is not in (0, 1]");
        }
    }

    /** The share's rounding is carried from gap to gap: many 1 ns remainders add up, not vanish. */
    @Test
    void theWorkShareDoesNotLoseTimeToRounding() {
        long[] t = new long[3000];
        for (int i = 0; i < t.length; i++) {
            t[i] = i * 31L; // a given cost of 30 leaves 1 ns per gap
        }
        long[] out = new long[t.length];
        ThreadTime tt = new ThreadTime(30, false, 0.5);
        tt.correct(1, t, 0, t.length, -1, -1, -1, out);
        assertThat(out[t.length - 1] - out[0]).isBetween((t.length - 1) / 2L - 1, (t.length - 1) / 2L + 1);
        assertThat(tt.probeRemoved()).isEqualTo(30L * (t.length - 1));
    }

    /** The gaps are cut to a common level, the longest first, until the time off the CPU is removed. */
    @Test
    void theLongestGapsAreCutToOneLevel() {
        assertThat(ThreadTime.level(new long[] {10_000, 50_000, 30_000}, 20_000)).isEqualTo(30_000);
        assertThat(ThreadTime.level(new long[] {10_000, 50_000, 30_000}, 30_000)).isEqualTo(25_000);
        assertThat(ThreadTime.level(new long[] {10_000, 50_000}, 1_000_000)).isEqualTo(ThreadTime.MIN_PAUSE_NANOS);
        Random rnd = new Random(5);
        for (int i = 0; i < 500; i++) {
            long[] gaps = new long[1 + rnd.nextInt(20)];
            long room = 0;
            for (int k = 0; k < gaps.length; k++) {
                gaps[k] = ThreadTime.MIN_PAUSE_NANOS + 1 + rnd.nextInt(1_000_000);
                room += gaps[k] - ThreadTime.MIN_PAUSE_NANOS;
            }
            long budget = 1 + (long) (rnd.nextDouble() * room);
            long level = ThreadTime.level(gaps.clone(), budget);
            long removed = 0;
            for (long g : gaps) {
                removed += Math.max(0, g - level);
            }
            assertThat(removed).as("removed at level %d of %d", level, budget).isBetween(budget - gaps.length, budget);
        }
    }

    @Test
    void lessThanAPauseOffTheCpuCutsNothing() {
        long[] t = new long[300];
        for (int i = 0; i < t.length; i++) {
            t[i] = i * 1_000L;
        }
        long[] out = new long[t.length];
        ThreadTime tt = new ThreadTime(0, false);
        tt.correct(1, t, 0, t.length, 0, 299_000 - 1_500, 299_000, out); // 1.5 us off the CPU: below a pause
        assertThat(out).containsExactly(t);
        assertThat(tt.offCpuRemoved()).isZero();
    }
}
