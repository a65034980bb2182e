package io.qosweaver.bench.deadlock;

import io.qosweaver.bench.run.Versions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The versions of {@code bench deadlock}, as data: a version of {@link Versions} (or one of the
 * two policies of {@code examples/policies/deadlock/}) and whether the river monitor runs with its
 * synchronized logger ({@code --sync-log memory}). The peers and the paper's other policies are
 * {@link Versions}' own: they never suspend a thread at a control point, so the logger's control
 * point would change nothing for them (paper 5.4: "we did not change their scheduling policies").
 */
public final class DeadlockVersions {

    /** One version: how the app is run, and with or without the logger. */
    public record Version(String name, Versions.Version run, boolean syncLog) {
        public String description() {
            return run.description() + (syncLog ? "; with the synchronized logger" : "; WITHOUT the logger");
        }
    }

    public static final String IMPORTANCE = "importance";
    public static final String DEADLOCK_AWARE = "deadlock-aware";
    public static final String IMPORTANCE_NO_LOG = "importance-no-log";

    /** What the app gets for the logger: lines kept in a bounded buffer, no disk in the measurement. */
    static final List<String> SYNC_LOG_ARGS = List.of("--sync-log", "memory");

    private static final Map<String, Version> ALL = new LinkedHashMap<>();

    static {
        Versions.Version importance = new Versions.Version(IMPORTANCE, "the importance policy (lowLimit 1), the "
                + "generated control points plus one inside the logger's synchronized writeGeneration", List.of(),
                "examples/policies/deadlock/importance.yaml", null);
        add(new Version(IMPORTANCE, importance, true));
        add(new Version(DEADLOCK_AWARE, new Versions.Version(DEADLOCK_AWARE, "the deadlock-aware policy (lowLimit 1, "
                + "timeout 200 ms), the control points of importance, a progress point per river in the collector",
                List.of(), "examples/policies/deadlock/deadlock-aware.yaml", null), true));
        add(new Version(IMPORTANCE_NO_LOG, importance, false));
        for (String n : List.of(Versions.ORIGINAL, "admission", "java-priority", "linux-priority", "jetty-qos",
                "concurrency-limits")) {
            add(new Version(n, Versions.get(n), true));
        }
    }

    /** Every version, in the default order: the two policies of the paper's 5.4 first, the baseline third. */
    public static final List<String> DEFAULT = List.copyOf(ALL.keySet());

    private DeadlockVersions() {
    }

    private static void add(Version v) {
        ALL.put(v.name(), v);
    }

    public static List<String> known() {
        return new ArrayList<>(ALL.keySet());
    }

    /** The versions named, in order; an unknown or repeated name is an error listing the known ones. */
    public static List<Version> resolve(List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no version given; known versions: " + String.join(", ", known()));
        }
        List<Version> out = new ArrayList<>();
        for (String raw : names) {
            Version v = ALL.get(raw.strip());
            if (v == null) {
                throw new IllegalArgumentException("unknown version '" + raw.strip() + "'; known versions: "
                        + String.join(", ", known()));
            }
            if (out.contains(v)) {
                throw new IllegalArgumentException("version '" + v.name() + "' is named twice");
            }
            out.add(v);
        }
        return out;
    }
}
