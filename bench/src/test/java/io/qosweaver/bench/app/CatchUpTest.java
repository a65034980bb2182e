package io.qosweaver.bench.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CatchUpTest {
    private static final long PERIOD = 1200;
    private static final long T0 = 1_000_000;

    private static CollectionRecord started(long startMs, long lateMs) {
        return new CollectionRecord(startMs, 500L, 900, false, PERIOD, lateMs);
    }

    @Test
    void aCollectorOnItsScheduleNeedsNoWait() {
        CatchUp c = new CatchUp(PERIOD, T0);
        assertThat(c.update(List.of(started(T0 - 2400, 5000), started(T0 - 1200, 3)), T0))
                .isEqualTo(CatchUp.State.ON_SCHEDULE);
        assertThat(c.firstLateMs()).isEqualTo(3); // the latest collection, not the earlier late one
        assertThat(c.note(CatchUp.State.ON_SCHEDULE, T0)).as("nothing waited for: no note").isNull();
    }

    @Test
    void aDrainingBacklogIsWaitedForUntilTheLatestCollectionStartsWithinAQuarterPeriodOfItsSlot() {
        CatchUp c = new CatchUp(PERIOD, T0);
        assertThat(c.update(List.of(started(T0 - 500, 9000)), T0)).isEqualTo(CatchUp.State.CATCHING_UP);
        assertThat(c.update(List.of(started(T0 + 4000, 5000)), T0 + 4500)).isEqualTo(CatchUp.State.CATCHING_UP);
        // 300 ms late is a quarter of the period: still catching up
        assertThat(c.update(List.of(started(T0 + 9000, 300)), T0 + 9500)).isEqualTo(CatchUp.State.CATCHING_UP);
        assertThat(c.update(List.of(started(T0 + 9900, 299)), T0 + 10_000)).isEqualTo(CatchUp.State.ON_SCHEDULE);
        assertThat(c.firstLateMs()).isEqualTo(9000);
        assertThat(c.lastLateMs()).isEqualTo(299);
        assertThat(c.note(CatchUp.State.ON_SCHEDULE, T0 + 10_000)).isEqualTo("catch-up: the window began once the"
                + " collector was back on its schedule, after 10 s more under the full load (it started 9000 ms behind)");
    }

    @Test
    void aCollectorFallingFurtherBehindIsGivenUpOnOnceItsLatenessStopsFalling() {
        CatchUp c = new CatchUp(PERIOD, T0);
        assertThat(c.update(List.of(started(T0 - 100, 4000)), T0)).isEqualTo(CatchUp.State.CATCHING_UP);
        assertThat(c.update(List.of(started(T0 + 5000, 7000)), T0 + 10_000)).isEqualTo(CatchUp.State.CATCHING_UP);
        assertThat(c.update(List.of(started(T0 + 10_000, 10_000)), T0 + CatchUp.NO_PROGRESS_MS))
                .isEqualTo(CatchUp.State.NOT_CATCHING_UP);
        assertThat(c.lastLateMs()).isEqualTo(10_000);
        assertThat(c.note(CatchUp.State.NOT_CATCHING_UP, T0 + CatchUp.NO_PROGRESS_MS))
                .startsWith(CatchUp.BEHIND_AT_WINDOW_START + " 10000 ms behind its schedule when the window began")
                .contains("its lateness stopped falling, after 15 s");
    }

    @Test
    void aBacklogThatDrainsTooSlowlyEndsTheWaitAtItsBound() {
        CatchUp c = new CatchUp(PERIOD, T0);
        long late = 200_000;
        CatchUp.State s = CatchUp.State.CATCHING_UP;
        long now = T0;
        for (; s == CatchUp.State.CATCHING_UP; now += 1000) {
            s = c.update(List.of(started(now, late)), now);
            late -= 100; // falls every poll, never enough
        }
        assertThat(s).isEqualTo(CatchUp.State.TIMED_OUT);
        assertThat(now - 1000 - T0).isEqualTo(CatchUp.MAX_WAIT_MS);
        assertThat(c.note(s, now - 1000)).startsWith(CatchUp.BEHIND_AT_WINDOW_START).contains("the wait's bound");
    }

    @Test
    void noCollectionYetCountsAsNoProgress() {
        CatchUp c = new CatchUp(PERIOD, T0);
        assertThat(c.update(List.of(), T0 + 1000)).isEqualTo(CatchUp.State.CATCHING_UP);
        assertThat(c.update(List.of(), T0 + CatchUp.NO_PROGRESS_MS)).isEqualTo(CatchUp.State.NOT_CATCHING_UP);
        assertThat(c.firstLateMs()).isNull();
    }

    @Test
    void anAppThatDoesNotReportItsScheduleIsNotWaitedFor() {
        CatchUp c = new CatchUp(PERIOD, T0);
        assertThat(c.update(List.of(new CollectionRecord(T0 - 100, 500L, 900, false, PERIOD)), T0))
                .isEqualTo(CatchUp.State.NOT_REPORTED);
        assertThat(c.note(CatchUp.State.NOT_REPORTED, T0)).isNull();
    }
}
