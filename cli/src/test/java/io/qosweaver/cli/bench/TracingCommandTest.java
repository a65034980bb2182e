package io.qosweaver.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.tracing.TracingParams;
import io.qosweaver.cli.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class TracingCommandTest {
    private static TracingCommand parse(String... args) {
        TracingCommand cmd = new TracingCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd;
    }

    @Test
    void defaultsQuickAndExplicitOptions() {
        assertThat(parse().params()).isEqualTo(TracingParams.full());
        assertThat(parse("--quick").params()).isEqualTo(TracingParams.quick());
        TracingParams p = parse("--quick", "--repeats", "1", "--window", "3", "--configs", "off,all", "--os-hz", "50")
                .params();
        assertThat(p.repeats()).isEqualTo(1);
        assertThat(p.windowS()).isEqualTo(3.0);
        assertThat(p.configs()).containsExactly("off", "all");
        assertThat(p.osHz()).isEqualTo(50);
    }

    @Test
    void theBaselineComesFirstAndConfigurationsAreKnown() {
        assertThatThrownBy(() -> parse("--configs", "all,off").params()).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("must start with 'off'");
        assertThatThrownBy(() -> parse("--configs", "off,disk").params()).hasMessageContaining("unknown configuration");
    }

    @Test
    void benchHasTracing() {
        java.io.StringWriter out = new java.io.StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new java.io.PrintWriter(out, true));
        assertThat(cl.execute("bench", "tracing", "--help")).isZero();
        assertThat(out.toString()).contains("--quick").contains("--repeats").contains("--configs").contains("--report");
    }
}
