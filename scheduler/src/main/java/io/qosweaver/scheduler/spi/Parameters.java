package io.qosweaver.scheduler.spi;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A policy's parameters from the policy file (all strings), read with validation whose messages
 * say what to change. Every error is a {@link PolicyConfigException} naming {@code policy.<key>},
 * which the agent maps back to the file's line.
 */
public final class Parameters {
    private final String policy;
    private final Map<String, String> values;

    public Parameters(String policy, Map<String, String> values) {
        this.policy = policy;
        this.values = values == null ? Map.of() : new LinkedHashMap<>(values);
    }

    /** The policy's name, for messages. */
    public String policy() {
        return policy;
    }

    public Map<String, String> asMap() {
        return Map.copyOf(values);
    }

    /**
     * Refuses any key not in {@code known}, each described in {@code help} for the message, e.g.
     * {@code "lowLimit, an integer >= 0"}.
     */
    public Parameters allowOnly(List<String> known, String help) {
        for (String k : values.keySet()) {
            if (!known.contains(k)) {
                throw new PolicyConfigException("policy." + k, "unknown parameter '" + k + "' for policy "
                        + policy + "; remove it (" + (known.isEmpty() ? "the policy has no parameters"
                                : "parameters: " + help) + ")");
            }
        }
        return this;
    }

    /** As {@link #allowOnly(List, String)}, with the keys as the help. */
    public Parameters allowOnly(String... known) {
        return allowOnly(Arrays.asList(known), String.join(", ", known));
    }

    /** Whether the file sets {@code key}. */
    public boolean has(String key) {
        return values.containsKey(key);
    }

    /** An integer in [min, max]; {@code meaning} completes "KEY must be an integer ... (MEANING)". */
    public int intValue(String key, int dflt, int min, int max, String meaning) {
        String v = values.get(key);
        if (v == null) {
            return dflt;
        }
        try {
            int i = Integer.parseInt(v.trim());
            if (i >= min && i <= max) {
                return i;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new PolicyConfigException("policy." + key, key + " must be an integer " + range(min, max)
                + (meaning.isEmpty() ? "" : " (" + meaning + ")") + ", got '" + v + "'");
    }

    /**
     * A decimal number in [min, max] ({@code 150}, {@code 12.5}); {@code meaning} completes the
     * message as in {@link #intValue}.
     */
    public double number(String key, double dflt, double min, double max, String meaning) {
        String v = values.get(key);
        if (v == null) {
            return dflt;
        }
        try {
            double d = Double.parseDouble(v.trim());
            if (d >= min && d <= max) {
                return d;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new PolicyConfigException("policy." + key, key + " must be a number in [" + plain(min) + ", "
                + plain(max) + "]" + (meaning.isEmpty() ? "" : " (" + meaning + ")") + ", got '" + v + "'");
    }

    private static String plain(double d) {
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
    }

    /**
     * A number of threads: an integer in [0, max], or a multiple of {@code cores} written
     * {@code 1x}, {@code 1.5x}, {@code 0.5x} (rounded, and at least 1 unless the factor is 0), so
     * that one policy file means the same on a 2-core and a 64-core server. {@code meaning}
     * completes the message as in {@link #intValue}.
     */
    public int threadCount(String key, int dflt, int cores, String meaning) {
        String v = values.get(key);
        if (v == null) {
            return dflt;
        }
        String t = v.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.endsWith("x")) {
                double f = Double.parseDouble(t.substring(0, t.length() - 1).trim());
                if (f >= 0 && f <= 1_000 && !t.substring(0, t.length() - 1).isBlank()) {
                    return f == 0 ? 0 : (int) Math.max(1, Math.round(f * cores));
                }
            } else {
                int i = Integer.parseInt(t);
                if (i >= 0) {
                    return i;
                }
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new PolicyConfigException("policy." + key, key + " must be a number of threads, an integer >= 0 or a"
                + " multiple of the cores such as 1x or 1.5x (" + cores + " cores here)"
                + (meaning.isEmpty() ? "" : " (" + meaning + ")") + ", got '" + v + "'");
    }

    /** A boolean ({@code true} or {@code false}). */
    public boolean booleanValue(String key, boolean dflt) {
        String v = values.get(key);
        if (v == null) {
            return dflt;
        }
        String t = v.trim().toLowerCase(Locale.ROOT);
        if (t.equals("true") || t.equals("false")) {
            return Boolean.parseBoolean(t);
        }
        throw new PolicyConfigException("policy." + key, key + " must be true or false, got '" + v + "'");
    }

    /**
     * A duration: a number with a unit {@code ns}, {@code us}, {@code ms} or {@code s}
     * ({@code 200ms}, {@code 1s}, {@code 1.5s}), at least {@code minNanos}; returned in nanoseconds.
     */
    public long durationNanos(String key, long dfltNanos, long minNanos) {
        String v = values.get(key);
        if (v == null) {
            return dfltNanos;
        }
        long n = parseDurationNanos(v);
        if (n < minNanos) {
            throw new PolicyConfigException("policy." + key, key + " must be a duration of at least "
                    + minNanos + " ns with a unit (ns, us, ms, s), e.g. 200ms; got '" + v + "'");
        }
        return n;
    }

    /** -1 when the text is not a duration with a unit. */
    static long parseDurationNanos(String v) {
        String t = v.trim().toLowerCase(Locale.ROOT);
        String[] units = {"ns", "us", "ms", "s"};
        long[] scale = {1, 1_000, 1_000_000, 1_000_000_000};
        for (int i = 0; i < units.length; i++) {
            if (t.endsWith(units[i])) {
                String num = t.substring(0, t.length() - units[i].length()).trim();
                try {
                    double d = Double.parseDouble(num);
                    if (d >= 0 && !Double.isInfinite(d) && !num.isEmpty()) {
                        return Math.round(d * scale[i]);
                    }
                } catch (NumberFormatException e) {
                    return -1;
                }
                return -1;
            }
        }
        return -1;
    }

    private static String range(int min, int max) {
        if (max == Integer.MAX_VALUE) {
            return ">= " + min;
        }
        return "in [" + min + ", " + max + "]";
    }
}
