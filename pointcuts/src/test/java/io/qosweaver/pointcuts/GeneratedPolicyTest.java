package io.qosweaver.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.model.pointcut.MethodSignature;
import io.qosweaver.model.policy.PolicyFile;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What the generator writes is what the agent reads: every generated control point parses in the
 * policy file's pointcut language, is a control point (a call within a method), and selects
 * exactly the join point it was generated from, whatever the types in its signatures.
 */
class GeneratedPolicyTest {
    private static final String[] TYPES = {"int", "long[][]", "java.lang.String", "java.util.Map$Entry[]",
        "a.b.Outer$Inner", "boolean", "double[]", "p.q.r.Deep$N1$N2"};

    @Test
    void everyGeneratedControlPointParsesAndSelectsItsOwnJoinPoint() throws Exception {
        Random rnd = new Random(12);
        Profile.Builder b = Profile.builder();
        b.source("random");
        for (int k = 0; k < 400; k++) {
            b.joinPoint(k * 3_000_000L + rnd.nextInt(1_000_000), 1 + rnd.nextInt(2),
                    signature(rnd, "a.b.Outer$Inner", "run" + rnd.nextInt(4)),
                    signature(rnd, rnd.nextBoolean() ? "x.Y" : "x.y.Z$W", "f" + rnd.nextInt(12)));
        }
        Profile profile = b.build();
        PointcutGenerator g = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), Integer.MAX_VALUE));
        List<GenerationReport.GeneratedPointcut> all = g.eligibleCandidates(profile);
        assertThat(all).hasSizeGreaterThan(20);
        GenerationReport report = g.evaluate(profile, all);

        PolicyFile policy = PolicyFile.parse("generated.yaml", "taskClasses:\n  - name: t\n"
                + "    entry: execution(void a.b.Outer$Inner.run0(..))\n    importance: high\n"
                + report.controlPointsYaml() + "policy:\n  name: importance\n");

        assertThat(policy.controlPoints()).hasSize(all.size());
        for (int i = 0; i < all.size(); i++) {
            GenerationReport.GeneratedPointcut p = all.get(i);
            PolicyFile.ControlPointDef def = policy.controlPoints().get(i);
            assertThat(def.text()).isEqualTo(p.pointcut());
            MethodSignature caller = MethodSignature.parse(p.caller());
            assertThat(def.pointcut().matches(caller, MethodSignature.parse(p.callee()))).as(p.pointcut()).isTrue();
            for (GenerationReport.GeneratedPointcut other : all) {
                if (!other.callee().equals(p.callee())) {
                    assertThat(def.pointcut().matches(caller, MethodSignature.parse(other.callee())))
                            .as(p.pointcut() + " against " + other.callee()).isFalse();
                }
                if (!other.caller().equals(p.caller())) {
                    assertThat(def.pointcut().matches(MethodSignature.parse(other.caller()),
                            MethodSignature.parse(p.callee()))).as(p.pointcut() + " within " + other.caller()).isFalse();
                }
            }
        }
    }

    @Test
    void anEmptyGenerationIsStillAPolicyFileSection() throws Exception {
        Profile profile = Profile.builder().build();
        GenerationReport report = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 1))
                .evaluate(profile, List.of());
        PolicyFile policy = PolicyFile.parse("empty.yaml", "taskClasses:\n  - name: t\n    servletPath: /x\n"
                + report.controlPointsYaml() + "policy:\n  name: importance\n");
        assertThat(policy.controlPoints()).isEmpty();
    }

    private static String signature(Random rnd, String type, String name) {
        int n = rnd.nextInt(4);
        StringBuilder params = new StringBuilder();
        for (int i = 0; i < n; i++) {
            params.append(i == 0 ? "" : ", ").append(TYPES[rnd.nextInt(TYPES.length)]);
        }
        String ret = rnd.nextInt(3) == 0 ? "void" : TYPES[rnd.nextInt(TYPES.length)];
        return ret + " " + type + "." + name + "(" + params + ")";
    }
}
