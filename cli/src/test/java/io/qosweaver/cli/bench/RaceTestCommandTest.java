package io.qosweaver.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.racetest.RaceTestParams;
import io.qosweaver.cli.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class RaceTestCommandTest {

    private static RaceTestCommand parse(String... args) {
        RaceTestCommand cmd = new RaceTestCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd;
    }

    @Test
    void defaultsAreTheFullRunAndQuickIsShort() {
        assertThat(parse().params()).isEqualTo(RaceTestParams.full());
        assertThat(parse("--quick").params()).isEqualTo(RaceTestParams.quick());
        RaceTestParams p = parse("--quick", "--sections", "partitioning,jitter", "--duration", "8").params();
        assertThat(p.sections()).containsExactly("partitioning", "jitter");
        assertThat(p.durationS()).isEqualTo(8.0);
        assertThat(p.warmupS()).as("quick's own").isEqualTo(RaceTestParams.quick().warmupS());
        RaceTestParams w = parse("--sections", "overhead", "--warmup", "35").params();
        assertThat(w.warmupS()).isEqualTo(35.0);
        assertThat(w.durationS()).as("the full run's").isEqualTo(RaceTestParams.full().durationS());
        assertThat(w.sections()).containsExactly("overhead");
    }

    @Test
    void badSectionsAndDurationsAreRefusedNamingTheChoice() {
        assertThatThrownBy(() -> parse("--sections", "speed").params()).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("unknown section 'speed'").hasMessageContaining("overhead");
        assertThatThrownBy(() -> parse("--duration", "1").params()).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("at least 2 measured seconds");
        assertThatThrownBy(() -> parse("--warmup", "-1").params()).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("the warm-up cannot be negative");
    }

    @Test
    void policyParametersReachTheParamsAndTheHarnesssOwnAreRefused() {
        RaceTestParams p = parse("--sections", "fairness", "--policy-param", "quantum=200ms", "--policy-param",
                "minSample=2ms").params();
        assertThat(p.policyParams()).containsEntry("quantum", "200ms").containsEntry("minSample", "2ms").hasSize(2);
        assertThat(p.sections()).containsExactly("fairness");
        assertThat(parse().params().policyParams()).isEmpty();
        assertThat(parse("--policy-param", "reservedSlot=on-demand").params().policyParams())
                .containsEntry("reservedSlot", "on-demand");
        assertThatThrownBy(() -> parse("--policy-param", "cores=3").params())
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("'cores'")
                .hasMessageContaining("each run sets it");
        assertThatThrownBy(() -> parse("--policy-param", "quantum=1s\nname: x").params())
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("not a plain value");
    }

    @Test
    void benchHasRaceTest() {
        java.io.StringWriter out = new java.io.StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new java.io.PrintWriter(out, true));
        assertThat(cl.execute("bench", "racetest", "--help")).isZero();
        assertThat(out.toString()).contains("--quick").contains("--sections").contains("partitioning");
    }
}
