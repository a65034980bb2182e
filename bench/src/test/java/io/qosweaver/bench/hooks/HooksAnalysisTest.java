package io.qosweaver.bench.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HooksAnalysisTest {
    private static HooksResult.Run run(int rep, String version, double meanMs, double p99Ms) {
        return new HooksResult.Run(rep, 0, version, 1000, 0, 100, meanMs, meanMs, p99Ms, "logs/x.log");
    }

    /** Two repeats: the no-agent runs at 1.000 and 1.002 ms (resolution 0.2 %). */
    private static List<HooksResult.Run> runs(double policyFactor, double unwovenFactor) {
        List<HooksResult.Run> runs = new ArrayList<>();
        for (int rep = 1; rep <= 2; rep++) {
            double base = rep == 1 ? 1.000 : 1.002;
            runs.add(run(rep, "none", base, 2 * base));
            runs.add(run(rep, "execution", base * 1.05, 2 * base * 1.1));
            runs.add(run(rep, "all", base * 1.20, 2 * base * 1.3));
            runs.add(run(rep, "policy", base * policyFactor, 2 * base));
            runs.add(run(rep, "unwoven", base * unwovenFactor, 2 * base));
        }
        return runs;
    }

    private static HooksResult.Identity identical(int rep, String version) {
        return new HooksResult.Identity(rep, version, 20, 20, List.of());
    }

    @Test
    void ratiosArePairedWithTheNoAgentRunOfTheSameRepeat() {
        HooksResult.VersionSummary all = HooksAnalysis.summary("all", "", runs(1, 1));
        assertThat(all.runs()).isEqualTo(2);
        assertThat(all.meanRatioMedian()).isEqualTo(1.2);
        assertThat(all.meanRatioMin()).isEqualTo(1.2);
        assertThat(all.p99RatioMedian()).isEqualTo(1.3);
        assertThat(HooksAnalysis.summary("none", "", runs(1, 1)).meanRatioMedian()).isEqualTo(1.0);
        assertThat(HooksAnalysis.resolutionPct(runs(1, 1))).isEqualTo(0.2);
    }

    @Test
    void aCostUnderOnePercentIsMetAndAboveNotWhenTheRunsResolveIt() {
        HooksResult r = HooksAnalysis.assemble(true, Map.of(), Map.of(), "test", runs(1.004, 1.03), List.of(),
                List.of(identical(1, "policy")), Map.of(), "now");
        assertThat(r.goals()).hasSize(5);
        assertThat(r.goals().get(0).met()).as(r.goals().get(0).detail()).isTrue();
        assertThat(r.goals().get(1).met()).as(r.goals().get(1).detail()).isFalse();
        assertThat(r.goals().get(2).met()).isTrue();
        assertThat(r.resolutionPct()).isEqualTo(0.2);
    }

    @Test
    void noAgentRunsSpreadWiderThanTheGoalLeaveASmallCostUnresolved() {
        List<HooksResult.Run> runs = new ArrayList<>(runs(1.004, 1.0));
        runs.replaceAll(r -> r.version().equals("none") && r.repeat() == 2 ? run(2, "none", 1.05, 2) : r);
        HooksResult.Goal g = HooksAnalysis.costGoal("g", HooksAnalysis.summary("policy", "", runs),
                HooksAnalysis.resolutionPct(runs));
        assertThat(g.met()).isNull();
        assertThat(g.detail()).contains("NOT RESOLVED");
        assertThat(HooksAnalysis.costGoal("g", HooksAnalysis.summary("policy", "", List.of()), null).met()).isNull();
    }

    @Test
    void aClassNotByteIdenticalAfterUnweaveFailsTheIdentityGoalAndIsNamed() {
        HooksResult.Goal bad = HooksAnalysis.identityGoal(List.of(identical(1, "all"),
                new HooksResult.Identity(1, "policy", 24, 23, List.of("org.eclipse.jetty.server.Server"))));
        assertThat(bad.met()).isFalse();
        assertThat(bad.detail()).contains("43 of 44").contains("policy r1: org.eclipse.jetty.server.Server");
        assertThat(HooksAnalysis.identityGoal(List.of()).met()).isNull();
        assertThat(HooksAnalysis.identityGoal(List.of(new HooksResult.Identity(1, "all", 0, 0, List.of()))).met())
                .as("nothing woven: nothing checked").isNull();
    }

    @Test
    void bytesPerHookFromTheAgentsAnswers() throws Exception {
        ObjectMapper json = new ObjectMapper();
        HooksResult.Memory m = Hooks.memory(1, "all", json.readTree("""
                {"mode":"all","executions":100,"calls":300,"hookSites":520,
                 "classBytes":{"classesWoven":20,"originalBytes":80000,"wovenBytes":84000},
                 "metaspace":{"originalBytes":90000,"wovenBytes":94400,"failed":0}}"""), json.readTree("{}"));
        assertThat(m.joinPoints()).isEqualTo(400);
        assertThat(m.codeBytesPerJoinPoint()).isEqualTo(10.0);
        assertThat(m.codeBytesPerHookSite()).isEqualTo(7.69);
        assertThat(m.metaspaceBytesPerJoinPoint()).isEqualTo(11.0);
        HooksResult.Memory policy = Hooks.memory(1, "policy", json.readTree("""
                {"classBytes":{"classesWoven":3,"originalBytes":1000,"wovenBytes":1100},"metaspace":{}}"""),
                json.readTree("""
                {"pointcuts":[{"joinPoints":4},{"joinPoints":6}]}"""));
        assertThat(policy.joinPoints()).as("the policy's woven join points").isEqualTo(10);
        assertThat(policy.hookSites()).isNull();
        assertThat(policy.codeBytesPerJoinPoint()).isEqualTo(10.0);
    }

    @Test
    void theAgentFlagsOfEachProcess() {
        Path jar = Path.of("/a/agent.jar");
        Path policy = Path.of("/p/river-monitor.yaml");
        assertThat(Hooks.jvmFlags("none", jar, policy)).isEmpty();
        assertThat(Hooks.jvmFlags("all", jar, policy)).containsExactly(
                "-javaagent:/a/agent.jar=hooks=all,hooksInclude=org.rivermonitor,recordClassBytes=true");
        assertThat(Hooks.jvmFlags("policy", jar, policy)).singleElement().asString()
                .startsWith("-javaagent:/a/agent.jar=policy=/p/river-monitor.yaml").endsWith(",recordClassBytes=true");
    }

    @Test
    void theReportShowsEveryVersionThePapersNumbersAndTheGoals(@TempDir Path dir) throws Exception {
        HooksResult r = HooksAnalysis.assemble(true, Map.of("rate_per_s", 100), Map.of("cores", 2), "qosweaver bench hooks",
                runs(1.004, 1.03), List.of(new HooksResult.Memory(1, "all", 400, 100L, 300L, 520L, 20, 80000, 84000,
                        90000, 94400, 0, 10.0, 7.69, 11.0)), List.of(new HooksResult.Identity(1, "policy", 24, 23,
                        List.of("org.example.Differs"))), Map.of(), "now");
        HooksReport.write(dir, r);
        String md = Files.readString(dir.resolve("RESULTS.md"));
        assertThat(md).contains("execution", "unwoven", "202", "232", "1.2000", "3378", "org.example.Differs",
                "Goal NOT met");
        assertThat(dir.resolve("index.html")).isNotEmptyFile();
    }

    /** A goal without a verdict says whether it was not measured or measured without being resolved. */
    @Test
    void aGoalWithoutAVerdictSaysWhyItHasNone() {
        org.assertj.core.api.Assertions.assertThat(HooksAnalysis.verdict(new HooksResult.Goal("g", true, "x")))
                .isEqualTo("met");
        org.assertj.core.api.Assertions.assertThat(HooksAnalysis.verdict(new HooksResult.Goal("g", false, "x")))
                .isEqualTo("NOT MET");
        org.assertj.core.api.Assertions.assertThat(HooksAnalysis.verdict(new HooksResult.Goal("g", null,
                "not measured: no JMH file"))).isEqualTo("NOT MEASURED");
        org.assertj.core.api.Assertions.assertThat(HooksAnalysis.verdict(new HooksResult.Goal("g", null,
                "0.17 %; NOT RESOLVED: the JMH errors span the goal"))).isEqualTo("NOT RESOLVED");
    }
}
