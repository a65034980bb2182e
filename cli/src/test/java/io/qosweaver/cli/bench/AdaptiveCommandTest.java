package io.qosweaver.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.adaptive.AdaptiveParams;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class AdaptiveCommandTest {

    private static AdaptiveCommand parse(String... args) {
        AdaptiveCommand cmd = new AdaptiveCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd;
    }

    @Test
    void defaultsScaleThePapersTargetsQuickIsSmallAndTargetsAndWindowsCanBeGiven() {
        AdaptiveCommand d = parse();
        assertThat(d.params()).isEqualTo(AdaptiveParams.full());
        assertThat(d.targets()).isNull();
        AdaptiveCommand q = parse("--quick");
        assertThat(q.params().paperTargets()).isEmpty();
        assertThat(q.params().withCollector()).isFalse();
        AdaptiveCommand c = parse("--targets", "700,900.5", "--window", "40", "--settle", "6");
        assertThat(c.targets()).containsExactly(700.0, 900.5);
        assertThat(c.params().windowS()).isEqualTo(40.0);
        assertThat(c.params().settleS()).isEqualTo(6.0);
        assertThat(parse("--low-max", "12").params().lowMax()).isEqualTo(12);
        assertThatThrownBy(() -> parse("--targets", "0").targets()).hasMessageContaining("must be positive");
    }

    @Test
    void everyRunWithoutTheCollectorSharesOneProcessUnlessPerProcessIsAsked() {
        assertThat(parse().params().oneProcess()).isTrue();
        assertThat(parse("--quick").params().oneProcess()).isTrue();
        assertThat(parse("--per-process").params().oneProcess()).isFalse();
        assertThat(parse("--per-process").params().withOneProcess(true)).isEqualTo(AdaptiveParams.full());
    }

    @Test
    void aReanalysisOfADirectoryWithoutResultsIsRefusedByName(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cl = new CommandLine(new AdaptiveCommand());
        cl.setErr(new java.io.PrintWriter(err));
        int code = cl.execute("--reanalyse", "--report", dir.toString());
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--reanalyse: no results.json in " + dir);
    }
}
