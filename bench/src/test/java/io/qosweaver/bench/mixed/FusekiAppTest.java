package io.qosweaver.bench.mixed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.run.Layout;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Fuseki's data, configuration and requests, without Fuseki. */
class FusekiAppTest {
    @TempDir
    Path tmp;

    @Test
    void theDatasetIsFiveTriplesPerItemAndTheSameEveryTime() throws Exception {
        Path a = tmp.resolve("a.nt");
        Path b = tmp.resolve("b.nt");
        assertThat(FusekiApp.writeDataset(a, 1000)).isEqualTo(5000);
        FusekiApp.writeDataset(b, 1000);
        List<String> lines = Files.readAllLines(a);
        assertThat(lines).hasSize(5000).allMatch(l -> l.endsWith(" ."));
        assertThat(lines).filteredOn(l -> l.contains("<http://example.org/category>")).hasSize(1000);
        assertThat(lines.get(2)).matches("<http://example.org/item/0> <http://example.org/price> \"\\d+\\.\\d+\""
                + "\\^\\^<http://www.w3.org/2001/XMLSchema#decimal> \\.");
        assertThat(Files.mismatch(a, b)).isEqualTo(-1L);
    }

    @Test
    void prepareWritesTheCommittedConfigurationBesideTheData() throws Exception {
        Path root = Layout.find().root();
        new FusekiApp().prepare(root, tmp.resolve("run"));
        assertThat(Files.readString(tmp.resolve("run/config.ttl"))).contains("fuseki:name \"analytics\"")
                .contains("ja:data \"data.nt\"");
        assertThat(Files.size(tmp.resolve("run/data.nt"))).isPositive();
        assertThatThrownBy(() -> new FusekiApp().prepare(tmp, tmp.resolve("x")))
                .hasMessageStartingWith("Fuseki's configuration is missing");
    }

    @Test
    void heavyAndLightAreQueriesOnTheirOwnEndpoints() {
        FusekiApp app = new FusekiApp();
        URI base = URI.create("http://127.0.0.1:3030");
        String heavy = app.heavyTarget(base);
        assertThat(heavy).startsWith("http://127.0.0.1:3030/ds/analytics?query=");
        assertThat(URLDecoder.decode(heavy.substring(heavy.indexOf('=') + 1), StandardCharsets.UTF_8))
                .contains("GROUP BY ?cat");
        String light = app.lightTarget(base);
        assertThat(light).startsWith("http://127.0.0.1:3030/ds/query?query=").contains("{i}");
        String one = light.replace("{i}", "42");
        assertThat(URLDecoder.decode(URI.create(one).getRawQuery().substring("query=".length()), StandardCharsets.UTF_8))
                .isEqualTo("SELECT ?p ?o WHERE { <http://example.org/item/42> ?p ?o }");
        assertThat(app.appArgs(3030)).containsExactly("--port=3030", "--config=config.ttl");
        assertThat(app.policy(true)).isEqualTo("examples/third-party/fuseki/policies/generated.yaml");
        assertThat(app.fetchScript()).isEqualTo("examples/third-party/fuseki/fetch.sh");
    }

    /** Every committed Fuseki policy loads as the agent reads it and selects the two endpoints. */
    @Test
    void theCommittedPoliciesLoadAndSelectTheTwoEndpoints() throws Exception {
        Path root = Layout.find().root();
        for (String name : List.of("handwritten", "generated", "handwritten-at-entry", "handwritten-entry-cap",
                "handwritten-no-parking", "handwritten-grace", "handwritten-nice")) {
            Path file = root.resolve("examples/third-party/fuseki/policies/" + name + ".yaml");
            io.qosweaver.model.policy.PolicyFile policy = io.qosweaver.model.policy.PolicyFile.load(file);
            assertThat(policy.controlPoints()).as(name).isNotEmpty();
            assertThat(Files.readString(file)).as(name).contains("{path: /ds/query}").contains("{path: /ds/analytics}")
                    .contains("lowCap: 1x");
        }
        // the no-parking version differs from the hand-written one in its low limit only
        assertThat(Files.readString(root.resolve("examples/third-party/fuseki/policies/handwritten-no-parking.yaml")))
                .contains("lowLimit: 1x");
        // the grace version: the hand-written low limit, after a grace
        assertThat(Files.readString(root.resolve("examples/third-party/fuseki/policies/handwritten-grace.yaml")))
                .contains("lowLimit: 1 ").contains("lowLimitAfter: 15ms");
        assertThat(MixedVersions.of(new FusekiApp()).get(MixedVersions.QOSWEAVER_GRACE).policy())
                .isEqualTo("examples/third-party/fuseki/policies/handwritten-grace.yaml");
        assertThat(MixedVersions.of(new TikaApp()).get(MixedVersions.QOSWEAVER_GRACE).policy())
                .isEqualTo("examples/third-party/tika/policies/handwritten-grace.yaml");
        // the entry-only version: the at-entry policy without its control points, in both apps
        for (String app : List.of("fuseki", "tika")) {
            Path f = root.resolve("examples/third-party/" + app + "/policies/handwritten-entry-only.yaml");
            io.qosweaver.model.policy.PolicyFile entryOnly = io.qosweaver.model.policy.PolicyFile.load(f);
            assertThat(entryOnly.controlPoints()).as(app).isEmpty();
            assertThat(entryOnly.taskClasses()).as(app).hasSize(2);
            assertThat(Files.readString(f)).as(app).contains("suspendAtEntry: true").contains("lowCap: 1x")
                    .contains("lowLimit: 1\n");
        }
        // the entry-cap-pool version: the entry-cap policy and a server pool of 64, nothing else, in both apps
        for (String app : List.of("fuseki", "tika")) {
            Path dir = root.resolve("examples/third-party/" + app + "/policies");
            String cap = Files.readString(dir.resolve("handwritten-entry-cap.yaml"));
            String pool = Files.readString(dir.resolve("handwritten-entry-cap-pool.yaml"));
            assertThat(pool.substring(pool.indexOf("taskClasses:"))).as(app).isEqualTo(
                    cap.substring(cap.indexOf("taskClasses:")) + "aspects:\n  threadPools:\n    - server: jetty\n      max: 64\n");
            assertThat(io.qosweaver.model.policy.PolicyFile.load(dir.resolve("handwritten-entry-cap-pool.yaml"))
                    .taskClasses()).as(app).hasSize(2);
            assertThat(MixedVersions.of(MixedApp.named(app)).get(MixedVersions.QOSWEAVER_ENTRY_CAP_POOL).policy())
                    .isEqualTo("examples/third-party/" + app + "/policies/handwritten-entry-cap-pool.yaml");
        }
        // the entry-cap version: the at-entry policy with lowLimit at lowCap, nothing else changed, in both apps
        for (String app : List.of("fuseki", "tika")) {
            Path dir = root.resolve("examples/third-party/" + app + "/policies");
            String atEntry = Files.readString(dir.resolve("handwritten-at-entry.yaml"));
            String cap = Files.readString(dir.resolve("handwritten-entry-cap.yaml"));
            assertThat(cap.substring(cap.indexOf("taskClasses:")).replace(
                    "  lowLimit: 1x       # as many as lowCap: a light request parks no heavy one\n", "  lowLimit: 1\n"))
                    .as(app).isEqualTo(atEntry.substring(atEntry.indexOf("taskClasses:")));
            assertThat(io.qosweaver.model.policy.PolicyFile.load(dir.resolve("handwritten-entry-cap.yaml"))
                    .controlPoints()).as(app).isNotEmpty();
        }
        // the entry-grace version: the at-entry policy with the grace of the grace version
        for (String app : List.of("fuseki", "tika")) {
            Path dir = root.resolve("examples/third-party/" + app + "/policies");
            String atEntry = Files.readString(dir.resolve("handwritten-at-entry.yaml"));
            String grace = Files.readString(dir.resolve("handwritten-entry-grace.yaml"));
            assertThat(grace.substring(grace.indexOf("taskClasses:")).replace("  lowLimit: 1         # one running heavy "
                    + "request while a light one runs past the grace\n  lowLimitAfter: 15ms #   ... but only once it has "
                    + "run this long; before that, lowCap\n", "  lowLimit: 1\n"))
                    .as(app).isEqualTo(atEntry.substring(atEntry.indexOf("taskClasses:")));
            assertThat(io.qosweaver.model.policy.PolicyFile.load(dir.resolve("handwritten-entry-grace.yaml"))
                    .controlPoints()).as(app).isNotEmpty();
        }
        assertThat(MixedVersions.ALL).as("run when named").doesNotContain(MixedVersions.QOSWEAVER_ENTRY_CAP,
                MixedVersions.QOSWEAVER_ENTRY_GRACE);
        assertThat(MixedVersions.of(new FusekiApp()).get(MixedVersions.QOSWEAVER_ENTRY_ONLY).policy())
                .isEqualTo("examples/third-party/fuseki/policies/handwritten-entry-only.yaml");
        assertThat(MixedVersions.ALL).as("run when named").doesNotContain(MixedVersions.QOSWEAVER_ENTRY_ONLY);
        assertThat(MixedVersions.ALL).as("run when named").doesNotContain(MixedVersions.QOSWEAVER_GRACE,
                MixedVersions.QOSWEAVER_NICE, MixedVersions.LINUX_PRIORITY);
        // the nice version: the hand-written policy and a nice value for the heavy class; the priority
        // baseline: the same task classes, no control points, nothing suspended
        for (String app : List.of("fuseki", "tika")) {
            Path dir = root.resolve("examples/third-party/" + app + "/policies");
            String hand = Files.readString(dir.resolve("handwritten.yaml"));
            String nice = Files.readString(dir.resolve("handwritten-nice.yaml"));
            assertThat(nice.substring(nice.indexOf("taskClasses:")).replace("  lowNice: 19       # heavy threads at the"
                    + " lowest OS priority while in a heavy request\n", "")).as(app)
                    .isEqualTo(hand.substring(hand.indexOf("taskClasses:")));
            io.qosweaver.model.policy.PolicyFile prio = io.qosweaver.model.policy.PolicyFile.load(dir.resolve("linux-priority.yaml"));
            assertThat(prio.controlPoints()).as(app).isEmpty();
            assertThat(prio.taskClasses()).as(app).hasSize(2);
            assertThat(Files.readString(dir.resolve("linux-priority.yaml"))).contains("name: linux-priority");
        }
        // every version's policy file is committed
        for (io.qosweaver.bench.run.Versions.Version v : MixedVersions.of(new FusekiApp()).values()) {
            if (v.policy() != null) {
                assertThat(root.resolve(v.policy())).as(v.name()).isRegularFile();
            }
        }
        for (io.qosweaver.bench.run.Versions.Version v : MixedVersions.of(new TikaApp()).values()) {
            if (v.policy() != null) {
                assertThat(root.resolve(v.policy())).as(v.name()).isRegularFile();
            }
        }
    }
}
