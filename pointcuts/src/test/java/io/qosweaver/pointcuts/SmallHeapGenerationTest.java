package io.qosweaver.pointcuts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generation's memory does not grow with the join points: profiles far larger than the heap of
 * the JVM that generates from them, in both binary versions. In memory, the 20 million join
 * points of the version 1 file would take about 480 MB (16 bytes each in a {@link Profile}, 8 more
 * in the generator's index), ten times the 48 MB heap given here. The CI-sized form of
 * {@code pointcuts/results/real-size} (10^9 join points at -Xmx1g).
 */
class SmallHeapGenerationTest {
    @TempDir
    Path dir;

    /** Runs {@code qosweaver pointcuts}' tool in a child JVM with {@code -Xmx48m}; returns its output. */
    private String generateIn48m(Path profile) throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path out = dir.resolve("out.txt");
        List<String> cmd = new ArrayList<>(List.of(java.toString(), "-Xmx48m", "-XX:+UseSerialGC",
                "-cp", System.getProperty("java.class.path"), Generate.class.getName(), profile.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("generation finished in 180 s").isTrue();
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isZero();
        return text;
    }

    @Test
    void twentyMillionJoinPointsAsSlotSummariesGenerateIn48Mb() throws Exception {
        Path f = dir.resolve("big.qwp");
        SyntheticProfile.write(f, 20_000_000L, 4, 2, 3, false);
        assertThat(Files.size(f)).as("slot summaries of 20 M join points").isLessThan(2_000_000);
        String out = generateIn48m(f);
        assertThat(out).contains("join points          20000000 on 4 timeline(s)").contains("uncovered slots      0 of");
    }

    @Test
    void twentyMillionJoinPointsAsAVersion1FileAreStreamedIn48Mb() throws Exception {
        Path f = dir.resolve("big-v1.qwp");
        SyntheticProfile.write(f, 20_000_000L, 4, 1, 3, false);
        String out = generateIn48m(f);
        assertThat(out).contains("join points          20000000 on 4 timeline(s)").contains("uncovered slots      0 of");
    }

    /** The child: {@code PointcutsTool} at t = 10 ms, m = 100, the report on stdout. */
    public static final class Generate {
        public static void main(String[] args) throws IOException {
            PointcutsTool.run(List.of(Path.of(args[0])), java.time.Duration.ofMillis(10), 100,
                    Path.of(args[0] + ".yaml"), System.out);
        }
    }
}
