package io.qosweaver.jcstress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The build's jcstress subset, run on the shaded {@code target/jcstress.jar} as a user would: the
 * wake-up handshake tests and the hand-off's race with an own wake-up in the {@code quick} preset
 * (fewer iterations miss the yield-flag ABA, checked by re-introducing it; and a successor woken by
 * its runner after it woke on its own, checked the same way), the queue races and the hand-off's
 * race with the tick in {@code sanity}. The full run is
 * {@code java -jar jcstress/target/jcstress.jar -m quick} (about 3 minutes on 2 cores).
 */
class JcstressSubsetIT {
    /** As in README.md: a lost wake-up must hang, not be hidden by the safety net's timed wake-up. */
    static final String JVM_ARGS = "-Dqosweaver.parkSafetyNanos=3600000000000 -Dqosweaver.timelineCapacity=16";
    private static final Pattern RESULTS = Pattern.compile(
            "\\(Results: (\\d+) planned; (\\d+) passed, (\\d+) failed, (\\d+) soft errs, (\\d+) hard errs\\)");

    @Test
    void theWakeUpHandshakeNeverLosesAWakeUp() throws Exception {
        run("quick", "WakeUpTest|ReleaseThenDemoteTest|InterruptTest|HandOffRaceTest", 4);
    }

    @Test
    void theQueuesKeepTheirInvariantsUnderRaces() throws Exception {
        run("sanity", "QueueRaceTest|ExitRacingReleaseTest|DemoteVersusWaitTest|HandOffTickRaceTest", 4);
    }

    private static void run(String mode, String tests, int expectedTests) throws IOException, InterruptedException {
        Path target = Path.of("target").toAbsolutePath();
        Path jar = target.resolve("jcstress.jar");
        assertThat(jar).as("the shaded jar (built in package)").exists();
        Path results = Files.createDirectories(target.resolve("jcstress-" + mode));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString(), "-m", mode, "-t", tests, "-r", results.toString(),
                "-jvmArgsPrepend", JVM_ARGS));
        Path log = results.resolve("output.txt");
        Process p = new ProcessBuilder(cmd).directory(results.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        boolean done = p.waitFor(15, TimeUnit.MINUTES);
        if (!done) {
            p.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(done).as("jcstress finished; output in %s", log).isTrue();
        Matcher m = RESULTS.matcher(out);
        String last = null;
        while (m.find()) {
            last = m.group();
        }
        assertThat(last).as("a results line in %s", log).isNotNull();
        Matcher r = RESULTS.matcher(last);
        assertThat(r.matches()).isTrue();
        long planned = Long.parseLong(r.group(1));
        assertThat(planned).as("results planned").isPositive();
        assertThat(Long.parseLong(r.group(2))).as("passed, of %d (%s)", planned, log).isEqualTo(planned);
        assertThat(out).contains("Failed tests: No matches.").contains("Error tests: No matches.");
        assertThat(out).contains("All remaining tests: " + expectedTests + " matching test results");
        System.out.println("jcstress -m " + mode + " " + tests + ": " + last);
    }
}
