package io.qosweaver.scheduler;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The mechanism with the importance policy, driven step by step from one thread with several
 * ManagedThread states and a fake clock: queue moves, yield flags, the suspension-time episode.
 * Nothing parks here (parking is tested with real threads in SchedulerThreadsTest).
 */
class ThreadControllerTest {
    private final Configs.FakeTicker clock = new Configs.FakeTicker();
    private final ThreadController c = ThreadController.create(Configs.importance(1), clock);

    private ManagedThread state() {
        return new ManagedThread(Thread.currentThread());
    }

    @Test
    void highEntryFlagsAllButLimitAndHighExitClearsThem() {
        ManagedThread a = state(), b = state(), d = state(), h = state();
        c.enter(a, "chart");
        c.enter(b, "chart");
        c.enter(d, "chart");
        assertThat(c.runQueueSize()).isEqualTo(3);
        int pendingBefore = ThreadController.pending;

        c.enter(h, "collect");
        assertThat(c.limit()).isEqualTo(1);
        // the oldest runner keeps its slot; the newer ones are told to yield
        assertThat(a.yield).isFalse();
        assertThat(b.yield).isTrue();
        assertThat(d.yield).isTrue();
        assertThat(ThreadController.pending - pendingBefore).isEqualTo(2);

        ThreadController.exit(h);
        assertThat(c.limit()).isEqualTo(Control.UNLIMITED);
        assertThat(b.yield || d.yield).isFalse();
        assertThat(c.runQueueSize()).isEqualTo(3);
        assertThat(ThreadController.pending).isEqualTo(pendingBefore);
        ThreadController.exit(a);
        ThreadController.exit(b);
        ThreadController.exit(d);
        assertThat(c.runQueueSize()).isZero();
    }

    @Test
    void lowExitHandsItsSlotToTheFirstWaiter() {
        ManagedThread h = state(), a = state(), b = state(), d = state();
        c.enter(h, "collect");
        c.enter(a, "chart");
        c.enter(b, "chart");
        c.enter(d, "chart");
        assertThat(a.yield).isFalse();
        assertThat(b.yield).isTrue();
        assertThat(d.yield).isTrue();
        ThreadController.exit(a);
        assertThat(b.yield).isFalse(); // FIFO
        assertThat(d.yield).isTrue();
        assertThat(c.runQueueSize()).isEqualTo(1);
        ThreadController.exit(h);
        assertThat(d.yield).isFalse();
        ThreadController.exit(b);
        ThreadController.exit(d);
    }

    @Test
    void suspensionTimeIsMeasuredFromHighEntryUntilRunningLowIsWithinLimit() {
        ManagedThread a = state(), b = state(), d = state(), h = state();
        c.enter(a, "chart");
        c.enter(b, "chart");
        c.enter(d, "chart");
        c.enter(h, "collect");             // episode starts; 3 executing > 1
        clock.advanceMillis(7);
        ThreadController.exit(d);          // 2 executing
        assertThat(c.suspensionTimes.snapshot()[0]).isZero();
        clock.advanceMillis(5);
        ThreadController.exit(b);          // 1 executing: within the limit after 12 ms
        long[] s = c.suspensionTimes.snapshot();
        assertThat(s[0]).isEqualTo(1);
        assertThat(s[2]).isEqualTo(12_000_000L);
        ThreadController.exit(h);

        c.enter(h, "collect");             // already within: recorded as 0
        s = c.suspensionTimes.snapshot();
        assertThat(s[0]).isEqualTo(2);
        assertThat(s[3]).isZero();          // p50 of {0, 12ms}
        assertThat(s[4]).isEqualTo(12_000_000L);
        ThreadController.exit(h);
        ThreadController.exit(a);
    }

    @Test
    void nestedAndReentrantScopesKeepTheHighestRankedRole() {
        ManagedThread h = state(), l = state();
        c.enter(l, "chart");
        c.enter(h, "collect");
        c.enter(h, "chart");      // low work inside the high task: still high, not limited
        c.enter(h, "collect");    // re-entrant
        assertThat(h.role.name()).isEqualTo("collect");
        assertThat(c.limit()).isEqualTo(1);
        ThreadController.exit(h);
        ThreadController.exit(h);
        assertThat(c.limit()).isEqualTo(1);
        ThreadController.exit(h);
        assertThat(c.limit()).isEqualTo(Control.UNLIMITED);
        // a low thread entering a normal class inside stays low
        c.enter(l, "update");
        assertThat(l.role.name()).isEqualTo("chart");
        ThreadController.exit(l);
        ThreadController.exit(l);
        assertThat(l.role).isNull();
        ThreadController.exit(l);  // unbalanced: no-op
        assertThat(l.depth).isZero();
        assertThat(c.runQueueSize()).isZero();
    }

    @Test
    void unknownClassNamesKeepExitsBalanced() {
        ManagedThread l = state();
        c.enter(l, "chart");
        c.enter(l, "no-such-class");
        assertThat(l.role.name()).isEqualTo("chart");
        ThreadController.exit(l);
        assertThat(l.role.name()).isEqualTo("chart");
        ThreadController.exit(l);
        assertThat(l.role).isNull();
    }

    @Test
    void deadThreadsAreReapedAndFreeTheirSlot() throws Exception {
        Thread dead = new Thread(() -> {});
        dead.start();
        dead.join();
        ManagedThread ghost = new ManagedThread(dead), h = state(), w = state();
        c.enter(h, "collect");
        c.enter(ghost, "chart");  // holds the only slot, then "dies" in its scope
        c.enter(w, "chart");
        assertThat(w.yield).isTrue();
        clock.advanceMillis(200);  // past the reap interval: the next decision reaps
        ManagedThread other = state();
        c.enter(other, "update");   // unobserved: takes no lock, reaps nothing
        c.stats(0, 0);              // a decision point
        assertThat(w.yield).isFalse();
        assertThat(ghost.role).isNull();
        assertThat(c.runQueueSize()).isEqualTo(1);
        ThreadController.exit(w);
        ThreadController.exit(h);
        ThreadController.exit(other);
    }
}
