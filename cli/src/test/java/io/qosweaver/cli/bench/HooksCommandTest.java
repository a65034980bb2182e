package io.qosweaver.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.hooks.HooksParams;
import io.qosweaver.cli.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class HooksCommandTest {
    private static HooksCommand parse(String... args) {
        HooksCommand cmd = new HooksCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd;
    }

    @Test
    void defaultsQuickAndExplicitOptions() {
        assertThat(parse().params()).isEqualTo(HooksParams.full());
        assertThat(parse("--quick").params()).isEqualTo(HooksParams.quick());
        HooksParams p = parse("--quick", "--repeats", "3", "--window", "4", "--warmup", "1", "--rate", "50").params();
        assertThat(p.repeats()).isEqualTo(3);
        assertThat(p.windowS()).isEqualTo(4.0);
        assertThat(p.warmupS()).isEqualTo(1.0);
        assertThat(p.ratePerS()).isEqualTo(50.0);
        assertThatThrownBy(() -> parse("--rate", "0").params()).isInstanceOf(CommandLine.ParameterException.class);
    }

    @Test
    void benchHasHooks() {
        java.io.StringWriter out = new java.io.StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new java.io.PrintWriter(out, true));
        assertThat(cl.execute("bench", "hooks", "--help")).isZero();
        assertThat(out.toString()).contains("--quick").contains("--repeats").contains("--rate").contains("--report");
    }
}
