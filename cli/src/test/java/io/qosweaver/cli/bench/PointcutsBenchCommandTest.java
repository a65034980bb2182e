package io.qosweaver.cli.bench;

import io.qosweaver.cli.Main;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.pointcuts.Pointcuts;
import io.qosweaver.bench.run.FlashCrowdParams;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class PointcutsBenchCommandTest {
    private static PointcutsBenchCommand parse(String... args) {
        PointcutsBenchCommand cmd = new PointcutsBenchCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd;
    }

    @Test
    void defaultsAreTheFullRunWithEveryParameterSet() {
        PointcutsBenchCommand c = parse();
        Pointcuts.Params p = c.params();
        assertThat(p).isEqualTo(Pointcuts.Params.full());
        assertThat(p.intervalClients()).containsExactly(1, 10, 20, 40);
        assertThat(p.flash()).isNotNull();
        assertThat(c.sets(p.profiledCharts())).extracting(Pointcuts.ParamSet::name)
                .contains("t10ms-m1", "t100ms-m200", "t10ms-m3000", "t10ms-m1-cover", "random15", "all", "handwritten")
                .hasSize(13);
    }

    @Test
    void quickAndExplicitOptions() {
        assertThat(parse("--quick").params()).isEqualTo(Pointcuts.Params.quick());
        PointcutsBenchCommand c = parse("--sets", "t10ms-m1,random5", "--charts", "2", "--clients", "1,4",
                "--overhead-window", "7", "--interval-window", "3", "--no-collection");
        Pointcuts.Params p = c.params();
        assertThat(p.profiledCharts()).isEqualTo(2);
        assertThat(p.intervalClients()).containsExactly(1, 4);
        assertThat(p.overheadWindowS()).isEqualTo(7.0);
        assertThat(p.intervalWindowS()).isEqualTo(3.0);
        assertThat(p.flash()).isNull();
        assertThat(c.sets(2)).extracting(Pointcuts.ParamSet::name).containsExactly("t10ms-m1", "random5");
        assertThat(parse().sets(2)).extracting(Pointcuts.ParamSet::name).contains("t10ms-m6000");
        assertThat(p.profileSlowdown()).as("none given: the profile's own time base").isNull();
        assertThat(parse("--profile-slowdown", "19.5").params().profileSlowdown()).isEqualTo(19.5);
    }

    @Test
    void badInputIsRefusedWithWhatToChange() {
        assertThatThrownBy(() -> parse("--charts", "0").params()).hasMessageContaining("--charts");
        assertThatThrownBy(() -> parse("--clients", "0").params()).hasMessageContaining("--clients");
        assertThatThrownBy(() -> parse("--profile-slowdown", "0").params()).hasMessageContaining("--profile-slowdown");
        assertThatThrownBy(() -> parse("--sets", "t10ms-m1,t10ms-m1").sets(1)).hasMessageContaining("named twice");
        assertThat(run("bench", "pointcuts", "--sets", "bogus")).isEqualTo("2 qosweaver bench pointcuts: unknown "
                + "parameter set 'bogus'; use t<ms>ms-m<m> (e.g. t10ms-m50), t<ms>ms-m<m>-cover (with the coverage pass), a -cap suffix on either (lowCap: 1x), random<k>, all or handwritten");
        assertThat(run("bench", "pointcuts", "--profile", "/nonexistent/chart.qwp"))
                .isEqualTo("2 qosweaver bench pointcuts: profile not found: /nonexistent/chart.qwp");
    }

    /** Exit code and stderr (the command reports these refusals on System.err), before anything runs. */
    private static String run(String... args) {
        java.io.PrintStream old = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            int exit = Main.commandLine().setErr(new PrintWriter(new StringWriter())).execute(args);
            return exit + " " + captured.toString(java.nio.charset.StandardCharsets.UTF_8).strip();
        } finally {
            System.setErr(old);
        }
    }
}
