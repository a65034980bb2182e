package io.qosweaver.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.deadlock.Deadlock;
import io.qosweaver.bench.deadlock.DeadlockVersions;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DeadlockCommandTest {

    private static DeadlockCommand parse(String... args) {
        DeadlockCommand cmd = new DeadlockCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd;
    }

    @Test
    void defaultsAreEveryVersionOneTwelveHourWindowAndThreePeriods() {
        DeadlockCommand c = parse();
        assertThat(c.versions).isEqualTo(DeadlockVersions.DEFAULT);
        assertThat(c.hours()).isEqualTo(Deadlock.DEFAULT_HOURS);
        assertThat(c.deadlockPeriods).isEqualTo(3);
        FlashCrowdParams p = c.params();
        assertThat(p.periodS()).isEqualTo(FlashCrowdParams.full().periodS());
        assertThat(p.idleS()).isZero();
        assertThat(p.extraAppArgs()).containsExactly("--history-hours", "12");
    }

    @Test
    void quickAndExplicitOptions() {
        DeadlockCommand q = parse("--quick");
        assertThat(q.hours()).isEqualTo(Deadlock.QUICK_HOURS);
        assertThat(q.params().rivers()).isEqualTo(FlashCrowdParams.quick().rivers());
        assertThat(q.params().extraAppArgs()).containsExactly("--history-hours", "3");
        DeadlockCommand c = parse("--versions", "importance,deadlock-aware", "--hours", "6", "--deadlock-periods", "5",
                "--period", "2");
        assertThat(c.versions).containsExactly("importance", "deadlock-aware");
        assertThat(c.hours()).isEqualTo(6);
        assertThat(c.deadlockPeriods).isEqualTo(5);
        assertThat(c.params().durationS()).isEqualTo(24.0);
    }

    @Test
    void anUnknownVersionOrABadLimitIsAnError() {
        PrintStream err = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.commandLine().execute("bench", "deadlock", "--versions", "importance,qosweaver")).isEqualTo(2);
            assertThat(Main.commandLine().execute("bench", "deadlock", "--deadlock-periods", "0")).isEqualTo(2);
        } finally {
            System.setErr(err);
        }
        assertThat(buf.toString(StandardCharsets.UTF_8)).contains("unknown version 'qosweaver'")
                .contains("importance-no-log").contains("--deadlock-periods must be at least 1");
    }
}
