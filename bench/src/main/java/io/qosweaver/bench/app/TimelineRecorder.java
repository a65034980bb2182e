package io.qosweaver.bench.app;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Follows the agent's {@code GET /timeline?since=N} during a window: every change of a task
 * class's running threads, at the scheduler's own event resolution (Fig. 16), as offsets from the
 * window start. The state each class was in when the window began is its first point (offset 0).
 */
final class TimelineRecorder {
    private final HttpClient http;
    private final URI timeline;
    private final long windowStartMs;
    private final List<ScenarioResult.TimelinePoint> points = new ArrayList<>();
    private final Map<String, ScenarioResult.TimelinePoint> before = new LinkedHashMap<>();
    private long next;
    private long dropped;
    private String failure;

    TimelineRecorder(HttpClient http, URI metrics, long windowStartMs) {
        this.http = http;
        this.timeline = metrics.resolve("/timeline");
        this.windowStartMs = windowStartMs;
    }

    /** Fetches what is new; a failure is remembered (reported in the notes), never thrown. */
    void poll() throws InterruptedException {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(timeline + "?since=" + next))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                failure = "GET /timeline: status " + r.statusCode() + ": " + r.body().strip();
                return;
            }
            accept(r.body());
        } catch (IOException e) {
            failure = "GET /timeline: " + e;
        }
    }

    void accept(String text) {
        for (String line : text.split("\n")) {
            if (line.startsWith("# next ")) {
                String[] f = line.split(" ");
                next = Long.parseLong(f[2]);
                dropped += Long.parseLong(f[4]);
                continue;
            }
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split(" ");
            if (f.length != 6) {
                failure = "GET /timeline: unexpected line '" + line + "'";
                continue;
            }
            double epochMs = Double.parseDouble(f[1]);
            double offsetS = Math.round((epochMs - windowStartMs)) / 1000.0;
            ScenarioResult.TimelinePoint p = new ScenarioResult.TimelinePoint(offsetS, f[2],
                    Integer.parseInt(f[3]), Integer.parseInt(f[4]), Integer.parseInt(f[5]));
            if (offsetS < 0) {
                before.put(p.taskClass(), p);
            } else {
                points.add(p);
            }
        }
    }

    /** The window's points up to {@code endOffsetS}, each class's state at the start first. */
    List<ScenarioResult.TimelinePoint> points(double endOffsetS) {
        List<ScenarioResult.TimelinePoint> out = new ArrayList<>();
        before.values().forEach(p -> out.add(new ScenarioResult.TimelinePoint(0, p.taskClass(), p.members(),
                p.parked(), p.running())));
        points.stream().filter(p -> p.offsetS() <= endOffsetS).forEach(out::add);
        return out;
    }

    /** Why the timeline is incomplete, or null. */
    String problem() {
        if (failure != null) {
            return failure;
        }
        return dropped > 0 ? "the scheduler's timeline ring overflowed: " + dropped + " events lost" : null;
    }
}
