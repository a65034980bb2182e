package io.qosweaver.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.bench.mixed.MixedParams;
import io.qosweaver.bench.mixed.MixedVersions;
import io.qosweaver.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class MixedCommandTest {
    private static MixedCommand parse(String... args) {
        MixedCommand cmd = new MixedCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd;
    }

    @Test
    void defaultsAreTheFullRunOfEveryVersionWithEightHeavyClientsPerCore() {
        MixedCommand c = parse("--app", "fuseki");
        assertThat(c.params()).isEqualTo(MixedParams.full());
        assertThat(c.params().heavyClients()).isEqualTo(8 * Runtime.getRuntime().availableProcessors());
        assertThat(c.params().lightRate()).isEqualTo(20.0);
        assertThat(c.params().heavyNice()).isEqualTo(10);
        assertThat(c.versionNames(io.qosweaver.bench.mixed.MixedApp.named("fuseki")))
                .containsExactlyElementsOf(MixedVersions.ALL);
        // Tika server is on Jetty 9.4: no QoSHandler there, every other version runs
        assertThat(parse("--app", "tika").versionNames(io.qosweaver.bench.mixed.MixedApp.named("tika")))
                .containsExactly("unscheduled", "qosweaver", "qosweaver-generated", "concurrency-limits",
                        "unscheduled-end");
    }

    @Test
    void quickAndExplicitOptions() {
        assertThat(parse("--app", "fuseki", "--quick").params()).isEqualTo(MixedParams.quick());
        MixedParams p = parse("--app", "fuseki", "--quick", "--heavy-clients", "4", "--light-rate", "5", "--warmup",
                "1", "--idle", "2", "--duration", "3", "--heavy-nice", "19").params();
        assertThat(p).isEqualTo(new MixedParams(4, 5, MixedParams.quick().lightMaxInFlight(), 1, 2, 3, 19));
        assertThat(p.lightClient()).isEqualTo(io.qosweaver.bench.load.LoadSpec.Transport.SOCKET);
        assertThat(parse("--app", "fuseki", "--light-client", "jdk").params().lightClient())
                .isEqualTo(io.qosweaver.bench.load.LoadSpec.Transport.JDK);
        assertThat(p.appJvmFlags()).isEmpty();
        assertThat(p.lightFifo()).isEqualTo(MixedParams.DEFAULT_LIGHT_FIFO);
        assertThat(parse("--app", "tika", "--light-fifo", "0").params().lightFifo()).isZero();
        assertThat(parse("--app", "tika", "--light-fifo", "5").params().lightFifo()).isEqualTo(5);
        assertThat(parse("--app", "tika", "--app-jvm-flags", " -XX:+UseZGC  -Xmx3g ").params().appJvmFlags())
                .containsExactly("-XX:+UseZGC", "-Xmx3g");
        assertThat(parse("--app", "fuseki").repeat).isEqualTo(1);
        assertThat(parse("--app", "fuseki", "--repeat", "3").repeat).isEqualTo(3);
        assertThat(parse("--app", "fuseki", "--versions", "unscheduled,qosweaver").versions)
                .containsExactly("unscheduled", "qosweaver");
    }

    @Test
    void badInputIsRefusedWithWhatToChangeBeforeAnythingRuns() {
        assertThatThrownBy(() -> parse("--app", "fuseki", "--heavy-clients", "0").params())
                .hasMessageContaining("heavy clients must be at least 1");
        assertThatThrownBy(() -> parse("--app", "tika", "--light-fifo", "100").params())
                .hasMessageContaining("SCHED_FIFO priority must be 1..99 (0: none), got 100");
        assertThat(run("bench", "mixed", "--app", "jboss-petstore"))
                .isEqualTo("2 qosweaver bench mixed: unknown app 'jboss-petstore'; known: fuseki, tika");
        assertThat(run("bench", "mixed", "--app", "tika", "--versions", "unscheduled,jetty-qos")).startsWith(
                "2 qosweaver bench mixed: version 'jetty-qos' does not apply to app tika: Tika server runs on Jetty 9.4");
        assertThat(run("bench", "mixed", "--app", "fuseki", "--versions", "qosweaver,admission")).startsWith(
                "2 qosweaver bench mixed: unknown version 'admission'; known: unscheduled, qosweaver, qosweaver-generated");
        assertThat(run("bench", "mixed", "--app", "fuseki", "--heavy-nice", "-5"))
                .isEqualTo("2 qosweaver bench mixed: heavy nice must be 0..19, got -5");
        assertThat(run("bench", "mixed")).startsWith("2 Missing required option: '--app=NAME'");
        assertThat(run("bench", "mixed", "--app", "tika", "--light-client", "curl"))
                .isEqualTo("2 qosweaver bench mixed: --light-client: socket or jdk, got 'curl'");
        assertThat(run("bench", "mixed", "--app", "tika", "--app-jvm-flags", "UseZGC"))
                .isEqualTo("2 qosweaver bench mixed: an app JVM option starts with '-', got 'UseZGC'");
        assertThat(run("bench", "mixed", "--app", "tika", "--app-jvm-flags", "-javaagent:x.jar")).startsWith(
                "2 qosweaver bench mixed: app JVM options cannot add an agent (-javaagent:x.jar)");
        assertThat(run("bench", "mixed", "--app", "tika", "--repeat", "0"))
                .isEqualTo("2 qosweaver bench mixed: --repeat must be at least 1, got 0");
    }

    @Test
    void pairedRunsEveryVersionButTheUnscheduledOnesAndRefusesWhatItCannotPair() {
        MixedCommand c = parse("--app", "fuseki", "--paired", "3");
        assertThat(c.paired).isEqualTo(3);
        assertThat(c.versionNames(io.qosweaver.bench.mixed.MixedApp.named("fuseki")))
                .containsExactly("qosweaver", "qosweaver-generated", "jetty-qos", "concurrency-limits");
        assertThat(run("bench", "mixed", "--app", "fuseki", "--paired", "2", "--versions", "unscheduled,qosweaver"))
                .isEqualTo("2 qosweaver bench mixed: version 'unscheduled' does not apply to --paired: every process"
                        + " measures the unscheduled app itself, switched off");
        assertThat(run("bench", "mixed", "--app", "fuseki", "--paired", "0"))
                .isEqualTo("2 qosweaver bench mixed: --paired must be at least 1 pair, got 0");
        assertThat(run("bench", "mixed", "--app", "fuseki", "--paired", "2", "--repeat", "2"))
                .isEqualTo("2 qosweaver bench mixed: --paired runs every version once, pairing inside its process;"
                        + " it does not go with --repeat or --rewrite-report");
    }

    @Test
    void rewritingTheReportOfADirectoryWithoutRoundsRunsNothingAndSaysWhy(@org.junit.jupiter.api.io.TempDir
            java.nio.file.Path dir) {
        assertThat(run("bench", "mixed", "--app", "tika", "--rewrite-report", "--report", dir.toString()))
                .isEqualTo("2 qosweaver bench mixed: " + dir + " holds 0 round(s) (round-K/results.json from K = 1 on);"
                        + " the spread needs at least 2");
    }

    /** Exit code and stderr, as the command reports refusals. */
    private static String run(String... args) {
        java.io.PrintStream old = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            StringWriter picocliErr = new StringWriter();
            int exit = Main.commandLine().setErr(new PrintWriter(picocliErr)).execute(args);
            return exit + " " + (captured.toString(java.nio.charset.StandardCharsets.UTF_8) + picocliErr).strip();
        } finally {
            System.setErr(old);
        }
    }
}
