package io.qosweaver.bench.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class VersionsTest {

    @Test
    void thePapersFiveVersionsAndTodaysToolsAreDataSelectedByName() {
        assertThat(Versions.known()).containsExactly("original", "admission", "java-priority", "linux-priority",
                "qosweaver", "qosweaver-handwritten", "qosweaver-capped", "qosweaver-capped-entry",
                "qosweaver-capped-nice", "qosweaver-cover-entry", "qosweaver-capped-admission", "concurrency-limits",
                "jetty-qos");
        assertThat(Versions.known()).containsAll(Versions.ALL_VERSIONS);
        assertThat(Versions.ALL_VERSIONS).as("bench deadline runs the capped candidates by default")
                .contains("qosweaver-capped", "qosweaver-capped-entry");
        assertThat(Versions.get("jetty-qos").usesPeer()).isTrue();
        assertThat(Versions.get("jetty-qos").usesAgent()).isFalse();
        assertThat(Versions.get("concurrency-limits").peer()).startsWith("peer=concurrency-limits");
        List<Versions.Version> vs = Versions.resolve(List.of("qosweaver", "original", "java-priority"));
        assertThat(vs).extracting(Versions.Version::name).containsExactly("qosweaver", "original", "java-priority");
        assertThat(vs.get(1).usesAgent()).isFalse();
        assertThat(vs.get(1).jvmFlags()).isEmpty();
        assertThat(vs.get(2).jvmFlags()).containsExactly("-XX:ThreadPriorityPolicy=1");
        assertThat(vs.get(0).policy()).isEqualTo("examples/policies/river-monitor.yaml");
    }

    /**
     * The versions must differ only in their policy section (issue 4: same app, same load, same
     * woven join points), so every version file repeats the river monitor's task classes and
     * control points; this keeps them from drifting apart.
     */
    @Test
    void everyVersionWeavesTheSameTaskClassesAndControlPoints() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        String reference = weavingPart(root.resolve("examples/policies/river-monitor.yaml"));
        assertThat(reference).contains("taskClasses:").contains("controlPoints:");
        for (Versions.Version v : Versions.resolve(Versions.SAME_WEAVING)) {
            if (v.usesAgent()) {
                assertThat(weavingPart(root.resolve(v.policy()))).as(v.policy()).isEqualTo(reference);
            }
        }
    }

    /**
     * The coverage-aware version is qosweaver-capped-entry with other control points: the same task classes
     * and policy, the 6 pointcuts of the coverage-aware set (t 25 ms, m 1, every slot covered) in place of
     * the dense set.
     */
    @Test
    void theCoverVersionIsCappedEntryWithTheCoverageAwareControlPoints() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        String cover = Files.readString(root.resolve(Versions.get("qosweaver-cover-entry").policy()));
        String dense = Files.readString(root.resolve(Versions.get("qosweaver-capped-entry").policy()));
        assertThat(section(cover, "taskClasses:", "controlPoints:")).isEqualTo(section(dense, "taskClasses:",
                "controlPoints:"));
        assertThat(section(cover, "policy:", null)).isEqualTo(section(dense, "policy:", null));
        String points = section(cover, "controlPoints:", "policy:");
        assertThat(points.lines().filter(l -> l.startsWith("  - \"call(")).count()).isEqualTo(6);
        assertThat(cover).contains("maximum occurrence 1, every slot covered");
        assertThat(points).isNotEqualTo(section(dense, "controlPoints:", "policy:"));
        assertThat(io.qosweaver.model.policy.PolicyFile.load(root.resolve(Versions.get("qosweaver-cover-entry")
                .policy())).controlPoints()).hasSize(6);
    }

    /** The capped admission version weaves what the cover version weaves and differs in its policy only. */
    @Test
    void theCappedAdmissionVersionIsAdmissionControlWithTheCapAndTheCoverWeaving() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        String admission = Files.readString(root.resolve(Versions.get("qosweaver-capped-admission").policy()));
        String cover = Files.readString(root.resolve(Versions.get("qosweaver-cover-entry").policy()));
        assertThat(section(admission, "taskClasses:", "policy:")).isEqualTo(section(cover, "taskClasses:", "policy:"));
        assertThat(section(admission, "policy:", null)).isEqualTo("""
                policy:
                  name: admission
                  lowLimit: 1
                  lowCap: 1x
                """);
    }

    /** The generated policy differs from the hand-written one in its control points only. */
    @Test
    void theHandwrittenVersionHasTheSameTaskClassesAndPolicy() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        String hand = Files.readString(root.resolve(Versions.get("qosweaver-handwritten").policy()));
        String gen = Files.readString(root.resolve("examples/policies/river-monitor.yaml"));
        assertThat(gen).as("the default policy is the generated one").contains("GENERATED control points");
        assertThat(section(gen, "taskClasses:", "controlPoints:")).isEqualTo(section(hand, "taskClasses:",
                "controlPoints:"));
        assertThat(section(gen, "policy:", null)).isEqualTo(section(hand, "policy:", null));
        assertThat(section(gen, "controlPoints:", "policy:")).isNotEqualTo(section(hand, "controlPoints:", "policy:"));
    }

    private static String section(String text, String from, String to) {
        StringBuilder b = new StringBuilder();
        boolean in = false;
        for (String line : text.split("\n")) {
            String l = line.replaceAll("\\s+#.*$", "").stripTrailing();
            if (l.startsWith(from)) {
                in = true;
            } else if (to != null && l.startsWith(to)) {
                in = false;
            }
            if (in && !l.isBlank() && !l.stripLeading().startsWith("#")) {
                b.append(l).append('\n');
            }
        }
        return b.toString();
    }

    /** The lines from taskClasses: up to policy:, without comments and blank lines. */
    private static String weavingPart(Path file) throws Exception {
        StringBuilder b = new StringBuilder();
        boolean in = false;
        for (String line : Files.readAllLines(file)) {
            String l = line.replaceAll("\\s+#.*$", "").stripTrailing();
            if (l.startsWith("taskClasses:")) {
                in = true;
            } else if (l.startsWith("policy:")) {
                in = false;
            }
            if (in && !l.isBlank() && !l.stripLeading().startsWith("#")) {
                b.append(l).append('\n');
            }
        }
        return b.toString();
    }

    @Test
    void everyPolicyFileExistsInTheProject() {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        for (Versions.Version v : Versions.resolve(Versions.known())) {
            if (v.usesAgent()) {
                assertThat(root.resolve(v.policy())).as(v.name()).isRegularFile();
                assertThat(Files.exists(root.resolve(v.policy()))).isTrue();
            }
        }
    }

    @Test
    void anUnknownNameListsTheKnownOnes() {
        assertThatThrownBy(() -> Versions.resolve(List.of("original", "nice")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown version 'nice'")
                .hasMessageContaining("original, admission, java-priority, linux-priority, qosweaver, "
                        + "qosweaver-handwritten, qosweaver-capped, qosweaver-capped-entry, qosweaver-capped-nice, "
                        + "qosweaver-cover-entry, qosweaver-capped-admission, "
                        + "concurrency-limits, jetty-qos");
        assertThatThrownBy(() -> Versions.resolve(List.of()))
                .hasMessageContaining("known versions");
        assertThatThrownBy(() -> Versions.resolve(List.of("original", "original")))
                .hasMessageContaining("named twice");
    }

    @Test
    void theSnapshotGivesEachVersionItsFlagsAndItsOwnPolicyCopy(@org.junit.jupiter.api.io.TempDir Path root)
            throws Exception {
        Layout layout = new Layout(root);
        Files.createDirectories(layout.riverMonitorJar().getParent());
        Files.createDirectories(layout.agentJar().getParent());
        Files.writeString(layout.riverMonitorJar(), "app");
        Files.writeString(layout.agentJar(), "agent");
        Files.createDirectories(layout.peersAgentJar().getParent());
        Files.writeString(layout.peersAgentJar(), "peers");
        Files.createDirectories(root.resolve("examples/policies/versions"));
        Files.writeString(root.resolve("examples/policies/river-monitor.yaml"), "qosweaver");
        Files.writeString(root.resolve("examples/policies/versions/java-priority.yaml"), "java-priority");
        List<Versions.Version> vs = Versions.resolve(List.of("original", "java-priority", "qosweaver", "jetty-qos"));
        try (Snapshot s = Snapshot.of(layout, vs)) {
            assertThat(s.jvmFlags(vs.get(0))).isEmpty();
            assertThat(s.jvmFlags(vs.get(3))).containsExactly("-javaagent:" + s.peersAgentJar()
                    + "=peer=jetty-qos,lowPath=/chart,maxRequests=" + Runtime.getRuntime().availableProcessors());
            assertThat(s.peersAgentJar()).startsWith(s.dir());
            List<String> jp = s.jvmFlags(vs.get(1));
            assertThat(jp).hasSize(2);
            assertThat(jp.get(0)).isEqualTo("-XX:ThreadPriorityPolicy=1");
            assertThat(jp.get(1)).startsWith("-javaagent:" + s.agentJar() + "=policy=").endsWith(
                    "java-priority.yaml,metricsPort=0");
            Path copy = s.policies().get("examples/policies/river-monitor.yaml");
            assertThat(copy).startsWith(s.dir());
            assertThat(Files.readString(copy)).isEqualTo("qosweaver");
        }
        // a missing policy is an error naming the version
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Snapshot.of(layout,
                Versions.resolve(List.of("admission")))).hasMessageContaining("admission");
    }

    /** A name may set parameters of a woven version's policy section; the rest of the version is its base's. */
    @Test
    void aNameSetsPolicyParametersOfAWovenVersion() {
        Versions.Version base = Versions.get("qosweaver-cover-entry");
        Versions.Version v = Versions.get("qosweaver-cover-entry:lowCap=1.5x:lowLimitAfter=15ms");
        assertThat(v.name()).isEqualTo("qosweaver-cover-entry:lowCap=1.5x:lowLimitAfter=15ms");
        assertThat(v.policy()).isEqualTo(base.policy());
        assertThat(v.policyParams()).containsExactly(java.util.Map.entry("lowCap", "1.5x"),
                java.util.Map.entry("lowLimitAfter", "15ms"));
        assertThat(v.policyKey()).isEqualTo(base.policy() + ":lowCap=1.5x:lowLimitAfter=15ms");
        assertThat(v.description()).startsWith(base.description()).endsWith("; policy lowCap=1.5x, lowLimitAfter=15ms");
        assertThat(base.policyKey()).isEqualTo(base.policy());
        assertThat(Versions.fileName(v.name())).isEqualTo("qosweaver-cover-entry+lowCap=1.5x+lowLimitAfter=15ms");
        assertThat(Versions.fileName(base.name())).isEqualTo(base.name());
        assertThat(Versions.resolve(List.of("qosweaver-cover-entry", "qosweaver-cover-entry:lowCap=3")))
                .extracting(Versions.Version::policyKey).doesNotHaveDuplicates();
        assertThatThrownBy(() -> Versions.get("jetty-qos:maxRequests=3")).hasMessageContaining("jetty-qos is not woven");
        assertThatThrownBy(() -> Versions.get("nope:lowCap=3")).hasMessageContaining("unknown version 'nope:lowCap=3'");
        assertThatThrownBy(() -> Versions.get("qosweaver:lowCap")).hasMessageContaining("'lowCap' is not KEY=VALUE");
        assertThatThrownBy(() -> Versions.get("qosweaver:lowCap=1:lowCap=2")).hasMessageContaining("given twice");
        assertThatThrownBy(() -> Versions.get("qosweaver:name=admission")).hasMessageContaining("'name' cannot be set");
        assertThatThrownBy(() -> Versions.get("qosweaver:lowCap=1 x")).hasMessageContaining("not KEY=VALUE");
    }

    /** A version with parameters runs its own copy of its base's policy, with them set; the base's copy is untouched. */
    @Test
    void theSnapshotWritesAVersionsParametersIntoItsOwnCopy(@org.junit.jupiter.api.io.TempDir Path root) throws Exception {
        Layout layout = new Layout(root);
        Files.createDirectories(layout.riverMonitorJar().getParent());
        Files.createDirectories(layout.agentJar().getParent());
        Files.writeString(layout.riverMonitorJar(), "app");
        Files.writeString(layout.agentJar(), "agent");
        Files.createDirectories(root.resolve("examples/policies"));
        Files.writeString(root.resolve("examples/policies/river-monitor.yaml"), "policy:\n  name: importance\n  lowLimit: 1\n");
        List<Versions.Version> vs = Versions.resolve(List.of("qosweaver", "qosweaver:lowLimit=2:lowCap=1x"));
        try (Snapshot s = Snapshot.of(layout, vs)) {
            Path base = s.policies().get("examples/policies/river-monitor.yaml");
            Path derived = s.policies().get("examples/policies/river-monitor.yaml:lowLimit=2:lowCap=1x");
            assertThat(Files.readString(base)).isEqualTo("policy:\n  name: importance\n  lowLimit: 1\n");
            assertThat(Files.readString(derived)).isEqualTo("policy:\n  name: importance\n  lowLimit: 2\n  lowCap: 1x\n");
            assertThat(derived.getFileName()).hasToString("river-monitor.lowLimit=2.lowCap=1x.yaml");
            assertThat(s.jvmFlags(vs.get(1))).containsExactly(Snapshot.agentFlag(s.agentJar(), derived));
        }
        Files.writeString(root.resolve("examples/policies/river-monitor.yaml"), "policy: {name: importance}\n");
        assertThatThrownBy(() -> Snapshot.of(layout, Versions.resolve(List.of("qosweaver:lowCap=2"))))
                .hasMessageContaining("version qosweaver:lowCap=2: examples/policies/river-monitor.yaml: ")
                .hasMessageContaining("block style");
    }
}
