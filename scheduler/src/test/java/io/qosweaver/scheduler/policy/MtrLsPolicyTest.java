package io.qosweaver.scheduler.policy;

import static io.qosweaver.scheduler.policy.MtrLsMachine.cls;
import static io.qosweaver.scheduler.policy.MtrLsMachine.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.qosweaver.scheduler.core.ThreadState;
import io.qosweaver.scheduler.spi.PolicyConfigException;
import io.qosweaver.scheduler.spi.TaskClassSpec;
import io.qosweaver.scheduler.stats.EntityShare;
import io.qosweaver.scheduler.stats.PrometheusText;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * MTR-LS on the real state machine with a fake clock and a fake CPU clock ({@link MtrLsMachine}):
 * fractions over many rounds, the move-to-rear arithmetic, urgent and idle entries, preemption by
 * an entity ahead, the reserved share, admission control and the metrics.
 */
@SuppressWarnings("deprecation") // Thread.getId: Java 17
class MtrLsPolicyTest {

    private static MtrLsMachine machine(Map<String, String> params, TaskClassSpec... classes) {
        return new MtrLsMachine(params, 2, List.of(classes));
    }

    @Test
    void twoClassesOnOneCoreGetTheirFractionsOverManyRounds() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0"),
                cls("a", "fraction", "0.6"), cls("b", "share", "30%"));
        ThreadState a = m.enter("a1", "a"), b = m.enter("b1", "b");
        m.run(10_000);
        double total = m.cpuMillis(a) + m.cpuMillis(b);
        assertThat(total).as("work-conserving: one core busy").isEqualTo(10_000);
        assertThat(m.cpuMillis(a) / total).as("0.6 / (0.6 + 0.3)").isCloseTo(2.0 / 3, within(0.01));
        assertThat(m.maxRunners).isEqualTo(1);
        assertThat(m.policy.rounds("a")).as("quantum 60 ms: about 110 rounds").isBetween(100L, 120L);
    }

    @Test
    void classesWithSeveralThreadsShareTheirAllotmentOnPCoresAndTakeTurnsWithinIt() {
        MtrLsMachine m = machine(Map.of("cores", "2", "reserved", "0"),
                cls("a", "fraction", "0.5"), cls("b", "fraction", "0.25"));
        ThreadState[] as = {m.enter("a1", "a"), m.enter("a2", "a"), m.enter("a3", "a")};
        ThreadState[] bs = {m.enter("b1", "b"), m.enter("b2", "b"), m.enter("b3", "b")};
        m.run(20_000);
        long ca = 0, cb = 0;
        for (ThreadState t : as) {
            ca += m.cpuMillis(t);
        }
        for (ThreadState t : bs) {
            cb += m.cpuMillis(t);
        }
        assertThat(ca + cb).isEqualTo(40_000);
        assertThat((double) ca / (ca + cb)).isCloseTo(2.0 / 3, within(0.02));
        assertThat(m.maxRunners).as("never more than P").isEqualTo(2);
        for (ThreadState t : as) {
            assertThat((double) m.cpuMillis(t) / ca).as("%s takes its turn in its class", t.thread().getName())
                    .isCloseTo(1.0 / 3, within(0.05));
        }
    }

    @Test
    void theReservedShareHoldsOneSlotForItsFraction() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "10%"),
                cls("a", "fraction", "0.6"), cls("b", "fraction", "0.3"));
        ThreadState a = m.enter("a1", "a"), b = m.enter("b1", "b");
        m.run(10_000);
        assertThat(m.cpuMillis(a) / 10_000.0).isCloseTo(0.6, within(0.015));
        assertThat(m.cpuMillis(b) / 10_000.0).isCloseTo(0.3, within(0.015));
        assertThat(m.maxRunners).isEqualTo(1);
    }

    /**
     * Work-conserving: with nothing outside managed work runnable, the reserved share gives its slot
     * to managed work (uncharged, it keeps its turn), which then shares the whole core in the
     * ratio of its fractions; when something else is runnable again it takes its slot back.
     */
    @Test
    void theReservedShareGivesItsSlotBackWhileNothingElseIsRunnable() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "10%"),
                cls("a", "fraction", "0.6"), cls("b", "fraction", "0.3"));
        m.unmanagedRunnable = 0;
        ThreadState a = m.enter("a1", "a"), b = m.enter("b1", "b");
        m.run(10_000);
        assertThat((m.cpuMillis(a) + m.cpuMillis(b)) / 10_000.0).as("the whole core").isCloseTo(1.0, within(0.002));
        assertThat((double) m.cpuMillis(a) / m.cpuMillis(b)).as("in the ratio of the fractions")
                .isCloseTo(2.0, within(0.1));
        assertThat(m.policy.reserveRunning()).isFalse();
        assertThat(m.maxRunners).isEqualTo(1);

        long a0 = m.cpuMillis(a), b0 = m.cpuMillis(b);
        m.unmanagedRunnable = 1; // something unmanaged wants the CPU from now on
        m.run(10_000);
        assertThat((m.cpuMillis(a) - a0) / 10_000.0).isCloseTo(0.6, within(0.02));
        assertThat((m.cpuMillis(b) - b0) / 10_000.0).isCloseTo(0.3, within(0.02));
        assertThat(m.maxRunners).isEqualTo(1);
    }

    /** {@code reservedSlot: always}: the paper's reserved share, holding its slot during all its turns. */
    @Test
    void reservedSlotAlwaysHoldsItWhetherOrNotAnythingElseIsRunnable() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "10%", "reservedSlot", "always"),
                cls("a", "fraction", "0.6"), cls("b", "fraction", "0.3"));
        m.unmanagedRunnable = 0;
        ThreadState a = m.enter("a1", "a"), b = m.enter("b1", "b");
        m.run(10_000);
        assertThat((m.cpuMillis(a) + m.cpuMillis(b)) / 10_000.0).isCloseTo(0.9, within(0.02));
        assertThat(refusal(Map.of("reservedSlot", "sometimes"), cls("a", "fraction", "0.1")))
                .startsWith("policy.reservedSlot: ").contains("on-demand", "always", "sometimes");
    }

    /** The load counts managed threads that are awake as theirs, not as the others' demand. */
    @Test
    void managedThreadsRunningOnAreNotTakenForOthersDemand() {
        MtrLsMachine m = machine(Map.of("cores", "2", "reserved", "10%"),
                cls("a", "fraction", "0.3"), cls("b", "fraction", "0.3"), cls("c", "fraction", "0.3"));
        m.unmanagedRunnable = 0;
        ThreadState a = m.enter("a1", "a"), b = m.enter("b1", "b"), c = m.enter("c1", "c");
        m.run(9_000);
        long total = m.cpuMillis(a) + m.cpuMillis(b) + m.cpuMillis(c);
        assertThat(total / 9_000.0).as("both cores, none held back").isCloseTo(2.0, within(0.01));
        assertThat(m.maxRunners).isEqualTo(2);
    }

    /**
     * A class with a quantum far below what its threads use in one sample (1.5 % of 100 ms against
     * 2 x 5 ms) moves to the rear many times per decision, and so does the reserved share beside it:
     * the decision reaches the mechanism as its outcome, so no parked thread is woken only to be
     * told to yield again ({@link MtrLsMachine} fails the test if one is), and its threads take
     * turns at most once per T of its CPU, not at every move.
     */
    @Test
    void aSmallQuantumMovesOftenWithoutChurningTheClasssThreads() {
        MtrLsMachine m = machine(Map.of("cores", "2"), cls("urgent", "importance", "high"),
                cls("chart", "importance", "low"));
        for (int i = 0; i < 20; i++) {
            m.enter("c" + i, "chart");
        }
        ThreadState h = m.enter("h", "urgent");
        m.run(2_000);
        assertThat(m.cpuMillis(h)).as("the urgent thread always holds a slot").isEqualTo(2_000);
        assertThat(m.policy.rounds("chart")).as("many moves").isGreaterThan(1_000);
        assertThat(m.wakes).as("turns within the class: about once per 100 ms of its CPU")
                .isLessThan(60);
    }

    @Test
    void turnsEndingWhileNobodyWaitsForASlotWakeNoTick() {
        // one runner at 1.5 %: a 1.5 ms quantum, used up every 1.5 ms (the paper's turns: minTurn 0),
        // and nobody to hand the core to
        MtrLsMachine m = machine(Map.of("cores", "2", "reserved", "0", "minTurn", "0ms"), cls("a", "fraction", "0.015"),
                cls("b", "fraction", "0.015"), cls("c", "fraction", "0.015"));
        ThreadState a = m.enter("a1", "a");
        m.run(1_000);
        assertThat(m.ticks).as("one per 20 ms sample, not one per turn").isBetween(45L, 55L);
        assertThat(m.cpuMillis(a)).isEqualTo(1_000);
        assertThat(m.policy.rounds("a")).as("charged and moved all the same: one round per 1.5 ms")
                .isBetween(640L, 680L);
        // two runners on two slots: still nobody waits
        m.enter("b1", "b");
        long before = m.ticks;
        m.run(1_000);
        assertThat(m.ticks - before).isBetween(45L, 55L);
        // a third: now a turn's end hands a core over, and the tick comes at each (at least 1 ms apart)
        m.enter("c1", "c");
        before = m.ticks;
        m.run(1_000);
        assertThat(m.ticks - before).as("about one turn end per 0.75 ms, ticks at least minSample apart")
                .isGreaterThan(500L);
    }

    /** Ten runners at 1.5 % on two cores: 1.5 ms quanta, a turn change every 0.75 ms without a floor. */
    private static MtrLsMachine tenSmallRunners(String minTurn, ThreadState[] runners) {
        TaskClassSpec[] classes = new TaskClassSpec[runners.length];
        for (int i = 0; i < classes.length; i++) {
            classes[i] = cls("r" + i, "fraction", "0.015");
        }
        MtrLsMachine m = machine(minTurn == null ? Map.of("cores", "2", "reserved", "0")
                : Map.of("cores", "2", "reserved", "0", "minTurn", minTurn), classes);
        for (int i = 0; i < runners.length; i++) {
            runners[i] = m.enter("r" + i + "-1", "r" + i);
        }
        return m;
    }

    @Test
    void aMinimumTurnCutsTheTurnChangesAndKeepsEqualShares() {
        ThreadState[] paper = new ThreadState[10], floored = new ThreadState[10], dflt = new ThreadState[10];
        MtrLsMachine p = tenSmallRunners("0ms", paper), f = tenSmallRunners("6ms", floored),
                d = tenSmallRunners(null, dflt);
        p.run(10_000);
        f.run(10_000);
        d.run(10_000);
        assertThat(p.wakes).as("a turn of 1.5 ms (ticks at 1 ms steps: about 2 ms) per core").isGreaterThan(8_000);
        assertThat(f.wakes).as("a turn of at least 6 ms per core: at most about 3,300 in 10 s")
                .isBetween(2_500L, 3_400L);
        assertThat(d.wakes).as("the default floor, 10 ms: at most 2,000 in 10 s").isBetween(1_600L, 2_000L);
        for (MtrLsMachine m : List.of(f, d)) {
            for (ThreadState t : m == f ? floored : dflt) {
                assertThat(m.cpuMillis(t)).as("%s: a tenth of two cores", t.thread().getName())
                        .isCloseTo(2_000L, within(20L));
            }
            assertThat(m.maxRunners).isEqualTo(2);
        }
    }

    /**
     * The floor acts on quanta under half of it only: 10 runners at 5 % (5 ms quanta) under the
     * default 10 ms floor take the paper's turns, with no debt; at 4 % they are floored to 10 ms.
     */
    @Test
    void aQuantumOfAtLeastHalfTheMinimumTurnIsNotFloored() {
        long[] wakes = new long[2];
        String[] fractions = {"0.05", "0.04"};
        for (int k = 0; k < 2; k++) {
            TaskClassSpec[] classes = new TaskClassSpec[10];
            for (int i = 0; i < 10; i++) {
                classes[i] = cls("r" + i, "fraction", fractions[k]);
            }
            MtrLsMachine m = machine(Map.of("cores", "2", "reserved", "0"), classes);
            for (int i = 0; i < 10; i++) {
                m.enter("r" + i + "-1", "r" + i);
            }
            m.run(10_000);
            wakes[k] = m.wakes;
        }
        assertThat(wakes[0]).as("5 ms turns on two cores: about 4,000 in 10 s").isBetween(3_600L, 4_100L);
        assertThat(wakes[1]).as("10 ms turns on two cores: about 2,000 in 10 s").isBetween(1_600L, 2_000L);
    }

    @Test
    void aMinimumTurnKeepsUnequalFractionsByDebt() {
        // b's quantum (1.5 ms) is far below the 10 ms floor: each of its turns is 10 ms of CPU, paid
        // by moving to the rear again, without running, until the debt is gone.
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0", "minTurn", "10ms"),
                cls("a", "fraction", "0.6"), cls("b", "fraction", "0.015"));
        ThreadState a = m.enter("a1", "a"), b = m.enter("b1", "b");
        m.run(20_000);
        assertThat(m.cpuMillis(b) / 20_000.0).as("0.015 / 0.615 of one core")
                .isCloseTo(0.015 / 0.615, within(0.002));
        assertThat(m.cpuMillis(a) + m.cpuMillis(b)).isEqualTo(20_000);
        assertThat(m.wakes).as("b runs about once per 410 ms of a: about 50 turns each, not 330")
                .isBetween(80L, 120L);
    }

    @Test
    void theReservedShareTakesItsFractionEvenWhenTheOthersAskLittle() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "5%"), cls("a", "priority", "5"));
        ThreadState a = m.enter("a1", "a"), a2 = m.enter("a2", "a");
        m.run(20_000);
        assertThat((m.cpuMillis(a) + m.cpuMillis(a2)) / 20_000.0).as("a asks 1.5 %%, alone: all but 5 %%")
                .isCloseTo(0.95, within(0.01));
    }

    @Test
    void theMoveToRearArithmeticCarriesTheOvershoot() {
        // T = 100 ms: a's quantum 50 ms, b's 20 ms; sample 10 ms.
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0", "quantum", "100ms", "sample", "10ms"),
                cls("a", "fraction", "0.5"), cls("b", "fraction", "0.2"));
        ThreadState a = m.enter("a1", "a"), b = m.enter("b1", "b");
        assertThat(m.policy.serviceList()).containsExactly("a", "b");
        assertThat(runs(a)).isTrue();
        assertThat(runs(b)).isFalse();
        m.cpu.put(a.thread(), 70_000_000L); // 70 ms in one sample: 20 ms over its quantum
        m.clock.now += 10_000_000L;
        m.tick();
        assertThat(m.policy.left("a")).as("50 - 70 + 50").isEqualTo(30_000_000L);
        assertThat(m.policy.serviceList()).containsExactly("b", "a");
        assertThat(a.yieldFlag()).as("preempted at its next control point").isTrue();
        assertThat(runs(b)).isTrue();
        m.cpu.put(b.thread(), 90_000_000L); // 90 ms against 20: a debt of 3.5 quanta
        m.clock.now += 10_000_000L;
        m.tick();
        assertThat(m.policy.left("b")).as("20 - 90 + 20: one quantum per move").isEqualTo(-50_000_000L);
        assertThat(m.policy.rounds("b")).isEqualTo(1);
        assertThat(m.policy.serviceList()).containsExactly("a", "b");
        assertThat(runs(b)).isFalse();
        assertThat(a.yieldFlag()).isFalse();
        // a uses its 30 ms: at the head again, b is still in debt and moves on at once (the paper's
        // loop: "repeats this operation until it finds a thread with a positive left value")
        m.cpu.put(a.thread(), 100_000_000L);
        m.clock.now += 10_000_000L;
        m.tick();
        assertThat(m.policy.left("a")).isEqualTo(50_000_000L);
        assertThat(m.policy.left("b")).isEqualTo(-30_000_000L);
        assertThat(m.policy.rounds("b")).isEqualTo(2);
        assertThat(m.policy.serviceList()).containsExactly("a", "b");
        assertThat(runs(a)).isTrue();
        assertThat(b.yieldFlag()).isTrue();
    }

    @Test
    void anEntityAheadOnTheListPreemptsWhenItBecomesRunnableAgain() {
        // a 5 ms tick: the turns below are counted in ticks of that size
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0", "sample", "5ms"),
                cls("a", "fraction", "0.5"), cls("b", "fraction", "0.2"));
        ThreadState a = m.enter("a1", "a"), b = m.enter("b1", "b");
        m.run(10);
        m.exit(a); // a keeps its place on L with its left (a session without work, MTR-LS)
        assertThat(runs(b)).isTrue();
        m.run(10);
        assertThat(m.policy.serviceList()).containsExactly("a", "b");
        ThreadState a2 = m.enter("a2", "a");
        assertThat(runs(a2)).as("ahead of b: runs at once").isTrue();
        assertThat(b.yieldFlag()).as("b is preempted at its next control point").isTrue();
        m.run(100);
        assertThat(runs(b)).as("a's quantum used up: b's turn").isTrue();
    }

    @Test
    void urgentIsPinnedAtTheFrontAndIdleAtTheRear() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0"), cls("clock", "urgent", "true"),
                cls("work", "fraction", "0.5"), cls("idler", "idle", "true"));
        ThreadState idler = m.enter("idler", "idler");
        assertThat(runs(idler)).as("nobody else: the idler runs").isTrue();
        ThreadState w = m.enter("w", "work");
        assertThat(runs(w)).isTrue();
        assertThat(idler.yieldFlag()).isTrue();
        m.run(1_000);
        assertThat(m.cpuMillis(idler)).as("never while work runs").isZero();
        ThreadState u = m.enter("u", "clock");
        assertThat(runs(u)).isTrue();
        assertThat(w.yieldFlag()).isTrue();
        m.run(1_000);
        assertThat(m.cpuMillis(u)).as("urgent is never moved to the rear").isEqualTo(1_000);
        assertThat(m.cpuMillis(w)).isEqualTo(1_000);
        m.exit(u);
        m.exit(w);
        assertThat(runs(idler)).isTrue();
        m.run(10);
        assertThat(m.cpuMillis(idler)).isEqualTo(10);
    }

    @Test
    void importanceKeepsItsMeaningWithoutFractions() {
        MtrLsMachine m = machine(Map.of("cores", "1"), cls("collect", "importance", "high"),
                cls("chart", "importance", "low"), cls("update"));
        assertThat(m.machine.classOrUnknown("collect").rank()).isEqualTo(MtrLsPolicy.RANK_URGENT);
        assertThat(m.machine.classOrUnknown("chart").rank()).isEqualTo(MtrLsPolicy.RANK_NORMAL);
        assertThat(m.machine.classOrUnknown("update").rank()).as("not managed").isZero();
        assertThat(m.policy.shares()).filteredOn(s -> s.entity().equals("chart")).singleElement()
                .satisfies(s -> assertThat(s.fraction()).as("NORM_PRIORITY x 0.3 %").isCloseTo(0.015, within(1e-9)));
    }

    @Test
    void threadEntitiesWithoutAFractionAskTheirJavaPriorityTimesAStep() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0", "entity", "thread"), cls("w", "priority", "5"),
                cls("any", "importance", "low"));
        ThreadState hi = m.thread("hi"), lo = m.thread("lo");
        hi.thread().setPriority(10);
        lo.thread().setPriority(5);
        m.enter(hi, "any");
        m.enter(lo, "any");
        m.run(10_000);
        assertThat((double) m.cpuMillis(hi) / (m.cpuMillis(hi) + m.cpuMillis(lo))).as("3 %% against 1.5 %%")
                .isCloseTo(2.0 / 3, within(0.02));
        assertThat(m.policy.serviceList()).containsExactlyInAnyOrder("hi", "lo");
        assertThat(m.policy.shares()).extracting(EntityShare::entity).as("metrics name threads with their ids")
                .contains("hi#" + hi.thread().getId(), "lo#" + lo.thread().getId());
        m.exit(hi);
        assertThat(m.policy.serviceList()).as("a thread entity leaves L with its thread").containsExactly("lo");
    }

    @Test
    void aThreadThatDiesInsideLeavesItsSlotToTheNextOnTheList() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0"),
                cls("a", "fraction", "0.5"), cls("b", "fraction", "0.2"));
        ThreadState a = m.enter("a1", "a"), b = m.enter("b1", "b");
        m.run(5);
        m.machine.changeRole(a, null, io.qosweaver.scheduler.spi.Policy.Cause.DEATH); // what reaping does
        m.machine.release(a);
        m.inside.remove(a);
        assertThat(runs(b)).isTrue();
        m.run(100);
        assertThat(m.cpuMillis(b)).isEqualTo(100);
        assertThat(m.machine.checkInvariants()).isNull();
    }

    @Test
    void aThreadEntityComingBackKeepsItsDebt() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0", "entity", "thread", "sample", "10ms"),
                cls("w", "fraction", "0.1"));
        ThreadState t1 = m.enter("t1", "w"), t2 = m.enter("t2", "w");
        assertThat(runs(t1)).isTrue();
        m.cpu.put(t1.thread(), 50_000_000L); // 50 ms against a 10 ms quantum
        m.clock.now += 10_000_000L;
        m.tick();
        assertThat(m.policy.left("t1")).isEqualTo(-30_000_000L);
        assertThat(runs(t2)).isTrue();
        m.exit(t1);
        m.enter(t1, "w");
        assertThat(m.policy.left("t1")).as("its debt, plus the quantum of a move to the rear").isEqualTo(-20_000_000L);
        assertThat(m.policy.serviceList()).containsExactly("t2", "t1");
        assertThat(runs(t2)).isTrue();
    }

    @Test
    void threadEntitiesAskingMoreThanTheBoundTogetherAreWarnedAboutNotRefused() {
        MtrLsMachine m = machine(Map.of("cores", "1", "entity", "thread"), cls("w", "fraction", "0.4"));
        ThreadState t1 = m.enter("t1", "w"), t2 = m.enter("t2", "w");
        assertThat(m.warnings).isEmpty();
        ThreadState t3 = m.enter("t3", "w");
        assertThat(m.policy.overcommittedJoins()).isEqualTo(1);
        assertThat(m.warnings).singleElement().asString().contains("95.00%", "relative to each other");
        m.run(3_000);
        for (ThreadState t : List.of(t1, t2, t3)) {
            assertThat(m.cpuMillis(t) / 3_000.0).as("equal fractions: equal shares").isCloseTo(0.95 / 3, within(0.03));
        }
        assertThat(refusal(Map.of("entity", "thread"), cls("w", "fraction", "0.96")))
                .as("one thread's fraction is still checked").startsWith("taskClasses.w.fraction: ");
    }

    @Test
    void sharesAndLagAreReportedPerEntityOverTheWindow() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "10%", "window", "1s"),
                cls("a", "fraction", "0.6"), cls("b", "fraction", "0.25"), cls("c", "fraction", "0.05"));
        m.enter("a1", "a");
        m.enter("b1", "b");
        m.run(5_000);
        List<EntityShare> shares = m.policy.shares();
        assertThat(shares).extracting(EntityShare::entity).containsExactly("a", "b", "c", "os");
        EntityShare a = shares.get(0), c = shares.get(2), os = shares.get(3);
        assertThat(a.fraction()).isEqualTo(0.6);
        assertThat(a.share()).as("0.6 / (0.6 + 0.25) of what the reserved 10 %% leaves")
                .isCloseTo(0.6 / 0.85 * 0.9, within(0.03));
        assertThat(a.lagSeconds()).as("ahead: it uses c's unused time").isNegative();
        assertThat(c.share()).isZero();
        assertThat(c.lagSeconds()).as("nothing to run: behind by its whole fraction").isCloseTo(0.05, within(1e-3));
        assertThat(os.kind()).isEqualTo("reserved");
        assertThat(os.share()).as("exactly its share, whatever the others ask").isCloseTo(0.1, within(0.02));
        assertThat(a.rounds()).isPositive();
        assertThat(m.machine.stats(0, 0, false, Map.of()).shares()).isEqualTo(shares);
        assertThat(PrometheusText.render(m.machine.stats(0, 0, false, Map.of())))
                .contains("# TYPE qosweaver_share_received gauge\n")
                .contains("qosweaver_share_fraction{entity=\"a\",task_class=\"a\",kind=\"fraction\"} 0.600000\n")
                .contains("qosweaver_share_lag_seconds{entity=\"c\",task_class=\"c\",kind=\"fraction\"} 0.050000\n")
                .contains("qosweaver_share_rounds_total{entity=\"a\",task_class=\"a\",kind=\"fraction\"} "
                        + a.rounds() + "\n");
    }

    @Test
    void fractionsMayChangeAtRunTime() {
        MtrLsMachine m = machine(Map.of("cores", "1", "reserved", "0"),
                cls("a", "fraction", "0.5"), cls("b", "fraction", "0.5"));
        ThreadState a = m.enter("a1", "a"), b = m.enter("b1", "b");
        m.run(2_000);
        assertThatThrownBy(() -> m.policy.setFraction("a", 0.8))
                .isInstanceOfSatisfying(PolicyConfigException.class,
                        e -> assertThat(e.key()).isEqualTo("taskClasses.a.fraction"))
                .hasMessageContaining("130");
        m.policy.setFraction("b", 0.2);
        m.policy.setFraction("a", 0.8);
        long a0 = m.cpuMillis(a), b0 = m.cpuMillis(b);
        m.run(10_000);
        assertThat((m.cpuMillis(a) - a0) / 10_000.0).isCloseTo(0.8, within(0.02));
        assertThat(m.cpuMillis(b) - b0).isPositive();
    }

    // ------------------------------------------------------------------ admission and parameters

    private static String refusal(Map<String, String> params, TaskClassSpec... classes) {
        try {
            machine(params, classes);
        } catch (PolicyConfigException e) {
            return e.key() + ": " + e.getMessage();
        }
        throw new AssertionError("accepted");
    }

    @Test
    void admissionControlRefusesFractionsBeyondTheReservedShareNamingTheClass() {
        assertThat(refusal(Map.of("reserved", "10%"), cls("a", "fraction", "0.6"), cls("b", "share", "35%")))
                .startsWith("taskClasses.b.share: ").contains("95", "90", "reserved");
        assertThat(refusal(Map.of(), cls("a", "fraction", "0.96")))
                .as("the default reserves 5 %").startsWith("taskClasses.a.fraction: ");
        machine(Map.of("reserved", "0"), cls("a", "fraction", "0.5"), cls("b", "fraction", "0.5"));
    }

    @Test
    void aGroupsChildrenNeverExceedTheGroup() {
        Map<String, String> p = Map.of("group.reports", "40%");
        machine(p, cls("daily", "fraction", "0.3", "group", "reports"), cls("weekly", "fraction", "0.1", "group",
                "reports"), cls("web", "fraction", "0.5"));
        assertThat(refusal(p, cls("daily", "fraction", "0.3", "group", "reports"),
                cls("weekly", "share", "15%", "group", "reports")))
                .startsWith("taskClasses.weekly.share: ").contains("group 'reports'", "group.reports");
        assertThat(refusal(p, cls("daily", "fraction", "0.3", "group", "reports"), cls("web", "fraction", "0.6")))
                .as("the group counts once, with its whole fraction").startsWith("taskClasses.web.fraction: ");
        assertThat(refusal(p, cls("daily", "fraction", "0.1", "group", "other")))
                .startsWith("taskClasses.daily.group: ").contains("group.other");
        assertThat(refusal(Map.of("group.a", "60%", "group.b", "40%")))
                .startsWith("policy.group.").contains("100");
    }

    @Test
    void badParametersAndAttributesAreNamed() {
        assertThat(refusal(Map.of("entity", "process"))).startsWith("policy.entity: ");
        assertThat(refusal(Map.of("cores", "0"))).startsWith("policy.cores: ");
        assertThat(refusal(Map.of("reserved", "1"))).startsWith("policy.reserved: ");
        assertThat(refusal(Map.of("quantum", "100"))).startsWith("policy.quantum: ");
        assertThat(refusal(Map.of("quantom", "100ms"))).startsWith("policy.quantom: ");
        assertThat(refusal(Map.of("minTurn", "5"))).startsWith("policy.minTurn: ");
        assertThat(refusal(Map.of("minTurn", "200ms"))).as("longer than T").startsWith("policy.minTurn: ")
                .contains("quantum");
        assertThat(refusal(Map.of("group.x", "0"))).startsWith("policy.group.x: ");
        assertThat(refusal(Map.of(), cls("a", "fraction", "0.2", "share", "20%"))).startsWith("taskClasses.a.share: ");
        assertThat(refusal(Map.of(), cls("a", "fraction", "1.5"))).startsWith("taskClasses.a.fraction: ");
        assertThat(refusal(Map.of(), cls("a", "share", "lots"))).startsWith("taskClasses.a.share: ");
        assertThat(refusal(Map.of(), cls("a", "urgent", "true", "fraction", "0.1")))
                .startsWith("taskClasses.a.fraction: ");
        assertThat(refusal(Map.of(), cls("a", "urgent", "true", "idle", "true"))).startsWith("taskClasses.a.idle: ");
        assertThat(refusal(Map.of(), cls("a", "urgent", "yes"))).startsWith("taskClasses.a.urgent: ");
        assertThat(refusal(Map.of(), cls("a", "priority", "11"))).startsWith("taskClasses.a.priority: ");
    }

    @Test
    void coresMayBeAMultipleOfTheMachinesCores() {
        MtrLsMachine m = machine(Map.of("cores", "1.5x"), cls("a", "fraction", "0.2"));
        assertThat(m.policy.cores()).isEqualTo(3);
        assertThat(machine(Map.of(), cls("a", "fraction", "0.2")).policy.cores()).as("default 1x").isEqualTo(2);
        assertThat(m.machine.limit()).as("unlimited while nobody is inside").isEqualTo(Integer.MAX_VALUE);
        ThreadState t = m.enter("a1", "a");
        assertThat(m.machine.limit()).as("P, less the reserved share's slot while it is among the first P")
                .isEqualTo(2);
        m.exit(t);
        assertThat(m.machine.limit()).isEqualTo(Integer.MAX_VALUE);
    }
}
