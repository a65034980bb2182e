package io.qosweaver.cli.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.qosweaver.cli.Main;
import io.qosweaver.trace.TraceOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceCommandTest {
    @TempDir
    Path dir;

    @Test
    void putsTheTracingAgentRightAfterJavaWithTheOptionsAndThePolicy() throws Exception {
        Path agent = Files.write(dir.resolve("qosweaver-agent.jar"), new byte[] {1});
        Path policy = Files.writeString(dir.resolve("p.yaml"), "x");
        TraceOptions o = TraceCommand.options(dir.resolve("run.pftrace"), "30s", "os+jvm", 50, null, true);
        List<String> cmd = TraceCommand.rewrite(List.of("java", "-Xmx1g", "-jar", "app.jar"), agent, o, policy);
        assertThat(cmd).hasSize(5);
        assertThat(cmd.get(1)).isEqualTo("-javaagent:" + agent.toAbsolutePath() + "=trace=" + dir.resolve("run.pftrace")
                + ",traceDuration=30000ms,traceLevels=os+jvm,traceOsHz=50,policy=" + policy.toAbsolutePath());
        assertThat(cmd.subList(2, 5)).containsExactly("-Xmx1g", "-jar", "app.jar");
        assertThat(TraceCommand.rewrite(List.of("java", "-version"), agent, o, null).get(1)).doesNotContain("policy=")
                .doesNotContain("traceOs=");
        TraceOptions tracefs = TraceCommand.options(dir.resolve("run.pftrace"), null, null, null, null, true, "tracefs");
        assertThat(TraceCommand.rewrite(List.of("java", "-version"), agent, tracefs, null).get(1)).endsWith(",traceOs=tracefs");
    }

    @Test
    void refusesBadOptionsBeforeAnyJvmStarts() {
        assertThatThrownBy(() -> TraceCommand.options(dir.resolve("r.pftrace"), "thirty", null, null, null, true))
                .hasMessageContaining("traceDuration=thirty is not a duration");
        assertThatThrownBy(() -> TraceCommand.options(dir.resolve("r.pftrace"), null, "os+disk", null, null, true))
                .hasMessageContaining("unknown level 'disk'");
        assertThatThrownBy(() -> TraceCommand.options(dir.resolve("r.pftrace"), null, null, null, null, true, "ebpf"))
                .hasMessageContaining("traceOs=ebpf must be auto, tracefs or proc");
        PrintStream err = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true));
        try {
            assertThat(Main.commandLine().execute("trace", "--duration", "5 minutes", "--", "java", "-version")).isEqualTo(2);
            assertThat(buf.toString()).contains("qosweaver trace: traceDuration=5 minutes is not a duration");
            buf.reset();
            assertThat(Main.commandLine().execute("trace", "--agent", dir.resolve("none.jar").toString(), "--", "java",
                    "-version")).isEqualTo(2);
            assertThat(buf.toString()).contains("agent jar not found");
            buf.reset();
            assertThat(Main.commandLine().execute("trace", "4242")).isEqualTo(2);
            assertThat(buf.toString()).contains("needs --duration");
        } finally {
            System.setErr(err);
        }
    }
}
