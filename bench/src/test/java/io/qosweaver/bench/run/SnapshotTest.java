package io.qosweaver.bench.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotTest {
    @Test
    void runsPrivateCopiesAndRemovesThem(@TempDir Path root) throws Exception {
        Layout layout = new Layout(root);
        Files.createDirectories(layout.riverMonitorJar().getParent());
        Files.createDirectories(layout.agentJar().getParent());
        Files.createDirectories(layout.riverMonitorPolicy().getParent());
        Files.writeString(layout.riverMonitorJar(), "app");
        Files.writeString(layout.agentJar(), "agent");
        Files.writeString(layout.riverMonitorPolicy(), "policy");
        Path dir;
        try (Snapshot s = Snapshot.of(layout, true)) {
            dir = s.dir();
            // a rebuild of target/ during the run does not touch the copies
            Files.writeString(layout.agentJar(), "rebuilt");
            assertThat(Files.readString(s.agentJar())).isEqualTo("agent");
            assertThat(Files.readString(s.riverMonitorJar())).isEqualTo("app");
            assertThat(Files.readString(s.policy())).isEqualTo("policy");
        }
        assertThat(dir).doesNotExist();
        try (Snapshot s = Snapshot.of(layout, false)) {
            assertThat(s.agentJar()).isNull();
        }
        assertThat(layout.jarDates(true)).containsKeys("river_monitor_jar_built", "agent_jar_built");
    }

    @Test
    void policiesWithTheSameFileNameKeepTheirOwnCopies(@TempDir Path root) throws Exception {
        Layout layout = new Layout(root);
        Files.createDirectories(layout.riverMonitorJar().getParent());
        Files.createDirectories(layout.agentJar().getParent());
        Files.writeString(layout.riverMonitorJar(), "app");
        Files.writeString(layout.agentJar(), "agent");
        for (String name : java.util.List.of(Versions.QOSWEAVER, Versions.QOSWEAVER_HANDWRITTEN)) {
            Path p = root.resolve(Versions.get(name).policy());
            Files.createDirectories(p.getParent());
            Files.writeString(p, name);
        }
        java.util.List<Versions.Version> vs = Versions.resolve(java.util.List.of(Versions.QOSWEAVER,
                Versions.QOSWEAVER_HANDWRITTEN));
        assertThat(vs.get(0).policy()).as("the case this test is about")
                .isNotEqualTo(vs.get(1).policy())
                .endsWith("/" + Path.of(vs.get(1).policy()).getFileName());
        try (Snapshot s = Snapshot.of(layout, vs)) {
            for (Versions.Version v : vs) {
                assertThat(Files.readString(s.policies().get(v.policy()))).isEqualTo(v.name());
            }
        }
    }
}
