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
}
