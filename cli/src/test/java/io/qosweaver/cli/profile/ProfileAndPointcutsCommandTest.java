package io.qosweaver.cli.profile;

import io.qosweaver.cli.CliRun;
import io.qosweaver.cli.pointcuts.PointcutsCommand;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileAndPointcutsCommandTest {
    @TempDir
    Path dir;

    /** The paper's Fig. 4 (a): f1..f6 in five 10 ms slots; m = 3 selects exactly f2 and f4. */
    private static final String FIG4 = String.join("\n",
            "# QoSWeaver paper, Fig. 4 (a)",
            "0        void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f1()",
            "3000000  void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f2()",
            "6000000  void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f3()",
            "10000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f4()",
            "13000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f5()",
            "16000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f3()",
            "20000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f4()",
            "23000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f5()",
            "30000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f2()",
            "33000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f5()",
            "40000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f6()",
            "43000000 void demo.Fig4.main(java.lang.String[]) void demo.Fig4.f2()", "");

    @Test
    void theSummarySaysWhetherTheProfileRecordsRequestSpans() throws Exception {
        Path with = dir.resolve("with.qwp");
        Path without = dir.resolve("without.qwp");
        for (Path f : List.of(with, without)) {
            try (io.qosweaver.pointcuts.SlotProfileWriter w = io.qosweaver.pointcuts.SlotProfileWriter.open(f,
                    io.qosweaver.pointcuts.ProfileWriter.Limits.DEFAULT, 1000, 0)) {
                w.joinPoint(0, 1, "void a.A.run()", "void a.A.f()");
                if (f == with) {
                    w.meta(io.qosweaver.pointcuts.BinaryProfileFormat.REQUEST_SPANS, "1 requests");
                    w.span(1, 0, 0);
                }
            }
        }
        assertThat(ProfileCommand.summary(with)).contains("; request spans: 1 requests");
        assertThat(ProfileCommand.summary(without)).contains("; no request spans (no supported server's request entry ran)");
    }

    @Test
    void pointcutsCommandWritesThePapersFig4Result() throws Exception {
        Path profile = Files.writeString(dir.resolve("fig4.txt"), FIG4);
        Path out = dir.resolve("cp.yaml");
        CliRun r = CliRun.of("pointcuts", profile.toString(), "--interval", "10ms", "--max-occurrence", "3", "--out", out.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        String yaml = Files.readString(out);
        assertThat(yaml).contains("controlPoints:")
                .contains("call(void demo.Fig4.f2()) && withincode(void demo.Fig4.main(java.lang.String[]))")
                .contains("call(void demo.Fig4.f4()) && withincode(void demo.Fig4.main(java.lang.String[]))");
        assertThat(yaml).doesNotContain("f1()").doesNotContain("f3()").doesNotContain("f5()").doesNotContain("f6()");
    }

    @Test
    void pointcutsCommandWritesIntoAPolicyFileKeepingItsOtherSections() throws Exception {
        Path profile = Files.writeString(dir.resolve("fig4.txt"), FIG4);
        String before = """
                # my policy
                taskClasses:
                  - name: main
                    entry: execution(void demo.Fig4.main(..))   # the whole program
                    importance: low
                # hand-written, to be replaced
                controlPoints:
                  - call(void demo.Fig4.f1()) && withincode(void demo.Fig4.main(..))

                policy:
                  name: importance
                """;
        Path policy = Files.writeString(dir.resolve("policy.yaml"), before);
        CliRun r = CliRun.of("pointcuts", profile.toString(), "--max-occurrence", "3", "--into", policy.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("wrote 2 control points into " + policy + " (its other sections kept)");
        String after = Files.readString(policy);
        assertThat(after).startsWith("# my policy\ntaskClasses:\n  - name: main\n")
                .contains("entry: execution(void demo.Fig4.main(..))   # the whole program")
                .contains("call(void demo.Fig4.f2()) && withincode(void demo.Fig4.main(java.lang.String[]))")
                .doesNotContain("hand-written").doesNotContain("f1()")
                .endsWith("\npolicy:\n  name: importance\n");

        Path broken = Files.writeString(dir.resolve("broken.yaml"), "taskClasses: [\n");
        CliRun bad = CliRun.of("pointcuts", profile.toString(), "--max-occurrence", "3", "--into", broken.toString());
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.err()).contains("the policy file was left unchanged: " + broken + ":");
        assertThat(Files.readString(broken)).isEqualTo("taskClasses: [\n");
        assertThat(CliRun.of("pointcuts", profile.toString(), "--into", policy.toString(), "--out", "x.yaml").exit())
                .isEqualTo(2);
    }

    @Test
    void pointcutsCommandGeneratesProgressPointsIntoTheirOwnSection() throws Exception {
        Path profile = Files.writeString(dir.resolve("fig4.txt"), FIG4);
        Path policy = Files.writeString(dir.resolve("policy.yaml"), """
                taskClasses:
                  - name: main
                    entry: execution(void demo.Fig4.main(..))
                    importance: high
                controlPoints:
                  - call(void demo.Fig4.f1()) && withincode(void demo.Fig4.main(..))
                policy:
                  name: deadlock-aware
                """);
        CliRun r = CliRun.of("pointcuts", profile.toString(), "--max-occurrence", "3", "--section", "progressPoints",
                "--into", policy.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("wrote 2 progress points into " + policy);
        String after = Files.readString(policy);
        assertThat(after).contains("controlPoints:\n  - call(void demo.Fig4.f1())")
                .contains("\nprogressPoints:\n")
                .contains("  - \"call(void demo.Fig4.f2()) && withincode(void demo.Fig4.main(java.lang.String[]))\"")
                .contains("  - \"call(void demo.Fig4.f4()) && withincode(void demo.Fig4.main(java.lang.String[]))\"");
        Path out = dir.resolve("pp.yaml");
        assertThat(CliRun.of("pointcuts", profile.toString(), "--max-occurrence", "3", "--section", "progressPoints",
                "--out", out.toString()).exit()).isZero();
        assertThat(Files.readString(out)).contains("progressPoints:").doesNotContain("controlPoints");
        CliRun bad = CliRun.of("pointcuts", profile.toString(), "--section", "progress");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("--section must be controlPoints or progressPoints, not 'progress'");
    }

    @Test
    void pointcutsCommandTakesTheProfileSlowdown() throws Exception {
        Path profile = Files.writeString(dir.resolve("fig4.txt"), FIG4);
        // Fig. 4's 10 ms slots, asked for as 1 ms of real time on a profile 10 times slower than real time
        CliRun r = CliRun.of("pointcuts", profile.toString(), "--interval", "1ms", "--max-occurrence", "3",
                "--profile-slowdown", "10", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"profile_slowdown\": 10.0").contains("\"slots\": 5")
                .contains("\"predicted_interval_mean_ms\": 1.0");
        assertThat(r.err()).contains("slots of 10.000 ms of profile time").contains("call(void demo.Fig4.f2())")
                .contains("call(void demo.Fig4.f4())");
        assertThat(CliRun.of("pointcuts", profile.toString(), "--profile-slowdown", "0").err())
                .contains("qosweaver pointcuts: the profile slowdown must be a positive number");
    }

    @Test
    void pointcutsCommandNamesTheBadLineOfAProfile() throws Exception {
        Path profile = Files.writeString(dir.resolve("bad.txt"), FIG4 + "oops not a join point\n");
        CliRun r = CliRun.of("pointcuts", profile.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("qosweaver pointcuts:").contains("bad.txt:14");
    }

    @Test
    void pointcutsCommandRejectsBadParameters() throws Exception {
        Path profile = Files.writeString(dir.resolve("fig4.txt"), FIG4);
        assertThat(CliRun.of("pointcuts", profile.toString(), "--max-occurrence", "0").err()).contains("at least 1");
        assertThat(CliRun.of("pointcuts", profile.toString(), "--interval", "soon").err()).contains("not a duration: 'soon'");
        assertThat(CliRun.of("pointcuts", dir.resolve("missing.qwp").toString()).err()).contains("profile not found");
    }

    @Test
    void durations() {
        PointcutsCommand.DurationConverter c = new PointcutsCommand.DurationConverter();
        assertThat(c.convert("10ms")).isEqualTo(Duration.ofMillis(10));
        assertThat(c.convert("500us")).isEqualTo(Duration.ofNanos(500_000));
        assertThat(c.convert("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(c.convert("250")).isEqualTo(Duration.ofNanos(250));
        assertThatThrownBy(() -> c.convert("0ms")).hasMessageContaining("positive");
    }

    @Test
    void profileCommandInsertsTheProfilingAgent() throws Exception {
        Path agent = Files.write(dir.resolve("qosweaver-agent.jar"), new byte[] {1});
        Path out = dir.resolve("p.qwp");
        List<String> cmd = ProfileCommand.rewrite(List.of("java", "-jar", "app.jar"), agent, out,
                List.of("org.jfree", "com.example"), List.of("start=paused", "metricsPort=0"));
        assertThat(cmd).containsExactly("java", "-javaagent:" + agent.toAbsolutePath() + "=profile=" + out.toAbsolutePath()
                + ",include=org.jfree+com.example,start=paused,metricsPort=0", "-jar", "app.jar");
        assertThatThrownBy(() -> ProfileCommand.rewrite(List.of("node", "x.js"), agent, out, List.of("a"), List.of()))
                .hasMessageContaining("not a java command");
        assertThatThrownBy(() -> ProfileCommand.rewrite(List.of("java"), dir.resolve("none.jar"), out, List.of("a"), List.of()))
                .hasMessageContaining("agent jar not found");
    }

    @Test
    void profileCommandPassesTheFormatSlotAndProbeCostToTheAgent() {
        ProfileCommand c = new ProfileCommand();
        new picocli.CommandLine(c).parseArgs("--include", "org.jfree", "--out", "p.qwp", "--format", "slots", "--slot",
                "10ms", "--probe-cost", "40ns", "--", "java", "-jar", "app.jar");
        assertThat(c.options()).containsExactly("format=slots", "slot=10ms", "probeCost=40ns");
        ProfileCommand plain = new ProfileCommand();
        new picocli.CommandLine(plain).parseArgs("--include", "org.jfree", "--out", "p.qwp", "--", "java", "-jar", "a.jar");
        assertThat(plain.options()).as("the agent's defaults: slot summaries of 1 ms, the probe's cost measured").isEmpty();
    }

    /**
     * Fig. 4 with m = 1 leaves slots 1 to 3 without a control point; --cover-all covers them all,
     * after Fig. 3's f1 and f6.
     */
    @Test
    void pointcutsCommandCoversEverySlotWhenAsked() throws Exception {
        Path profile = Files.writeString(dir.resolve("fig4.txt"), FIG4);
        CliRun plain = CliRun.of("pointcuts", profile.toString(), "--interval", "10ms", "--max-occurrence", "1", "--json");
        assertThat(plain.exit()).as(plain.err()).isZero();
        assertThat(plain.out()).contains("\"uncovered_slots\": 3").contains("\"coverage_pointcuts\": null");
        CliRun r = CliRun.of("pointcuts", profile.toString(), "--interval", "10ms", "--max-occurrence", "1", "--cover-all", "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("\"uncovered_slots\": 0");
        assertThat(r.err()).contains("coverage pass").contains("pointcuts added to cover every slot with a join point");
    }

    /** Each start of a recording writes a new file: OUT, OUT-2, OUT-3, ...; all are summarized. */
    @Test
    void theNumberedProfilesOfSeveralRecordingsAreFound() throws Exception {
        Path out = dir.resolve("chart.qwp");
        assertThat(ProfileCommand.written(out)).isEmpty();
        for (String f : List.of("chart-10.qwp", "chart-2.qwp", "chart-x.qwp", "chart-1.qwp", "other-3.qwp", "chart-3.txt")) {
            Files.writeString(dir.resolve(f), "");
        }
        assertThat(ProfileCommand.written(out)).containsExactly(dir.resolve("chart-2.qwp"), dir.resolve("chart-10.qwp"));
        Files.writeString(out, "");
        assertThat(ProfileCommand.written(out)).containsExactly(out, dir.resolve("chart-2.qwp"), dir.resolve("chart-10.qwp"));
    }

    @Test
    void pointcutsSearchTheJdksOwnClassesAfterTheClassPath() {
        List<Path> cp = PointcutsCommand.withJdk(List.of(Path.of("app.jar")));
        assertThat(cp.get(0)).isEqualTo(Path.of("app.jar"));
        assertThat(cp.stream().map(Path::toString)).contains("/modules/java.base", "/modules/java.desktop");
        assertThat(cp.stream().filter(p -> p.toString().equals("/modules/java.desktop")).findFirst().orElseThrow()
                .resolve("sun/java2d/marlin/Renderer.class")).isRegularFile();
    }
}
