package io.qosweaver.scheduler;

import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.event.RunningTimeline;
import io.qosweaver.scheduler.stats.Timeline;
import io.qosweaver.scheduler.testing.Configs;
import io.qosweaver.scheduler.testing.Worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The running-threads timeline: the ring, its text form, and real threads suspending. */
class TimelineTest {
    private final List<Worker> workers = new ArrayList<>();

    @AfterEach
    void tearDown() throws InterruptedException {
        Scheduler.uninstall();
        for (Worker w : workers) {
            w.stop = true;
        }
        for (Worker w : workers) {
            w.thread.join(5_000);
        }
        ThreadStates.removeForTests();
    }

    private static String className(int index) {
        return index == 0 ? "collect" : "chart";
    }

    @Test
    void ringKeepsTheNewestEventsAndCountsWhatAReaderMissed() {
        RunningTimeline ring = new RunningTimeline(4);
        for (int i = 0; i < 6; i++) {
            ring.record(1_000 + i, i % 2, i, 0);
        }
        Timeline all = ring.since(0, TimelineTest::className, 1_000, 5_000_000_000L);
        assertThat(all.nextSeq()).isEqualTo(6);
        assertThat(all.dropped()).as("seq 0 and 1 were overwritten").isEqualTo(2);
        assertThat(all.events()).extracting(Timeline.Event::seq).containsExactly(2L, 3L, 4L, 5L);
        assertThat(all.events().get(0).epochNanos()).isEqualTo(5_000_000_002L);
        assertThat(all.events().get(0).taskClass()).isEqualTo("collect");
        assertThat(all.events().get(1).taskClass()).isEqualTo("chart");

        Timeline rest = ring.since(5, TimelineTest::className, 1_000, 0);
        assertThat(rest.dropped()).isZero();
        assertThat(rest.events()).extracting(Timeline.Event::seq).containsExactly(5L);
        Timeline none = ring.since(6, TimelineTest::className, 1_000, 0);
        assertThat(none.events()).isEmpty();
        assertThat(none.nextSeq()).isEqualTo(6);
    }

    @Test
    void textHasOneLinePerEventWithRunningDerived() {
        Timeline t = new Timeline(8, 1, List.of(new Timeline.Event(7, 1_700_000_000_123_456_789L, "chart", 5, 3)));
        assertThat(t.toText()).isEqualTo("# qosweaver timeline: seq epoch_ms class members parked running\n"
                + "# next 8 dropped 1\n"
                + "7 1700000000123.456 chart 5 3 2\n");
    }

    @Test
    void realThreadsShowRunningLowThreadsFallingToTheLimitWhenTheHighTaskEnters() {
        Scheduler s = Scheduler.install(Configs.importance(1));
        for (int i = 0; i < 4; i++) {
            workers.add(Worker.start("chart", "low-" + i));
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> workers.stream().allMatch(w -> w.passes.get() > 2));
        long before = System.currentTimeMillis();
        QoS.enter("collect");
        await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().suspendedThreads() == 3);
        QoS.exit();
        await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().suspendedThreads() == 0);

        Timeline t = s.timeline(0);
        assertThat(t.dropped()).isZero();
        List<Timeline.Event> chart = t.events().stream().filter(e -> e.taskClass().equals("chart")).toList();
        assertThat(chart).extracting(Timeline.Event::running).as("the workers entering").startsWith(1, 2, 3, 4);
        assertThat(chart).extracting(Timeline.Event::running).contains(1).endsWith(4);
        assertThat(t.events()).filteredOn(e -> e.taskClass().equals("collect"))
                .extracting(Timeline.Event::members).containsExactly(1, 0);
        for (int i = 1; i < t.events().size(); i++) {
            assertThat(t.events().get(i).seq()).isEqualTo(t.events().get(i - 1).seq() + 1);
            assertThat(t.events().get(i).epochNanos()).isGreaterThanOrEqualTo(t.events().get(i - 1).epochNanos());
        }
        long highAt = t.events().stream().filter(e -> e.taskClass().equals("collect")).findFirst().orElseThrow()
                .epochNanos() / 1_000_000;
        assertThat(highAt).as("wall clock").isBetween(before - 50, System.currentTimeMillis() + 50);
        assertThat(s.timeline(t.nextSeq()).events()).isEmpty();
    }
}
