package io.qosweaver.trace.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.qosweaver.platform.LinuxThreads;
import io.qosweaver.trace.Tracer;
import io.qosweaver.trace.os.TracefsSession;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The statistics view of a traced child JVM ({@link StatsWorkload}) whose threads are forced into
 * known states: the page is written beside the trace, self-contained, holds every thread the
 * child had, and its per-state sums are what the workload forced.
 */
class StatsPageTest {
    @TempDir
    Path dir;

    private static String codeSource(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    @Test
    void thePageOfATracedChildJvmShowsTheStatesItsThreadsWereForcedInto() throws Exception {
        Path trace = dir.resolve("child.pftrace");
        Path names = dir.resolve("threads.txt");
        String cp = String.join(File.pathSeparator, codeSource(Tracer.class), codeSource(StatsWorkload.class),
                codeSource(LinuxThreads.class));
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp,
                StatsWorkload.class.getName(), trace.toString(), names.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the child ends").isTrue();
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("child.log"))).isZero();

        Path html = dir.resolve("child.html");
        assertThat(trace).isRegularFile();
        assertThat(html).isRegularFile();
        PageData page = PageData.read(html);
        // self-contained: no script, style or image fetched from anywhere
        assertThat(page.html).doesNotContain("src=\"http", "href=\"http", "fetch(", "XMLHttpRequest", "@import");

        // every thread the child had in the middle of its run is a row
        for (String n : Files.readAllLines(names)) {
            if (n.equals("qosweaver-trace-os") && TracefsSession.unavailable() == null) {
                continue; // the OS level from tracefs (auto, where it can be used) leaves its own reader out
            }
            assertThat(page.threads).as("threads in the page").containsKey(n);
        }
        // what a failure needs to tell a clock or ordering problem from a missed event
        String seen = "; trace statistics " + page.numbers + "; per thread " + page.threads.entrySet().stream()
                .filter(e -> e.getKey().startsWith("stats-")).map(e -> e.getKey() + "=" + e.getValue().totalsUs)
                .collect(java.util.stream.Collectors.joining(", "));
        PageData.Thread sleeper = page.threads.get("stats-sleeper");
        assertThat(sleeper.share("os:Sleeping")).as("the sleeper's share of Sleeping" + seen).isGreaterThan(0.8);
        PageData.Thread blocked = page.threads.get("stats-blocked");
        assertThat(blocked.totalUs("jvm:monitor enter")).as("the blocked thread's monitor enter" + seen)
                .isBetween(700_000L, 1_400_000L);
        PageData.Thread holder = page.threads.get("stats-holder");
        assertThat(holder.totalUs("os:Running") + holder.totalUs("os:Runnable (waiting for CPU)"))
                .as("the holder spins for 1.2 s" + seen).isGreaterThan(800_000L);
        assertThat(holder.totalUs("jvm:monitor enter")).as("the holder's monitor enter" + seen).isZero();
        PageData.Thread waiter = page.threads.get("stats-waiter");
        assertThat(waiter.totalUs("jvm:monitor wait")).as("the waiter's monitor wait" + seen).isBetween(1_200_000L, 1_700_000L);

        // nothing was capped, so the intervals the page's script adds up give the exact totals
        assertThat(page.numbers.get("dropped")).isZero();
        for (PageData.Thread t : page.threads.values()) {
            for (String s : t.totalsUs.keySet()) {
                assertThat((double) t.intervalsUs.getOrDefault(s, 0L)).as(s).isCloseTo(t.totalsUs.get(s),
                        within(1.0 + t.totalsUs.get(s) * 0.001 + 0.001 * 1000));
            }
        }
        // the trace statistics are in the page
        assertThat(page.html).contains("\"eventsWritten\":", "\"lostRingFull\":", "\"lostLate\":", "\"lostSizeCap\":");
        List<String> os = new ArrayList<>(page.states);
        assertThat(os).contains("os:Sleeping", "jvm:monitor enter", "jvm:monitor wait");
    }
}
