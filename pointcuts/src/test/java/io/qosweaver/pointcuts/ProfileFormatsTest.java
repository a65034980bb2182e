package io.qosweaver.pointcuts;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileFormatsTest {
    @TempDir
    Path dir;

    private static List<JoinPoint> readText(String text) throws Exception {
        List<JoinPoint> out = new ArrayList<>();
        TextProfileReader.read("p.txt", new StringReader(text), (t, th, a, b) -> out.add(new JoinPoint(t, th, a, b)));
        return out;
    }

    @Test
    void textLinesSignaturesWithSpacesThreadsCommentsAndCanonicalForm() throws Exception {
        List<JoinPoint> jps = readText("""
                # a comment

                  12   org.jfree.data.Range   org.jfree.data.Range.combine( org.jfree.data.Range ,org.jfree.data.Range )  void a.b.Outer$Inner.run(int[], java.lang.String[][])
                13 @42 void a.B.<init>() int a.B.f()
                """);
        assertThat(jps).containsExactly(
                new JoinPoint(12, 1, "org.jfree.data.Range org.jfree.data.Range.combine(org.jfree.data.Range, org.jfree.data.Range)",
                        "void a.b.Outer$Inner.run(int[], java.lang.String[][])"),
                new JoinPoint(13, 42, "void a.B.<init>()", "int a.B.f()"));
        assertThat(TextProfileReader.line(jps.get(1))).isEqualTo("13 @42 void a.B.<init>() int a.B.f()");
    }

    @Test
    void malformedTextLinesNameTheirLineNumber() {
        String ok = "1 void a.A.m() void a.A.n()\n";
        assertThatThrownBy(() -> readText(ok + "# c\nx void a.A.m() void a.A.n()\n"))
                .isInstanceOf(ProfileFormatException.class).hasMessageStartingWith("p.txt:3: ").hasMessageContaining("time stamp");
        assertThatThrownBy(() -> readText(ok + "2 void a.A.m()\n"))
                .hasMessageStartingWith("p.txt:2: ").hasMessageContaining("missing callee");
        assertThatThrownBy(() -> readText("2 void m() void a.A.n()\n"))
                .hasMessageStartingWith("p.txt:1: ").hasMessageContaining("bad caller");
        assertThatThrownBy(() -> readText("2 void a.A.m() void a.A.n() extra\n"))
                .hasMessageStartingWith("p.txt:1: ").hasMessageContaining("after the callee");
        assertThatThrownBy(() -> readText("2 @x void a.A.m() void a.A.n()\n"))
                .hasMessageStartingWith("p.txt:1: ").hasMessageContaining("thread id");
        assertThatThrownBy(() -> readText("2 a.A.m() void a.A.n()\n"))
                .hasMessageStartingWith("p.txt:1: ").hasMessageContaining("return type");
    }

    private List<JoinPoint> randomJoinPoints(int n, long seed) {
        Random rnd = new Random(seed);
        List<JoinPoint> jps = new ArrayList<>();
        long[] now = new long[4];
        for (int i = 0; i < n; i++) {
            int th = rnd.nextInt(4);
            now[th] += rnd.nextInt(3) == 0 ? -rnd.nextInt(50) : rnd.nextInt(1_000_000);
            jps.add(new JoinPoint(now[th] + ((long) th << 40), th == 3 ? -5 : th * 1000L,
                    "void p.C" + rnd.nextInt(5) + ".m()", "int[] p.D.f" + rnd.nextInt(30) + "(java.lang.String)"));
        }
        return jps;
    }

    @Test
    void binaryRoundTrip() throws Exception {
        List<JoinPoint> jps = randomJoinPoints(5000, 7);
        Path f = dir.resolve("p.qwp");
        try (BinaryProfileWriter w = BinaryProfileWriter.open(f)) {
            w.meta("include", "p");
            for (JoinPoint jp : jps) {
                w.joinPoint(jp.timeNanos(), jp.threadId(), jp.caller(), jp.callee());
            }
        }
        List<JoinPoint> back = new ArrayList<>();
        BinaryProfileReader.Summary s = BinaryProfileReader.read(f, (t, th, a, b) -> back.add(new JoinPoint(t, th, a, b)));
        assertThat(back).isEqualTo(jps);
        assertThat(s.joinPoints()).isEqualTo(5000);
        assertThat(s.threads()).isEqualTo(4);
        assertThat(s.meta()).containsEntry("include", "p");
        assertThat(Files.size(f)).isLessThan(5000L * 8);

        // The same join points through the text format give the same merged profile.
        Path t = dir.resolve("p.txt");
        List<String> lines = new ArrayList<>();
        for (JoinPoint jp : jps) {
            lines.add(TextProfileReader.line(jp));
        }
        Files.write(t, lines);
        Profile fromBinary = Profile.read(List.of(f));
        Profile fromText = Profile.read(List.of(t));
        assertThat(fromBinary.size()).isEqualTo(fromText.size());
        for (int i = 0; i < fromBinary.size(); i++) {
            assertThat(fromBinary.joinPoint(i)).isEqualTo(fromText.joinPoint(i));
        }
    }

    @Test
    void truncatedAndCorruptBinaryFilesNameTheOffset() throws Exception {
        Path f = dir.resolve("p.qwp");
        try (BinaryProfileWriter w = BinaryProfileWriter.open(f)) {
            for (JoinPoint jp : randomJoinPoints(100, 3)) {
                w.joinPoint(jp.timeNanos(), jp.threadId(), jp.caller(), jp.callee());
            }
        }
        byte[] all = Files.readAllBytes(f);
        Path cut = dir.resolve("cut.qwp");
        Files.write(cut, Arrays.copyOf(all, all.length - 3));
        assertThatThrownBy(() -> Profile.read(List.of(cut))).isInstanceOf(ProfileFormatException.class)
                .hasMessageStartingWith(cut + ": at byte offset ").hasMessageContaining("truncated");
        Path noEnd = dir.resolve("noend.qwp");
        Files.write(noEnd, Arrays.copyOf(all, 5));
        assertThatThrownBy(() -> Profile.read(List.of(noEnd)))
                .hasMessage(noEnd + ": at byte offset 5: truncated: the file ends without its end record after 0 join points"
                        + " (was the profiler stopped before it closed the file?)");
        byte[] bad = all.clone();
        bad[5] = 0x7F;
        Path corrupt = dir.resolve("corrupt.qwp");
        Files.write(corrupt, bad);
        assertThatThrownBy(() -> Profile.read(List.of(corrupt)))
                .hasMessage(corrupt + ": at byte offset 5: corrupt: unknown record tag 0x7f");
        byte[] version = all.clone();
        version[4] = 9;
        Files.write(corrupt, version);
        assertThatThrownBy(() -> Profile.read(List.of(corrupt))).hasMessageContaining("unsupported binary profile version 9");
    }

    @Test
    void theWriterStopsAtItsLimitsAndSaysSo() throws Exception {
        Path f = dir.resolve("small.qwp");
        BinaryProfileWriter w = BinaryProfileWriter.open(f, new BinaryProfileWriter.Limits(1000, 2, 1 << 20));
        int a = w.signatureId("void a.A.m()");
        assertThat(w.joinPoint(1, 1, a, a)).isTrue();
        assertThat(w.joinPoint(2, 2, a, a)).isTrue();
        assertThat(w.joinPoint(3, 3, a, a)).isFalse();
        assertThat(w.limitMessage()).contains("maxThreads");
        w.close();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Path yaml = dir.resolve("out/cp.yaml");
        PointcutsTool.run(List.of(f), Duration.ofMillis(1), 2, yaml, new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("warning: " + f + " is partial").contains("maxThreads");
        assertThat(Files.readString(yaml)).contains("controlPoints:\n  - \"call(void a.A.m()) && withincode(void a.A.m())\"\n");
    }

    @Test
    void toolErrors() {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
        assertThatThrownBy(() -> PointcutsTool.run(List.of(), Duration.ofMillis(10), 1, null, quiet))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no profile");
        assertThatThrownBy(() -> PointcutsTool.run(List.of(dir.resolve("nope")), Duration.ofMillis(10), 1, null, quiet))
                .hasMessageContaining("profile not found");
        assertThatThrownBy(() -> PointcutsTool.run(List.of(dir.resolve("nope")), Duration.ZERO, 1, null, quiet))
                .hasMessageContaining("interval must be positive");
        assertThatThrownBy(() -> PointcutsTool.run(List.of(dir.resolve("nope")), Duration.ofMillis(1), 0, null, quiet))
                .hasMessageContaining("maximum occurrence must be at least 1");
    }

    @Test
    void reportAsJson() throws Exception {
        Profile p = Profile.read(List.of(PointcutGeneratorTest.resource("fig4.profile")));
        GenerationReport r = new PointcutGenerator(PointcutGenerator.Options.of(Duration.ofMillis(10), 3)).generate(p);
        String json = r.toJson();
        assertThat(json).contains("\"generated_pointcuts\": 2", "\"selected_join_points\": 5", "\"uncovered_slots\": 0",
                "\"predicted_interval_mean_ms\": 10.0", "\"pointcut\": \"call(void demo.Fig4.f2()) && withincode(void demo.Fig4.main(java.lang.String[]))\"");
        assertThat(r.toText()).contains("generated pointcuts  2", "selected join points 5");
    }
}
