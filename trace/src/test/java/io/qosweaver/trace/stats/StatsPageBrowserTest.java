package io.qosweaver.trace.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.qosweaver.trace.proto.Args;
import io.qosweaver.trace.proto.PerfettoWriter;
import io.qosweaver.trace.timeline.Level;
import io.qosweaver.trace.timeline.Timeline;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page's timeline, drawn by its own script in a real browser: headless Chromium where the machine
 * has it (Debian's {@code chromium} package; the case studies' screenshots are made with it), skipped
 * with the reason otherwise. The script leaves what it drew on the canvas ({@code data-rows},
 * {@code data-painted}), which the dumped DOM shows.
 */
class StatsPageBrowserTest {
    private static final long S = 1_000_000_000L;
    private static String chromium;

    @TempDir
    Path dir;

    @BeforeAll
    static void findChromium() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome", "headless_shell")) {
            for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                    chromium = Path.of(d, name).toString();
                    return;
                }
            }
        }
    }

    /** alpha: runs 1 s, then sleeps 1 s in a monitor wait; beta: runs 2 s, suspended by the scheduler in the second. */
    private Path page() throws Exception {
        StateIntervals s = new StateIntervals(100);
        long alphaOs = Timeline.levelTrack(1, Level.OS);
        long alphaJvm = Timeline.levelTrack(1, Level.JVM);
        long betaOs = Timeline.levelTrack(2, Level.OS);
        long betaSched = Timeline.levelTrack(2, Level.SCHEDULER);
        s.event(0, PerfettoWriter.TYPE_SLICE_BEGIN, alphaOs, "Running", new Args());
        s.event(0, PerfettoWriter.TYPE_SLICE_BEGIN, betaOs, "Running", new Args());
        s.event(0, PerfettoWriter.TYPE_SLICE_BEGIN, betaSched, "chart", new Args());
        s.event(S, PerfettoWriter.TYPE_SLICE_END, alphaOs, null, null);
        s.event(S, PerfettoWriter.TYPE_SLICE_BEGIN, alphaOs, "Sleeping", new Args());
        s.event(S, PerfettoWriter.TYPE_SLICE_BEGIN, alphaJvm, "monitor wait", new Args());
        s.event(S, PerfettoWriter.TYPE_SLICE_BEGIN, betaSched, "suspended", new Args().add("taskClass", "chart"));
        s.finish(2 * S);
        Path out = dir.resolve("page.html");
        StatsPage.write(out, s, Map.of(1, "alpha", 2, "beta"), "test", 0, 2 * S, new Args());
        return out;
    }

    /** The canvas's data attributes after the script ran on {@code page#hash}: rows and painted bars. */
    private int[] drawn(Path page, String hash) throws Exception {
        Process p = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                page.toUri() + hash).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String dom = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("chromium ended").isTrue();
        Matcher m = Pattern.compile("<canvas id=\"timeline\"[^>]*data-rows=\"(\\d+)\" data-painted=\"(\\d+)\"")
                .matcher(dom);
        assertThat(m.find()).as("the timeline's canvas, drawn: %s", dom.length() > 400 ? dom.substring(0, 400) : dom)
                .isTrue();
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))};
    }

    @Test
    void theTimelineDrawsEachThreadsStatesInTheRangeAndFilterOfTheAddress() throws Exception {
        assumeTrue(chromium != null, "no Chromium on this machine's PATH: the page's script is not run here"
                + " (Debian: apt-get install chromium)");
        Path page = page();
        // whole trace: alpha Running, Sleeping, monitor wait; beta Running, in task class (not drawn), suspended
        assertThat(drawn(page, "")).containsExactly(2, 5);
        assertThat(drawn(page, "#filter=alp")).as("one thread").containsExactly(1, 3);
        assertThat(drawn(page, "#from=1.5&to=2")).as("the second half: alpha sleeping in a wait, beta suspended"
                + " while running").containsExactly(2, 4);
        assertThat(drawn(page, "#from=0&to=0.5&filter=beta")).as("beta before its suspension").containsExactly(1, 1);
    }
}
