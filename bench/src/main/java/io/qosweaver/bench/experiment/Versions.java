package io.qosweaver.bench.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The versions of the river monitor an experiment compares (issue 4), as data: each is JVM flags
 * and, for the woven ones, a policy file under {@code examples/policies/versions/} given to the
 * agent. The application is the same unmodified jar for all of them.
 */
public final class Versions {

    /**
     * One version.
     *
     * @param name        what {@code --versions} names it by
     * @param description one line for reports
     * @param jvmFlags    extra JVM flags (besides {@code -javaagent}, which a policy implies)
     * @param policy      the policy file relative to the project root, or null for no agent
     * @param unavailable null when the version can run; otherwise why it cannot yet
     */
    public record Version(String name, String description, List<String> jvmFlags, String policy,
                          String unavailable) {
        public Version {
            jvmFlags = List.copyOf(jvmFlags);
        }

        public boolean usesAgent() {
            return policy != null;
        }

        public boolean available() {
            return unavailable == null;
        }
    }

    public static final String ORIGINAL = "original";
    public static final String QOSWEAVER = "qosweaver";

    private static final Map<String, Version> ALL = new LinkedHashMap<>();

    static {
        add(new Version(ORIGINAL, "no agent, no control", List.of(), null, null));
        add(new Version("admission", "admission control: at most 1 running chart request while a collection runs, "
                + "enforced when a request starts", List.of(), "examples/policies/versions/admission.yaml", null));
        add(new Version("java-priority", "Thread.setPriority MAX for the collector, MIN for chart threads "
                + "(-XX:ThreadPriorityPolicy=1, as the policy recommends)", List.of("-XX:ThreadPriorityPolicy=1"),
                "examples/policies/versions/java-priority.yaml", null));
        add(new Version("linux-priority", "setpriority on the native thread: nice -20 for the collector, 19 for "
                + "chart threads", List.of(), "examples/policies/versions/linux-priority.yaml", null));
        add(new Version(QOSWEAVER, "the importance policy (lowLimit 1)", List.of(),
                "examples/policies/river-monitor.yaml", null));
        add(new Version("concurrency-limits", "Netflix concurrency-limits servlet filter", List.of(), null,
                "not yet available: the concurrency-limits version is planned for a later round of issue 4"));
        add(new Version("jetty-qos", "Jetty 12 QoSHandler", List.of(), null,
                "not yet available: the jetty-qos version is planned for a later round of issue 4"));
    }

    /** The paper's five versions, the default of {@code bench deadline}. */
    public static final List<String> PAPER = List.of(ORIGINAL, "admission", "java-priority", "linux-priority",
            QOSWEAVER);

    private Versions() {
    }

    private static void add(Version v) {
        ALL.put(v.name(), v);
    }

    /** Every known name, runnable first. */
    public static List<String> known() {
        List<String> out = new ArrayList<>();
        ALL.values().stream().filter(Version::available).forEach(v -> out.add(v.name()));
        return out;
    }

    public static List<String> notYetAvailable() {
        return ALL.values().stream().filter(v -> !v.available()).map(Version::name).toList();
    }

    /**
     * The versions named, in order; an unknown name or one not yet available is an
     * {@link IllegalArgumentException} whose message lists the known ones.
     */
    public static List<Version> resolve(List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no version given; known versions: " + String.join(", ", known()));
        }
        List<Version> out = new ArrayList<>();
        for (String raw : names) {
            String n = raw.strip();
            Version v = ALL.get(n);
            if (v == null) {
                throw new IllegalArgumentException("unknown version '" + n + "'; known versions: "
                        + String.join(", ", known()) + " (not yet available: " + String.join(", ", notYetAvailable())
                        + ")");
            }
            if (!v.available()) {
                throw new IllegalArgumentException("version '" + n + "' is " + v.unavailable()
                        + "; available now: " + String.join(", ", known()));
            }
            if (out.contains(v)) {
                throw new IllegalArgumentException("version '" + n + "' is named twice");
            }
            out.add(v);
        }
        return out;
    }

    public static Version get(String name) {
        return resolve(List.of(name)).get(0);
    }
}
