package io.qosweaver.scheduler.policy;

import static io.qosweaver.scheduler.policy.MtrLsMachine.cls;
import static io.qosweaver.scheduler.policy.MtrLsMachine.runs;
import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.RuntimeShare;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Many threads entering and leaving run-time shares (the Java API's) beside a policy-file class,
 * with random fractions changed at run time (as the API does: a volatile write, picked up at the
 * tick), on the real state machine and a fake clock, 30 s of virtual time per case: every invariant
 * after every step, never more than P managed threads running, and no share with threads inside
 * waiting beyond one round of L (plus the rounds an overshoot of k quanta costs, as in {@link
 * MtrLsStressTest}). The fractions stay within what the API admits (their sum at most the
 * capacity the policy reports).
 */
class MtrLsRuntimeSharesStressTest {
    private static final int THREADS = 100, SHARES = 12;
    private static final long SECONDS = 30;

    @ParameterizedTest
    @CsvSource({"1, 11", "2, 12", "3, 13"})
    void randomSharesChangedAtRunTimeNeverStarveNorRunMoreThanP(int cores, long seed) {
        Random r = new Random(seed);
        long sampleNanos = 1_000_000L, quantumNanos = 100_000_000L;
        MtrLsMachine m = new MtrLsMachine(Map.of("cores", Integer.toString(cores), "reserved", "5%",
                "sample", "1ms", "quantum", "100ms"), 4, List.of(cls("file", "fraction", "0.10")));
        double capacity = m.policy.shareCapacity();
        double minFraction = 0.02, maxFraction = 0.2;
        RuntimeShare[] shares = new RuntimeShare[SHARES];
        double[] f = new double[SHARES];
        double sum = 0;
        for (int i = 0; i < SHARES; i++) {
            f[i] = minFraction + r.nextDouble() * (0.07 - minFraction);
            sum += f[i];
            shares[i] = new RuntimeShare("s" + i, f[i]);
        }
        assertThat(sum).isLessThanOrEqualTo(capacity);
        ThreadState[] threads = new ThreadState[THREADS];
        int[] shareOf = new int[THREADS];
        ThreadState[] fileThreads = {m.thread("f0"), m.thread("f1")};
        for (ThreadState t : fileThreads) {
            m.enter(t, "file");
        }
        for (int i = 0; i < THREADS; i++) {
            threads[i] = m.thread("t" + i);
            shareOf[i] = -1;
        }
        StarvationWatch watch = new StarvationWatch();
        long overshoot = cores * (sampleNanos + MtrLsMachine.STEP_NANOS);
        long qMin = Math.round(minFraction * quantumNanos);
        long debtRounds = 1 + (overshoot + qMin - 1) / qMin;
        long changes = 0, refused = 0;
        for (long step = 0; step < SECONDS * 1000; step++) {
            for (int k = 0; k < 3; k++) {
                int i = r.nextInt(THREADS);
                if (shareOf[i] < 0) {
                    shareOf[i] = r.nextInt(SHARES);
                    m.enter(threads[i], shares[shareOf[i]]);
                } else if (r.nextInt(4) == 0) {
                    m.exit(threads[i]);
                    shareOf[i] = -1;
                }
            }
            if (step % 20 == 0) { // admission as the API does it: the sum stays within the capacity
                int i = r.nextInt(SHARES);
                double nf = minFraction + r.nextDouble() * (maxFraction - minFraction);
                if (sum - f[i] + nf <= capacity) {
                    sum += nf - f[i];
                    f[i] = nf;
                    shares[i].setFraction(nf);
                    changes++;
                } else {
                    refused++;
                }
            }
            m.step();
            assertThat(m.maxRunners).as("never more than P managed threads run").isLessThanOrEqualTo(cores);
            Map<Object, Boolean> served = new HashMap<>();
            for (int i = 0; i < THREADS; i++) {
                if (shareOf[i] >= 0) {
                    served.merge(shares[shareOf[i]], runs(threads[i]), Boolean::logicalOr);
                }
            }
            for (ThreadState t : fileThreads) {
                served.merge("file", runs(t), Boolean::logicalOr);
            }
            long now = m.clock.now;
            int entities = m.policy.serviceList().size();
            long round = (long) (entities + 1) * (Math.round(maxFraction * quantumNanos) + overshoot);
            watch.observe(served, now, entities, debtRounds, round, step);
        }
        assertThat(changes).as("fractions changed at run time").isGreaterThan(500);
        assertThat(m.maxRunners).isEqualTo(cores);
        assertThat(m.policy.overcommittedJoins()).as("the admitted fractions never overcommit").isZero();
        System.out.printf("mtr-ls run-time shares stress P=%d: longest wait %d ms, %d changes, %d refused%n",
                cores, watch.longestWait() / 1_000_000, changes, refused);
    }
}
