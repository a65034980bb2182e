package io.qosweaver.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.swap.SwapParams;
import io.qosweaver.cli.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SwapCommandTest {

    private static SwapCommand parse(String... args) {
        SwapCommand cmd = new SwapCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd;
    }

    @Test
    void defaultsAreTheIssuesRunAChangeEveryTenSecondsForThreeMinutes() {
        SwapParams p = parse().params();
        assertThat(p.intervalS()).isEqualTo(10.0);
        assertThat(p.durationS()).isEqualTo(180.0);
        assertThat(p.steps()).isEqualTo(17);
        assertThat(p.periodS()).isEqualTo(FlashCrowdParams.full().periodS());
        assertThat(p.rivers()).isEqualTo(FlashCrowdParams.full().rivers());
        assertThat(p.chartHours()).isEqualTo(12);
        assertThat(p.extraAppArgs()).containsExactly("--history-hours", "12");
    }

    @Test
    void quickAndExplicitOptions() {
        SwapParams q = parse("--quick").params();
        assertThat(q.intervalS()).isEqualTo(3.0);
        assertThat(q.durationS()).isEqualTo(30.0);
        assertThat(q.rivers()).isEqualTo(FlashCrowdParams.quick().rivers());
        assertThat(q.extraAppArgs()).containsExactly("--history-hours", "3");
        SwapParams c = parse("--quick", "--interval", "2", "--duration", "11", "--hours", "6", "--clients", "8")
                .params();
        assertThat(c.intervalS()).isEqualTo(2.0);
        assertThat(c.durationS()).isEqualTo(11.0);
        assertThat(c.steps()).isEqualTo(5);
        assertThat(c.chartClients()).isEqualTo(8);
        assertThat(c.extraAppArgs()).containsExactly("--history-hours", "6");
    }

    @Test
    void jvmArgsAreRefusedRatherThanDropped() {
        assertThatThrownBy(() -> parse("--jvm-arg=-Xmx12g").params())
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--jvm-arg is not supported by bench swap");
    }

    @Test
    void aDurationShorterThanAnIntervalIsRefused() {
        assertThatThrownBy(() -> parse("--interval", "10", "--duration", "5").params())
                .isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("the duration at least one interval");
    }

    @Test
    void benchHasSwapWithItsOptions() {
        java.io.StringWriter out = new java.io.StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new java.io.PrintWriter(out, true));
        assertThat(cl.execute("bench", "swap", "--help")).isZero();
        assertThat(out.toString()).contains("--interval").contains("--duration").contains("--quick")
                .contains("--report");
    }
}
