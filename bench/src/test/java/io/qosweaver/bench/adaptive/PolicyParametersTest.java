package io.qosweaver.bench.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PolicyParametersTest {

    @Test
    void setsParametersInThePolicySectionOnly() {
        String text = "taskClasses:\n  - name: chart\n    target: untouched\npolicy:\n  name: adaptive\n"
                + "  # the target\n  target: 150\n  lowMax: 6\n";
        Map<String, String> set = new LinkedHashMap<>();
        set.put("target", "900");
        set.put("lowMax", "1");
        set.put("middlePacing", "17ms");
        assertThat(io.qosweaver.bench.run.PolicyParams.apply(text, set)).isEqualTo("taskClasses:\n  - name: chart\n    target: untouched\n"
                + "policy:\n  name: adaptive\n  # the target\n  target: 900\n  lowMax: 1\n  middlePacing: 17ms\n");
        assertThatThrownBy(() -> io.qosweaver.bench.run.PolicyParams.apply("taskClasses:\n", set)).hasMessageContaining("policy:");
    }

    /** Each run's policy is the committed file with its own numbers: its task classes and control points stay. */
    @Test
    void aRunsPolicyIsTheCommittedFileWithItsTarget() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        String template = Files.readString(root.resolve(Adaptive.POLICY));
        assertThat(template).contains("servletPath: /levels", "importance: middle", "name: adaptive");
        AdaptiveParams p = AdaptiveParams.full();
        String probe = Adaptive.policyText(template, p, new Adaptive.RunPlan("limit-6", "probe", null, 6, false, 1, 0,
                null, null, null));
        assertThat(probe).contains("  lowMin: 6\n", "  lowMax: 6\n", "  lowInitial: 6\n");
        String run = Adaptive.policyText(template, p, new Adaptive.RunPlan("target-900", "target", 900.0, null, false,
                1, 0, null, null, null));
        assertThat(run).contains("  target: 900\n", "  lowMin: 1\n", "  lowMax: 6\n", "  middleCap: 15\n",
                "  middlePacing: 17ms\n"); // 15 threads x 1 page / 17 ms = the target during collections
        assertThat(run.substring(0, run.indexOf("\npolicy:"))).isEqualTo(template.substring(0,
                template.indexOf("\npolicy:")));
    }

    /** --policy-param reaches the target runs, not the probes (their limit is fixed); the experiment's own keys are refused. */
    @Test
    void extraPolicyParametersGoToTargetRunsOnly() throws Exception {
        Path root = Path.of(System.getProperty("qosweaver.root", "..")).toAbsolutePath().normalize();
        String template = Files.readString(root.resolve(Adaptive.POLICY));
        AdaptiveParams p = AdaptiveParams.quick().withPolicyParams(java.util.Map.of("dither", "true", "gain", "0.5"));
        String run = Adaptive.policyText(template, p, new Adaptive.RunPlan("target-900", "target", 900.0, null, false,
                1, 0, null, null, null));
        assertThat(run).contains("  dither: true\n", "  gain: 0.5\n");
        String probe = Adaptive.policyText(template, p, new Adaptive.RunPlan("limit-6", "probe", null, 6, false, 1, 0,
                null, null, null));
        assertThat(probe).doesNotContain("dither").doesNotContain("gain:");
        assertThat(p.asMap()).containsEntry("policy_params", java.util.Map.of("dither", "true", "gain", "0.5"));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> AdaptiveParams.quick().withPolicyParams(java.util.Map.of("target", "5")))
                .hasMessageContaining("target is set by the experiment");
    }
}
