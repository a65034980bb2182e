package io.qosweaver.bench.mixed;

import io.qosweaver.bench.load.ClassResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * The app's stop-the-world GC pauses on the wall clock, from its {@code -Xlog:gc} lines with the
 * {@code time} decorator ({@link #XLOG}), matched to the slowest light requests: how much of the
 * light tail a collector's pause explains, which no scheduler of the app's threads can shorten.
 * A pause is logged when it ends; it began its duration earlier.
 */
final class GcPauses {
    /** The app's GC logging: wall-clock times to match requests against. */
    static final String XLOG = "-Xlog:gc:stdout:time,uptime,level,tags";
    private static final Pattern PAUSE = Pattern.compile(
            "\\[(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}[+-]\\d{4})].*\\bPause\\b.*?(\\d+(?:\\.\\d+)?)ms\\s*$");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    private GcPauses() {
    }

    /** The pauses in a log ({@code .gz} or plain), each {start, end} in epoch ms; empty without time stamps. */
    static List<double[]> read(Path log) throws IOException {
        List<double[]> out = new ArrayList<>();
        try (InputStream raw = Files.newInputStream(log);
             InputStream in = log.toString().endsWith(".gz") ? new GZIPInputStream(raw) : raw;
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                double[] p = parse(line);
                if (p != null) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** One line's pause {start, end} in epoch ms, or null when it is none. */
    static double[] parse(String line) {
        Matcher m = PAUSE.matcher(line);
        if (!m.find()) {
            return null;
        }
        double end = OffsetDateTime.parse(m.group(1), TIME).toInstant().toEpochMilli();
        return new double[] {end - Double.parseDouble(m.group(2)), end};
    }

    /**
     * Of the light class's slowest requests, those at or above its p99: how many overlapped a pause,
     * and the pause time inside them (mean over the tail); null when the requests or the pauses are
     * not known.
     */
    static Map<String, Object> tail(ClassResult light, List<double[]> pauses, double windowStartMs, double windowEndMs) {
        if (light == null || light.p99Ms() == null || light.slowest().isEmpty()) {
            return null;
        }
        int n = 0;
        int withPause = 0;
        double pauseMs = 0;
        for (ClassResult.Slow s : light.slowest()) {
            if (s.latencyMs() < light.p99Ms()) {
                continue;
            }
            n++;
            double overlap = 0;
            for (double[] p : pauses) {
                overlap += Math.max(0, Math.min(p[1], s.startMs() + s.latencyMs()) - Math.max(p[0], s.startMs()));
            }
            if (overlap > 0) {
                withPause++;
            }
            pauseMs += overlap;
        }
        double inWindow = 0;
        int count = 0;
        for (double[] p : pauses) {
            double o = Math.max(0, Math.min(p[1], windowEndMs) - Math.max(p[0], windowStartMs));
            if (o > 0) {
                count++;
                inWindow += o;
            }
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tail_requests", n);
        m.put("tail_with_gc_pause", withPause);
        m.put("tail_mean_gc_pause_ms", n == 0 ? null : Math.round(pauseMs / n * 100) / 100.0);
        m.put("window_gc_pauses", count);
        double windowMs = windowEndMs - windowStartMs;
        m.put("window_gc_pause_share", windowMs > 0 ? Math.round(inWindow / windowMs * 10000) / 10000.0 : null);
        m.put("window_gc_pauses_per_s", windowMs > 0 ? Math.round(count / windowMs * 1000 * 100) / 100.0 : null);
        m.put("window_gc_pause_mean_ms", count == 0 ? null : Math.round(inWindow / count * 100) / 100.0);
        return m;
    }
}
