package io.qosweaver.scheduler;

import io.qosweaver.scheduler.core.ThreadStates;
import io.qosweaver.scheduler.testing.Configs;
import io.qosweaver.scheduler.testing.Worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every scheduling decision shows up as a JFR event when a recording asks for it. */
class JfrEventsTest {

    @AfterEach
    void tearDown() {
        Scheduler.uninstall();
        ThreadStates.removeForTests();
    }

    @Test
    void recordsEnterYieldSuspendResumeAndLimitChange() throws Exception {
        Path file = Files.createTempFile("qosweaver", ".jfr");
        try (Recording r = new Recording()) {
            for (String e : List.of("qosweaver.Enter", "qosweaver.Exit", "qosweaver.Yield", "qosweaver.Suspend",
                    "qosweaver.Resume", "qosweaver.LimitChange")) {
                r.enable(e);
            }
            r.start();
            Scheduler s = Scheduler.install(Configs.importance(0));
            Worker w = Worker.start("chart", "jfr-low");
            await().atMost(Duration.ofSeconds(5)).until(() -> w.passes.get() > 0);
            QoS.enter("collect");
            await().atMost(Duration.ofSeconds(5)).until(w::parkedInScheduler);
            QoS.exit();
            await().atMost(Duration.ofSeconds(5)).until(() -> s.stats().resumes() == 1);
            w.stop = true;
            w.thread.join(5_000);
            r.stop();
            r.dump(file);
        }
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        Files.deleteIfExists(file);
        Set<String> names = events.stream().map(e -> e.getEventType().getName()).collect(Collectors.toSet());
        assertThat(names).contains("qosweaver.Enter", "qosweaver.Exit", "qosweaver.Yield", "qosweaver.Suspend",
                "qosweaver.Resume", "qosweaver.LimitChange");
        RecordedEvent exit = events.stream().filter(e -> e.getEventType().getName().equals("qosweaver.Exit")
                && "collect".equals(e.getString("taskClass"))).findFirst().orElseThrow();
        assertThat(exit.getInt("depth")).isEqualTo(1);
        RecordedEvent limit = events.stream()
                .filter(e -> e.getEventType().getName().equals("qosweaver.LimitChange")).findFirst().orElseThrow();
        assertThat(limit.getInt("newLimit")).isZero();
        assertThat(limit.getInt("oldLimit")).isEqualTo(-1);
    }
}
