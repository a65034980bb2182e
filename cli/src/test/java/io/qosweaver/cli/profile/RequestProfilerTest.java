package io.qosweaver.cli.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.cli.CliRun;
import io.qosweaver.pointcuts.BinaryProfileFormat;
import io.qosweaver.pointcuts.BinaryProfileReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code qosweaver profile --request}: the application run twice (without the agent, then
 * profiled) with the real agent jar, on a small HTTP service of the test sources.
 */
class RequestProfilerTest {
    @TempDir
    Path dir;

    private static List<String> server(int port) throws Exception {
        Path classes = Path.of(demo.workserver.WorkServer.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:off", "-cp",
                classes.toString(), "demo.workserver.WorkServer", Integer.toString(port));
    }

    /** One GET with bash's /dev/tcp (no curl needed), successful on a 200. */
    private static String get(int port) {
        return "bash -c 'exec 3<>/dev/tcp/127.0.0.1/" + port + " && printf \"GET / HTTP/1.0\\r\\n\\r\\n\" >&3"
                + " && head -1 <&3 | grep -q \" 200 \"'";
    }

    @Test
    void theProfileOfARequestHasTheProbesWholeCostTakenOut() throws Exception {
        int port = RequestProfiler.freePort();
        Path out = dir.resolve("work.qwp");
        List<String> args = new ArrayList<>(List.of("profile", "--include", "demo.workserver", "--out", out.toString(),
                "--request", get(port), "--requests", "2", "--warm-up", "3", "--"));
        args.addAll(server(port));
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).contains("reference run without the agent")
                .containsPattern("a request took [0-9.]+ ms of the application's CPU without the agent \\(the median of 2\\)")
                .containsPattern("[0-9.]+ % of the rest is the application's own work, the other [0-9.]+ % the probe's cost")
                .containsPattern("the profile's time is [0-9.]+x the application's own \\(per request: [0-9.]+ ms in the"
                        + " profile's timelines")
                .contains("next: qosweaver pointcuts " + out);
        // the one profile left is the last recording: the warm-up and the measuring recordings are gone
        assertThat(ProfileCommand.written(out)).containsExactly(out);
        BinaryProfileReader.Summary s = BinaryProfileReader.summary(out);
        assertThat(s.joinPoints()).as("two requests of 2,000,000 iterations with two calls each")
                .isGreaterThanOrEqualTo(8_000_000);
        Map<String, String> meta = s.meta();
        double share = Double.parseDouble(meta.get(BinaryProfileFormat.WORK_SHARE));
        assertThat(share).isGreaterThan(0).isLessThanOrEqualTo(1);
        assertThat(meta.get(BinaryProfileFormat.TIME_BASE)).startsWith("real: ");
        assertThat(Long.parseLong(meta.get(BinaryProfileFormat.PROBE_REMOVED_NANOS))).isPositive();
        long shareRemoved = Long.parseLong(meta.get(BinaryProfileFormat.WORK_SHARE_REMOVED_NANOS));
        assertThat(shareRemoved).as("a share below 1 takes time out, a share of 1 none")
                .matches(n -> share < 1 ? n > 0 : n == 0);
        assertThat(dir.resolve("work.qwp.reference.log")).exists();
        assertThat(Files.readString(dir.resolve("work.qwp.profiled.log"))).contains("profiling paused");
    }

    @Test
    void aRequestThatNeverSucceedsIsNamedWithTheApplicationsOutput() throws Exception {
        int port = RequestProfiler.freePort();
        Path out = dir.resolve("never.qwp");
        List<String> args = new ArrayList<>(List.of("profile", "--include", "demo.workserver", "--out", out.toString(),
                "--request", "exit 3", "--ready-timeout", "2", "--"));
        args.addAll(server(port));
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).contains("the request command did not succeed within 2 s (last exit status 3): exit 3;"
                + " the application's output: " + dir.resolve("never.qwp.reference.log"));
        assertThat(ProfileCommand.written(out)).isEmpty();
    }

    @Test
    void requestCannotBeCombinedWithRawTimes() {
        CliRun r = CliRun.of("profile", "--include", "demo.workserver", "--out", dir.resolve("x.qwp").toString(), "--request",
                "true", "--probe-cost", "none", "--", "java", "-version");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("cannot be combined with --probe-cost none");
        CliRun blank = CliRun.of("profile", "--include", "demo.workserver", "--out", dir.resolve("x.qwp").toString(), "--request",
                " ", "--", "java", "-version");
        assertThat(blank.exit()).isEqualTo(2);
        assertThat(blank.err()).contains("--request needs a shell command");
        CliRun zero = CliRun.of("profile", "--include", "demo.workserver", "--out", dir.resolve("x.qwp").toString(), "--request",
                "true", "--requests", "0", "--", "java", "-version");
        assertThat(zero.exit()).isEqualTo(2);
        assertThat(zero.err()).contains("--requests must be at least 1");
    }

    /** The application threads' CPU leaves out the JVM's own threads and the agent's. */
    @Test
    void theJvmsOwnThreadsAreNotTheApplications() throws Exception {
        for (String name : List.of("C2 CompilerThre", "C1 CompilerThre", "GC Thread#0", "G1 Refine#0", "VM Thread",
                "VM Periodic Tas", "qosweaver-profi", "qosweaver-metri")) {
            assertThat(AppThreadsCpu.NOT_APPLICATION.matcher(name).matches()).as(name).isTrue();
        }
        for (String name : List.of("java", "main", "pool-1-thread-1", "qtp1234-17", "http-nio-8080-e", "Finalizer")) {
            assertThat(AppThreadsCpu.NOT_APPLICATION.matcher(name).matches()).as(name).isFalse();
        }
        Map<Integer, Long> self = AppThreadsCpu.read(ProcessHandle.current().pid());
        assertThat(self).isNotEmpty();
        assertThat(AppThreadsCpu.between(Map.of(1, 10L, 2, 50L), Map.of(1, 30L, 2, 40L, 3, 5L)))
                .as("20 more on 1; 2 is a new thread with a reused id: 40; 3 is new: 5").isEqualTo(65);
    }

    @Test
    void theWorkShareIsWhatTheEstimateLeftThatWasTheApplications() {
        // 100 ms without the agent, 500 ms profiled, 380 ms taken out by the estimate: 100 of the 120 left
        assertThat(RequestProfiler.Result.workSharePpm(100_000_000, 500_000_000, 380_000_000)).isEqualTo(833_333);
        assertThat(RequestProfiler.Result.workSharePpm(100_000_000, 450_000_000, 380_000_000))
                .as("the estimate took out too much already: keep everything").isEqualTo(1_000_000);
        assertThat(RequestProfiler.Result.workSharePpm(0, 500, 0)).as("at least 1 ppm").isEqualTo(1);
        assertThat(RequestProfiler.median(new long[] {5, 1, 900})).isEqualTo(5);
        assertThat(RequestProfiler.median(new long[] {4, 2})).isEqualTo(3);
        var r = new RequestProfiler.Result(100, 500, 300, 10, 0.5, 150);
        assertThat(r.stretch()).isEqualTo(1.5);
    }
}
