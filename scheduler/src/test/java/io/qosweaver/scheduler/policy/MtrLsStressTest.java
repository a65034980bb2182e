package io.qosweaver.scheduler.policy;

import static io.qosweaver.scheduler.policy.MtrLsMachine.cls;
import static io.qosweaver.scheduler.policy.MtrLsMachine.runs;
import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Many threads entering and leaving classes with random fractions, changed at run time, on the
 * real state machine and a fake clock (30 s of virtual time each, a second or so of real time):
 * every invariant holds after every step, no more than P managed threads ever run, and no entity
 * with threads inside waits longer than one round of the service list L. A round is every entity
 * on L using its quantum plus the overshoot sampling allows (P threads for one sample and one
 * control point); an entity that overshot by k quanta sits out k rounds (the paper's loop), so the
 * bound is (1 + the largest such k) rounds.
 */
class MtrLsStressTest {
    private static final int THREADS = 80, CLASSES = 8;
    private static final long SECONDS = 30;

    @ParameterizedTest
    @CsvSource({"class, 1, 1", "class, 2, 2", "class, 3, 3", "thread, 1, 4", "thread, 2, 5", "thread, 3, 6"})
    void randomFractionsChangedAtRunTimeNeverStarveAnEntityNorRunMoreThanP(String entity, int cores, long seed) {
        Random r = new Random(seed);
        double reserved = 0.05;
        double minFraction = 0.03, maxInitial = 0.10, maxFraction = 0.25;
        List<TaskClassSpec> specs = new ArrayList<>();
        String[] names = new String[CLASSES];
        double sum = 0;
        for (int i = 0; i < CLASSES; i++) {
            names[i] = "c" + i;
            double f = minFraction + r.nextDouble() * (maxInitial - minFraction);
            sum += f;
            specs.add(cls(names[i], "fraction", Double.toString(f)));
        }
        assertThat(sum).isLessThanOrEqualTo(1 - reserved);
        long sampleNanos = 1_000_000L, quantumNanos = 100_000_000L;
        MtrLsMachine m = new MtrLsMachine(Map.of("entity", entity, "cores", Integer.toString(cores), "reserved", "5%",
                "sample", "1ms", "quantum", "100ms"), 4, specs);
        boolean perThread = entity.equals("thread");
        ThreadState[] threads = new ThreadState[THREADS];
        String[] classOf = new String[THREADS];
        for (int i = 0; i < THREADS; i++) {
            threads[i] = m.thread("t" + i);
        }
        StarvationWatch watch = new StarvationWatch();
        long overshoot = cores * (sampleNanos + MtrLsMachine.STEP_NANOS);
        long qMin = Math.round(minFraction * quantumNanos);
        long debtRounds = 1 + (overshoot + qMin - 1) / qMin;
        long refused = 0, changes = 0;
        int maxEntities = 0;
        for (long step = 0; step < SECONDS * 1000; step++) {
            // arrivals and departures
            for (int k = 0; k < 2; k++) {
                int i = r.nextInt(THREADS);
                if (classOf[i] == null) {
                    classOf[i] = names[r.nextInt(CLASSES)];
                    m.enter(threads[i], classOf[i]);
                } else if (r.nextInt(4) == 0) {
                    m.exit(threads[i]);
                    watch.forget(perThread ? threads[i] : null);
                    classOf[i] = null;
                }
            }
            if (step % 50 == 0) {
                String c = names[r.nextInt(CLASSES)];
                try {
                    m.policy.setFraction(c, minFraction + r.nextDouble() * (maxFraction - minFraction));
                    changes++;
                } catch (PolicyConfigException e) {
                    assertThat(e.key()).isEqualTo("taskClasses." + c + ".fraction");
                    refused++;
                }
            }
            m.step();
            assertThat(m.maxRunners).as("never more than P managed threads run").isLessThanOrEqualTo(cores);
            // who was served in this step, per entity
            Map<Object, Boolean> served = new HashMap<>();
            for (int i = 0; i < THREADS; i++) {
                if (classOf[i] != null) {
                    Object e = perThread ? threads[i] : classOf[i];
                    served.merge(e, runs(threads[i]), Boolean::logicalOr);
                }
            }
            long now = m.clock.now;
            int entities = m.policy.serviceList().size();
            maxEntities = Math.max(maxEntities, entities);
            long round = (long) (entities + 1) * (Math.round(maxFraction * quantumNanos) + overshoot);
            watch.observe(served, now, entities, debtRounds, round, step);
        }
        assertThat(changes).as("fractions changed at run time").isGreaterThan(100);
        if (!perThread) { // a thread entity's fraction is checked alone: 25 % always fits
            assertThat(refused).as("some changes asked too much: admission control refused them").isPositive();
        }
        assertThat(m.maxRunners).isEqualTo(cores);
        System.out.printf("mtr-ls stress %s P=%d: longest wait %d ms, %d entities at most, %d changes, %d refused%n",
                entity, cores, watch.longestWait() / 1_000_000, maxEntities, changes, refused);
    }
}
