package io.qosweaver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.run.Layout;
import io.qosweaver.model.policy.PolicyFile;
import io.qosweaver.scheduler.Policies;
import io.qosweaver.scheduler.spi.Policy;
import io.qosweaver.scheduler.spi.PolicyContext;
import io.qosweaver.scheduler.spi.Ticker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every policy file the project ships under {@code examples/} is one a user may copy: each must load
 * as the agent reads it and its policy must accept every parameter it sets, not only its task classes
 * and control points (a misspelled or out-of-range policy key fails only when the policy is built).
 */
class CommittedPolicyFilesTest {

    private static final Path EXAMPLES = Layout.find().root().resolve("examples");

    @Test
    void everyCommittedPolicyFileBuildsItsPolicyWithItsParameters() throws Exception {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(EXAMPLES)) {
            files = walk.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).as("policy files under " + EXAMPLES).hasSizeGreaterThan(20);
        List<String> failures = new ArrayList<>();
        for (Path file : files) {
            try {
                build(file);
            } catch (Exception e) {
                failures.add(EXAMPLES.relativize(file) + ": " + e.getMessage());
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void tikasTwoMeasuredFilesRestTheirExtractionsAndTheCompilersInSchedIdle() throws Exception {
        for (String name : List.of("generated", "handwritten-at-entry")) {
            Policy p = build(EXAMPLES.resolve("third-party/tika/policies/" + name + ".yaml"));
            assertThat(p.compilerPriority()).as(name).isEqualTo(Policy.IDLE_PRIORITY);
        }
    }

    private static Policy build(Path file) throws Exception {
        PolicyFile f = PolicyFile.load(file);
        return Policies.create(f.policyName(),
                PolicyContext.of(f.policyName(), f.policyParameters(), Ticker.system(), w -> {}));
    }
}
