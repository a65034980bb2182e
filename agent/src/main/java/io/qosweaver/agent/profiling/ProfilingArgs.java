package io.qosweaver.agent.profiling;

import io.qosweaver.agent.unit.callprobe.ProfiledPackages;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The profiling mode's agent arguments:
 * {@code profile=OUT.qwp,include=PKG[+PKG...][,start=paused][,format=slots|joinpoints][,slot=DURATION][,probeCost=auto|none|DURATION][,workShare=FRACTION][,maxBytes=SIZE][,maxSignatures=N][,maxThreads=N][,bufferBytes=SIZE][,metricsPort=N][,debug=true]}.
 *
 * <p>The JVM hands the agent one string and the agent splits it at commas, so the packages of
 * {@code include} are separated by {@code +} (or {@code ;}, which needs quoting in a shell).
 * Sizes take a {@code k}, {@code m} or {@code g} suffix (powers of 1024).
 *
 * @param include package prefixes whose methods are profiled as callers ({@code org.jfree} is
 *     {@code org.jfree} and every package under it); JDK packages only when named, never one of
 *     {@link ProfiledPackages#DENIED} (checked here, with a message naming the denied packages)
 * @param paused true: start with recording off, switched on over JMX or HTTP
 * @param bufferBytes the bound on join points buffered in memory before the writer thread has
 *     written them (all threads together)
 * @param metricsPort -1: no HTTP endpoint; 0: a free port
 * @param joinPoints true: write every join point (binary profile version 1, the exact record; about
 *     7 bytes a join point); false, the default: slot summaries (version 2), whose size grows with
 *     the profiled time, not with the join points
 * @param slotNanos the base slot of slot summaries; target intervals must be multiples of it
 * @param probeCostNanos the probe's cost per join point taken out of the time stamps of slot
 *     summaries: {@link #MEASURE} (the default: measured when recording starts), 0 (none: profile
 *     time), or a fixed number of nanoseconds
 * @param workSharePpm the share (parts per million) of each gap's time, once {@code probeCostNanos}
 *     is out, that was the application's own work: the rest is what the probe costs the profiled
 *     code beyond what its own gaps show (the code around it optimized less), as measured against an
 *     unprofiled run of the same requests ({@code qosweaver profile --request}); {@link #PPM} (all
 *     kept) by default, settable while the JVM runs ({@code POST /profile/work-share?ppm=N})
 */
public record ProfilingArgs(Path out, List<String> include, boolean paused, boolean joinPoints, long slotNanos,
        long probeCostNanos, long workSharePpm, long maxBytes, int maxSignatures, int maxThreads, long bufferBytes, int metricsPort,
        boolean debug) {

    /** {@code probeCost=auto}: measure the probe's cost when recording starts. */
    public static final long MEASURE = -1;
    /** A work share of 1, in parts per million. */
    public static final long PPM = 1_000_000;
    public static final long DEFAULT_SLOT_NANOS = 1_000_000L;

    public static final long DEFAULT_MAX_BYTES = 1L << 30;
    public static final int DEFAULT_MAX_SIGNATURES = 1 << 20;
    public static final int DEFAULT_MAX_THREADS = 1024;
    public static final long DEFAULT_BUFFER_BYTES = 64L << 20;

    static final String USAGE = "usage: -javaagent:qosweaver-agent.jar=profile=OUT.qwp,include=PKG[+PKG...]"
            + "[,start=paused][,format=slots|joinpoints][,slot=1ms][,probeCost=auto|none|50ns][,workShare=0.9][,maxBytes=SIZE]"
            + "[,maxSignatures=N][,maxThreads=N][,bufferBytes=SIZE][,metricsPort=N]";

    public ProfilingArgs {
        include = List.copyOf(include);
    }

    /** True if the raw agent arguments ask for the profiling mode. */
    public static boolean isProfile(String raw) {
        if (raw == null) {
            return false;
        }
        for (String part : raw.split(",")) {
            if (part.strip().startsWith("profile=")) {
                return true;
            }
        }
        return false;
    }

    public static ProfilingArgs parse(String raw) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String part : raw.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("agent argument '" + part + "' is not key=value"
                        + " (packages of include= are separated by '+', not ','; " + USAGE + ")");
            }
            kv.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
        }
        String out = kv.remove("profile");
        if (out == null || out.isEmpty()) {
            throw new IllegalArgumentException("profile= needs the output file (" + USAGE + ")");
        }
        if (kv.containsKey("policy")) {
            throw new IllegalArgumentException("profile= and policy= cannot be combined: profile first, then run with"
                    + " the generated policy (" + USAGE + ")");
        }
        String inc = kv.remove("include");
        if (inc == null || inc.isBlank()) {
            throw new IllegalArgumentException("profile= needs include=PKG[+PKG...], the packages whose calls are"
                    + " recorded, e.g. include=org.jfree+org.rivermonitor (" + USAGE + ")");
        }
        List<String> include = new ArrayList<>();
        for (String p : inc.split("[+;]")) {
            String pkg = p.strip();
            if (pkg.endsWith(".*")) {
                pkg = pkg.substring(0, pkg.length() - 2);
            }
            if (pkg.isEmpty()) {
                continue;
            }
            if (!pkg.matches("[\\p{javaJavaIdentifierStart}][\\p{javaJavaIdentifierPart}.]*")) {
                throw new IllegalArgumentException("include=" + inc + ": '" + pkg + "' is not a package name");
            }
            ProfiledPackages.check(pkg, inc);
            include.add(pkg);
        }
        if (include.isEmpty()) {
            throw new IllegalArgumentException("include=" + inc + " names no package");
        }
        boolean paused = false;
        String start = kv.remove("start");
        if (start != null) {
            paused = switch (start) {
                case "paused" -> true;
                case "now" -> false;
                default -> throw new IllegalArgumentException("agent argument start=" + start + " must be now or paused");
            };
        }
        String format = kv.remove("format");
        boolean joinPoints = false;
        if (format != null) {
            joinPoints = switch (format) {
                case "joinpoints" -> true;
                case "slots" -> false;
                default -> throw new IllegalArgumentException("agent argument format=" + format + " must be slots (slot"
                        + " summaries, the default) or joinpoints (every join point)");
            };
        }
        String slotArg = kv.remove("slot");
        long slotNanos = slotArg == null ? DEFAULT_SLOT_NANOS : duration(slotArg, "slot", 1, Integer.MAX_VALUE);
        String cost = kv.remove("probeCost");
        long probeCost = cost == null || cost.equals("auto") ? MEASURE
                : cost.equals("none") ? 0 : duration(cost, "probeCost", 0, 1_000_000);
        String share = kv.remove("workShare");
        long workShare = share == null ? PPM : fraction(share, "workShare");
        if (joinPoints && (slotArg != null || cost != null || share != null)) {
            throw new IllegalArgumentException("slot=, probeCost= and workShare= apply to slot summaries;"
                    + " format=joinpoints records every join point with its time as measured");
        }
        if (probeCost == 0 && workShare < PPM) {
            throw new IllegalArgumentException("probeCost=none keeps the time stamps as recorded; workShare="
                    + share + " would take time out of them: drop one of the two");
        }
        long maxBytes = size(kv.remove("maxBytes"), "maxBytes", DEFAULT_MAX_BYTES);
        int maxSignatures = (int) number(kv.remove("maxSignatures"), "maxSignatures", DEFAULT_MAX_SIGNATURES, 1,
                Integer.MAX_VALUE);
        int maxThreads = (int) number(kv.remove("maxThreads"), "maxThreads", DEFAULT_MAX_THREADS, 1, 1 << 20);
        long bufferBytes = size(kv.remove("bufferBytes"), "bufferBytes", DEFAULT_BUFFER_BYTES);
        int port = (int) number(kv.remove("metricsPort"), "metricsPort", -1, 0, 65535);
        String d = kv.remove("debug");
        boolean debug = "true".equals(d);
        if (!kv.isEmpty()) {
            throw new IllegalArgumentException("unknown agent argument(s) " + kv.keySet() + " in profile mode (" + USAGE
                    + ")");
        }
        return new ProfilingArgs(Path.of(out), include, paused, joinPoints, slotNanos, probeCost, workShare, maxBytes, maxSignatures,
                maxThreads, bufferBytes, port, debug);
    }

    /** The agent argument string that profiles these packages into {@code out} (the form {@link #parse} reads). */
    public static String format(Path out, List<String> include) {
        return "profile=" + out + ",include=" + String.join("+", include);
    }

    static long size(String v, String key, long dflt) {
        if (v == null) {
            return dflt;
        }
        String s = v.toLowerCase(Locale.ROOT);
        long unit = 1;
        if (s.endsWith("k") || s.endsWith("m") || s.endsWith("g")) {
            unit = switch (s.charAt(s.length() - 1)) {
                case 'k' -> 1L << 10;
                case 'm' -> 1L << 20;
                default -> 1L << 30;
            };
            s = s.substring(0, s.length() - 1);
        }
        try {
            long n = Long.parseLong(s);
            if (n > 0 && n <= Long.MAX_VALUE / unit) {
                return n * unit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("agent argument " + key + "=" + v
                + " must be a positive size in bytes, with an optional k, m or g suffix (e.g. 256m)");
    }

    /** {@code 1ms}, {@code 500us}, {@code 40ns}, {@code 1s}, or plain nanoseconds, within [min, max] ns. */
    static long duration(String v, String key, long min, long max) {
        String s = v.strip().toLowerCase(Locale.ROOT);
        long unit = 1;
        for (String[] u : new String[][] {{"ns", "1"}, {"us", "1000"}, {"ms", "1000000"}, {"s", "1000000000"}}) {
            if (s.endsWith(u[0])) {
                unit = Long.parseLong(u[1]);
                s = s.substring(0, s.length() - u[0].length());
                break;
            }
        }
        try {
            long n = Long.parseLong(s.strip());
            if (n <= Long.MAX_VALUE / unit && n * unit >= min && n * unit <= max) {
                return n * unit;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("agent argument " + key + "=" + v + " must be a duration from " + min
                + " ns to " + max + " ns, e.g. 1ms, 500us or 40ns");
    }

    /** A fraction in (0, 1] ({@code 0.85}), in parts per million. */
    static long fraction(String v, String key) {
        try {
            double f = Double.parseDouble(v.strip());
            long ppm = Math.round(f * PPM);
            if (f > 0 && f <= 1 && ppm >= 1) {
                return ppm;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("agent argument " + key + "=" + v + " must be a fraction above 0 and at most"
                + " 1, e.g. 0.85");
    }

    private static long number(String v, String key, long dflt, long min, long max) {
        if (v == null) {
            return dflt;
        }
        try {
            long n = Long.parseLong(v);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("agent argument " + key + "=" + v + " must be a number from " + min + " to "
                + max);
    }

    /** Human-readable size for messages: 268435456 is "256m". */
    static String formatSize(long bytes) {
        if (bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "g";
        }
        if (bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "m";
        }
        if (bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "k";
        }
        return Long.toString(bytes);
    }
}
