package io.qosweaver.cli.trace;

import static org.assertj.core.api.Assertions.assertThat;

import io.qosweaver.bench.run.Layout;
import io.qosweaver.cli.CliRun;
import io.qosweaver.trace.TraceChecks;
import io.qosweaver.trace.stats.PageData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import perfetto.protos.DebugAnnotationOuterClass.DebugAnnotation;
import perfetto.protos.TracePacketOuterClass.TracePacket;
import perfetto.protos.TrackDescriptorOuterClass.TrackDescriptor;
import perfetto.protos.TrackEventOuterClass.TrackEvent;

/**
 * {@code qosweaver trace --policy ... -- java -jar river-monitor.jar} end to end, with the real agent
 * and river monitor jars: a few charts while traced, then the file read back with Perfetto's schema.
 * Every level is in it, on the chart thread's OS tid, and the JVM's thread is joined to that tid.
 */
class TraceRiverMonitorTest {
    @TempDir
    Path dir;

    @Test
    void everyLevelOfAChartRequestIsOnItsThreadsTracks() throws Exception {
        Layout layout = Layout.find();
        assertThat(layout.agentJar()).as("build it: ./mvnw -pl agent -am package").isRegularFile();
        assertThat(layout.riverMonitorJar()).as("build it: ./mvnw -pl examples/river-monitor package").isRegularFile();
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path out = dir.resolve("river.pftrace");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        CompletableFuture<CliRun> cli = CompletableFuture.supplyAsync(() -> CliRun.of("trace", "--duration", "20s",
                "--out", out.toString(), "--policy", layout.riverMonitorPolicy().toString(), "--", java, "-Xmx512m",
                "-jar", layout.riverMonitorJar().toString(), "--port", Integer.toString(port), "--generator-port", "0",
                "--rivers", "1", "--history-hours", "3"));
        try {
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            URI chart = URI.create("http://127.0.0.1:" + port + "/chart?river=1&hours=3");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int ok = 0;
            while (ok < 3) {
                try {
                    HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(chart).timeout(Duration.ofSeconds(30)).build(),
                            HttpResponse.BodyHandlers.ofByteArray());
                    assertThat(r.statusCode()).isEqualTo(200);
                    ok++;
                } catch (java.io.IOException e) {
                    assertThat(System.nanoTime()).as("the river monitor answers within 60 s").isLessThan(deadline);
                    Thread.sleep(200);
                }
            }
            while (!Files.exists(out)) { // the tracer renames the file when it is complete
                assertThat(System.nanoTime()).as("the trace is complete within 60 s").isLessThan(deadline);
                assertThat(cli).isNotDone();
                Thread.sleep(200);
            }
        } finally {
            ProcessHandle.current().descendants().filter(h -> h.info().commandLine().orElse("").contains("river-monitor"))
                    .forEach(ProcessHandle::destroy);
        }
        cli.get(60, TimeUnit.SECONDS);

        TraceChecks t = TraceChecks.read(out).valid();
        // application: the chart requests, each on the thread that served it
        List<TracePacket> requests = t.events.stream().filter(p -> p.getTrackEvent().getType() == TrackEvent.Type.TYPE_SLICE_BEGIN
                && "request".equals(p.getTrackEvent().getCategories(0))).collect(Collectors.toList());
        assertThat(requests).hasSizeGreaterThanOrEqualTo(3);
        TrackEvent first = requests.get(0).getTrackEvent();
        assertThat(first.getName()).isEqualTo("chart");
        assertThat(string(first, "path")).isEqualTo("/chart");
        TrackDescriptor thread = t.tracks.get(first.getTrackUuid());
        int tid = thread.getThread().getTid();
        assertThat(thread.getThread().getThreadName()).as("the Java name").startsWith("qtp");
        // the same tid's other levels
        assertThat(childEvents(t, thread, "OS state")).extracting(TrackEvent::getName).isNotEmpty()
                .allMatch(n -> n.isEmpty() || n.equals("Running") || n.equals("Runnable (waiting for CPU)")
                        || n.equals("Sleeping") || n.equals("Blocked (I/O)"));
        List<TrackEvent> scheduler = childEvents(t, thread, "scheduler");
        assertThat(scheduler).extracting(TrackEvent::getName).contains("chart");
        assertThat(scheduler).extracting(TrackEvent::getType).contains(TrackEvent.Type.TYPE_SLICE_END);
        TrackEvent join = childEvents(t, thread, "JVM").stream().filter(e -> e.getName().equals("thread")).findFirst()
                .orElseThrow(() -> new AssertionError("no JVM thread event on tid " + tid));
        assertThat(number(join, "osThreadId")).isEqualTo(tid);
        assertThat(string(join, "javaName")).isEqualTo(thread.getThread().getThreadName());
        assertThat(number(join, "javaThreadId")).isPositive();
        TrackEvent stats = t.events.get(t.events.size() - 1).getTrackEvent();
        assertThat(stats.getName()).isEqualTo("trace statistics");

        // the statistics view beside it: the chart thread's row has its requests and its scheduler scope
        PageData page = PageData.read(dir.resolve("river.html"));
        PageData.Thread row = page.threads.get(thread.getThread().getThreadName());
        assertThat(row).as("the chart thread's row").isNotNull();
        assertThat(row.tid).isEqualTo(tid);
        assertThat(row.totalUs("app:request")).as("time in requests").isPositive();
        assertThat(row.totalUs("scheduler:in task class")).as("time in the chart scope").isPositive();
        assertThat(row.totalUs("app:request")).isLessThanOrEqualTo(row.tracedUs);
        assertThat(page.html).containsPattern("\"classes\":\\[[^\\]]*\"chart\"");
    }

    private static List<TrackEvent> childEvents(TraceChecks t, TrackDescriptor thread, String level) {
        return t.events.stream().map(TracePacket::getTrackEvent).filter(e -> {
            TrackDescriptor d = t.tracks.get(e.getTrackUuid());
            return d != null && d.getParentUuid() == thread.getUuid() && level.equals(d.getName());
        }).collect(Collectors.toList());
    }

    private static String string(TrackEvent e, String name) {
        return e.getDebugAnnotationsList().stream().filter(a -> a.getName().equals(name)).map(DebugAnnotation::getStringValue)
                .findFirst().orElse(null);
    }

    private static long number(TrackEvent e, String name) {
        return e.getDebugAnnotationsList().stream().filter(a -> a.getName().equals(name)).mapToLong(DebugAnnotation::getIntValue)
                .findFirst().orElseThrow(() -> new AssertionError("no " + name + " in " + e));
    }
}
