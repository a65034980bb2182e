package io.qosweaver.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.flashcrowd.FlashCrowd;
import io.qosweaver.bench.run.FlashCrowdParams;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class FlashCrowdOptionsTest {

    private static FlashCrowdParams parse(String... args) {
        BenchCommand.FlashCrowdCommand cmd = new BenchCommand.FlashCrowdCommand();
        new CommandLine(cmd).parseArgs(args);
        return cmd.options.params();
    }

    @Test
    void defaultsAreTheCalibratedFullRun() {
        assertThat(parse()).isEqualTo(FlashCrowdParams.full());
        assertThat(parse("--quick")).isEqualTo(FlashCrowdParams.quick());
    }

    @Test
    void aNewPeriodScalesTheWindows() {
        FlashCrowdParams p = parse("--period", "2", "--rivers", "7", "--clients", "10");
        assertThat(p.periodS()).isEqualTo(2.0);
        assertThat(p.rivers()).isEqualTo(7);
        assertThat(p.chartClients()).isEqualTo(10);
        assertThat(p.durationS()).isEqualTo(24.0);
        assertThat(p.idleS()).isEqualTo(8.0);
        assertThat(parse("--period", "2", "--duration", "5").durationS()).isEqualTo(5.0);
    }

    /** --jvm-arg reaches every version's app JVM before the version's own flags, and is recorded. */
    @Test
    void jvmArgsGoFirstToEveryAppAndIntoTheParameters() {
        FlashCrowdParams p = parse("--jvm-arg=-Xmx12g", "--jvm-arg", "-XX:+UseG1GC");
        assertThat(p.appJvmArgs()).containsExactly("-Xmx12g", "-XX:+UseG1GC");
        assertThat(p.jvm(java.util.List.of("-javaagent:a.jar"))).containsExactly("-Xmx12g", "-XX:+UseG1GC",
                "-javaagent:a.jar");
        assertThat(p.config("v", java.util.List.of("-Dx=1"), java.nio.file.Path.of("rm.jar"),
                java.nio.file.Path.of("log")).jvmArgs()).containsExactly("-Xmx12g", "-XX:+UseG1GC", "-Dx=1");
        assertThat(p.withIdle(0).appJvmArgs()).containsExactly("-Xmx12g", "-XX:+UseG1GC");
        assertThat(p.withIdle(0).idleS()).isZero();
        assertThat(p.asMap()).containsEntry("app_jvm_args", java.util.List.of("-Xmx12g", "-XX:+UseG1GC"));
        assertThat(parse().appJvmArgs()).isEmpty();
    }
}
