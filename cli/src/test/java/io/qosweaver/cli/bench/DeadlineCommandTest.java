package io.qosweaver.cli.bench;

import io.qosweaver.cli.Main;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.deadline.Deadline;
import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.run.FlashCrowdParams;
import io.qosweaver.bench.run.Versions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DeadlineCommandTest {

    private static DeadlineCommand parse(String... args) {
        DeadlineCommand cmd = new DeadlineCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd;
    }

    @Test
    void defaultsAreThePapersVersionsAndWindows() {
        DeadlineCommand c = parse();
        assertThat(c.versions).isEqualTo(Versions.ALL_VERSIONS);
        assertThat(c.hours()).isEqualTo(Deadline.DEFAULT_HOURS);
        FlashCrowdParams p = c.params();
        assertThat(p.periodS()).isEqualTo(FlashCrowdParams.full().periodS());
        assertThat(p.idleS()).isZero();
        // the history covers the largest chart window
        assertThat(p.extraAppArgs()).containsExactly("--history-hours", "24");
    }

    @Test
    void quickAndExplicitOptions() {
        DeadlineCommand q = parse("--quick");
        assertThat(q.hours()).isEqualTo(Deadline.QUICK_HOURS);
        assertThat(q.params().rivers()).isEqualTo(FlashCrowdParams.quick().rivers());
        assertThat(q.params().extraAppArgs()).containsExactly("--history-hours", "3");
        DeadlineCommand c = parse("--versions", "original,qosweaver", "--hours", "12,6", "--period", "2");
        assertThat(c.versions).containsExactly("original", "qosweaver");
        assertThat(c.hours()).containsExactly(12, 6);
        assertThat(c.params().durationS()).isEqualTo(24.0);
        assertThat(c.params().extraAppArgs()).containsExactly("--history-hours", "12");
    }

    @Test
    void postgresIsAskedForByItsFlagAndItsArgumentsComeAfterTheAppsOwn() {
        assertThat(parse().database.postgres).as("H2 in the heap by default").isFalse();
        DeadlineCommand c = parse("--postgres", "--hours", "3", "--period", "0.6");
        assertThat(c.database.postgres).isTrue();
        assertThat(DatabaseOptions.on(c.params(), null)).as("no server: as they are").isEqualTo(c.params());
        assertThat(c.params().withMoreAppArgs(java.util.List.of("--jdbc-url", "jdbc:postgresql://h/river"))
                .extraAppArgs()).containsExactly("--history-hours", "3", "--jdbc-url", "jdbc:postgresql://h/river");
    }

    @Test
    void processesArePerWindowByDefaultAndPerVersionSettlesForTheWarmupUnlessToldOtherwise() {
        assertThat(Deadline.Processes.of(parse().processes)).isEqualTo(Deadline.Processes.PER_WINDOW);
        DeadlineCommand c = parse("--processes", "per-version", "--settle", "30");
        assertThat(Deadline.Processes.of(c.processes)).isEqualTo(Deadline.Processes.PER_VERSION);
        assertThat(c.settleS).isEqualTo(30.0);
    }

    @Test
    void aBadProcessesValueOrASettleWithoutPerVersionIsRefusedWithItsReason() {
        PrintStream err = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.commandLine().execute("bench", "deadline", "--processes", "per-round")).isEqualTo(2);
            assertThat(Main.commandLine().execute("bench", "deadline", "--settle", "30")).isEqualTo(2);
            assertThat(Main.commandLine().execute("bench", "deadline", "--processes", "per-version", "--settle", "-1"))
                    .isEqualTo(2);
        } finally {
            System.setErr(err);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("--processes: per-window or per-version, got 'per-round'")
                .contains("--settle needs --processes per-version and a value of 0 or more, got 30.0 with per-window")
                .contains("got -1.0 with per-version");
    }

    @Test
    void suspensionAndLowCostDefaults() {
        SuspensionCommand s = new SuspensionCommand();
        new CommandLine(s).parseArgs();
        assertThat(s.versions).containsExactly("admission", "qosweaver");
        assertThat(s.hours()).isEqualTo(12);
        assertThat(s.allowed).isEqualTo(1);
        SuspensionCommand sq = new SuspensionCommand();
        new CommandLine(sq).parseArgs("--quick");
        assertThat(sq.hours()).isEqualTo(3);
        LowCostCommand l = new LowCostCommand();
        new CommandLine(l).parseArgs();
        assertThat(l.versions).isEqualTo(Versions.ALL_VERSIONS);
        assertThat(l.hours()).isEqualTo(12);
    }

    @Test
    void anUnknownVersionIsAnErrorListingTheKnownOnes() {
        PrintStream err = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            int rc = Main.commandLine().execute("bench", "deadline", "--versions", "original,nice");
            assertThat(rc).isEqualTo(2);
            rc = Main.commandLine().execute("bench", "suspension", "--versions", "qosweaver,jetty-qos");
            assertThat(rc).isEqualTo(2);
            rc = Main.commandLine().execute("bench", "lowcost", "--versions", "original", "--repeats", "0");
            assertThat(rc).isEqualTo(2);
        } finally {
            System.setErr(err);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        assertThat(out).contains("unknown version 'nice'", "original, admission, java-priority, linux-priority, "
                + "qosweaver");
        assertThat(out).contains("version 'jetty-qos' runs without the QoSWeaver agent")
                .contains("suspension observes: admission, java-priority, linux-priority, qosweaver");
        assertThat(out).contains("--repeats must be at least 1, got 0");
    }
}
