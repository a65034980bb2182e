package io.qosweaver.trace;

import io.qosweaver.trace.timeline.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the tracer is told, as agent arguments:
 * {@code trace=OUT.pftrace[,traceDuration=30s][,traceLevels=os+jvm+scheduler+app+server+user][,traceOs=auto][,traceOsHz=100][,traceMaxSize=256m][,traceBuffer=1024][,traceThreshold=1ms][,traceHtml=false]}.
 *
 * @param out the Perfetto trace file
 * @param durationNanos how long to trace from start; 0: until the JVM exits
 * @param levels the levels to record (all by default)
 * @param osHz the OS level's sampling rate with the /proc source (default 100 Hz: a state change is placed within 10 ms)
 * @param maxBytes the cap on the file's size (default 256 MiB)
 * @param ringEvents each thread's ring, in events (default 1024: about 32 KiB a thread, 500 requests between two drains)
 * @param thresholdNanos JFR's threshold for monitor enter, wait and park events (default 1 ms)
 * @param html whether the statistics view ({@code OUT.html}, beside the trace) is written too (default yes)
 * @param osSource where the OS level's states come from (default {@link OsSource#AUTO})
 */
public record TraceOptions(Path out, long durationNanos, Set<Level> levels, int osHz, long maxBytes, int ringEvents,
        long thresholdNanos, boolean html, OsSource osSource) {

    /** The OS level's source: the kernel's scheduler events (tracefs) or {@code /proc} sampled at {@code osHz}. */
    public enum OsSource {
        /** tracefs when it can be used (root, tracefs mounted and writable), else {@code /proc}. */
        AUTO,
        /** tracefs or no trace: the trace does not start, and says why. */
        TRACEFS,
        /** {@code /proc} sampled at {@code osHz}. */
        PROC;

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** {@code auto}, {@code tracefs} or {@code proc}. */
        public static OsSource parse(String key, String v) {
            for (OsSource s : values()) {
                if (s.key().equals(v.strip().toLowerCase(Locale.ROOT))) {
                    return s;
                }
            }
            throw new IllegalArgumentException(key + "=" + v + " must be auto, tracefs or proc");
        }
    }

    public static final List<String> KEYS = List.of("trace", "traceDuration", "traceLevels", "traceOsHz", "traceMaxSize",
            "traceBuffer", "traceThreshold", "traceHtml", "traceOs");
    public static final String USAGE = "trace=OUT.pftrace[,traceDuration=30s][,traceLevels=os+jvm+scheduler+app+server+user]"
            + "[,traceOs=auto|tracefs|proc][,traceOsHz=100][,traceMaxSize=256m][,traceBuffer=1024][,traceThreshold=1ms][,traceHtml=false]";

    public TraceOptions {
        osSource = osSource == null ? OsSource.AUTO : osSource;
        levels = levels.isEmpty() ? EnumSet.noneOf(Level.class) : EnumSet.copyOf(levels);
    }

    public static TraceOptions defaults(Path out) {
        return new TraceOptions(out, 0, EnumSet.allOf(Level.class), 100, 256L << 20, 1024, 1_000_000, true, OsSource.AUTO);
    }

    /** The trace options among raw agent arguments, and the rest of them (for the scheduling agent). */
    public record Split(TraceOptions options, String rest) {}

    /**
     * Takes the trace keys out of comma-separated agent arguments.
     *
     * @return options null when no {@code trace=} is given (then no other trace key may be)
     * @throws IllegalArgumentException with a message for the user
     */
    public static Split split(String raw) {
        Map<String, String> kv = new LinkedHashMap<>();
        List<String> rest = new ArrayList<>();
        if (raw != null && !raw.isBlank()) {
            for (String part : raw.split(",")) {
                int eq = part.indexOf('=');
                String k = eq > 0 ? part.substring(0, eq).strip() : "";
                if (KEYS.contains(k)) {
                    kv.put(k, part.substring(eq + 1).strip());
                } else {
                    rest.add(part);
                }
            }
        }
        return new Split(kv.isEmpty() ? null : parse(kv), String.join(",", rest));
    }

    public static TraceOptions parse(Map<String, String> kv) {
        String out = kv.get("trace");
        if (out == null || out.isEmpty()) {
            throw new IllegalArgumentException("trace options need trace=OUT.pftrace (usage: " + USAGE + ")");
        }
        TraceOptions d = defaults(Path.of(out));
        long duration = kv.containsKey("traceDuration") ? durationNanos("traceDuration", kv.get("traceDuration"), true) : 0;
        Set<Level> levels = kv.containsKey("traceLevels") ? levels(kv.get("traceLevels")) : d.levels();
        int hz = kv.containsKey("traceOsHz") ? intIn("traceOsHz", kv.get("traceOsHz"), 1, 10_000) : d.osHz();
        long max = kv.containsKey("traceMaxSize") ? size("traceMaxSize", kv.get("traceMaxSize")) : d.maxBytes();
        int ring = kv.containsKey("traceBuffer") ? intIn("traceBuffer", kv.get("traceBuffer"), 16, 1 << 24) : d.ringEvents();
        long threshold = kv.containsKey("traceThreshold") ? durationNanos("traceThreshold", kv.get("traceThreshold"), true)
                : d.thresholdNanos();
        boolean html = d.html();
        if (kv.containsKey("traceHtml")) {
            String v = kv.get("traceHtml").strip().toLowerCase(Locale.ROOT);
            if (!v.equals("true") && !v.equals("false")) {
                throw new IllegalArgumentException("traceHtml=" + kv.get("traceHtml") + " must be true or false");
            }
            html = v.equals("true");
        }
        OsSource os = kv.containsKey("traceOs") ? OsSource.parse("traceOs", kv.get("traceOs")) : d.osSource();
        return new TraceOptions(d.out(), duration, levels, hz, max, ring, threshold, html, os);
    }

    /** {@code 30s}, {@code 500ms}, {@code 2m}, {@code 1h}, {@code 100us}, {@code 0}. */
    public static long durationNanos(String key, String v, boolean zeroAllowed) {
        String s = v.strip().toLowerCase(Locale.ROOT);
        long unit;
        String num;
        if (s.endsWith("ms")) {
            unit = 1_000_000L;
            num = s.substring(0, s.length() - 2);
        } else if (s.endsWith("us")) {
            unit = 1_000L;
            num = s.substring(0, s.length() - 2);
        } else if (s.endsWith("s")) {
            unit = 1_000_000_000L;
            num = s.substring(0, s.length() - 1);
        } else if (s.endsWith("m")) {
            unit = 60_000_000_000L;
            num = s.substring(0, s.length() - 1);
        } else if (s.endsWith("h")) {
            unit = 3_600_000_000_000L;
            num = s.substring(0, s.length() - 1);
        } else if (s.equals("0")) {
            return 0;
        } else {
            throw new IllegalArgumentException(key + "=" + v + " is not a duration (say 30s, 500ms, 2m or 1h)");
        }
        try {
            long n = Long.parseLong(num.strip());
            if (n < 0 || (n == 0 && !zeroAllowed) || n > Long.MAX_VALUE / unit) {
                throw new NumberFormatException();
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + "=" + v + " is not a duration (say 30s, 500ms, 2m or 1h)");
        }
    }

    static Set<Level> levels(String v) {
        Set<Level> out = EnumSet.noneOf(Level.class);
        for (String s : v.split("[+;]")) {
            String k = s.strip().toLowerCase(Locale.ROOT);
            if (k.equals("all")) {
                return EnumSet.allOf(Level.class);
            }
            Level found = null;
            for (Level l : Level.values()) {
                if (l.key().equals(k)) {
                    found = l;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("traceLevels: unknown level '" + s.strip()
                        + "' (levels: os, jvm, scheduler, app, server, user, or all; joined by +)");
            }
            out.add(found);
        }
        return out;
    }

    static int intIn(String key, String v, int min, int max) {
        try {
            int i = Integer.parseInt(v.strip());
            if (i >= min && i <= max) {
                return i;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(key + "=" + v + " must be a number from " + min + " to " + max);
    }

    /** {@code 256m}, {@code 1g}, {@code 64k}, or bytes; at least 64 KiB. */
    static long size(String key, String v) {
        String s = v.strip().toLowerCase(Locale.ROOT);
        long unit = 1;
        if (s.endsWith("k") || s.endsWith("m") || s.endsWith("g")) {
            unit = s.endsWith("k") ? 1L << 10 : s.endsWith("m") ? 1L << 20 : 1L << 30;
            s = s.substring(0, s.length() - 1);
        }
        try {
            long n = Long.parseLong(s);
            if (n > 0 && n <= Long.MAX_VALUE / unit && n * unit >= 64 << 10) {
                return n * unit;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new IllegalArgumentException(key + "=" + v + " must be a size of at least 64k (say 64k, 256m or 1g)");
    }

    /** The arguments that say these options again (for a child JVM's agent). */
    public String toAgentArgs() {
        StringBuilder b = new StringBuilder("trace=").append(out.toAbsolutePath());
        if (durationNanos > 0) {
            b.append(",traceDuration=").append(durationNanos / 1_000_000).append("ms");
        }
        if (!levels.equals(EnumSet.allOf(Level.class))) {
            List<String> ks = new ArrayList<>();
            levels.forEach(l -> ks.add(l.key()));
            b.append(",traceLevels=").append(String.join("+", ks));
        }
        TraceOptions d = defaults(out);
        if (osHz != d.osHz()) {
            b.append(",traceOsHz=").append(osHz);
        }
        if (maxBytes != d.maxBytes()) {
            b.append(",traceMaxSize=").append(maxBytes);
        }
        if (ringEvents != d.ringEvents()) {
            b.append(",traceBuffer=").append(ringEvents);
        }
        if (thresholdNanos != d.thresholdNanos()) {
            b.append(",traceThreshold=").append(thresholdNanos / 1000).append("us");
        }
        if (!html) {
            b.append(",traceHtml=false");
        }
        if (osSource != d.osSource()) {
            b.append(",traceOs=").append(osSource.key());
        }
        return b.toString();
    }
}
