package io.qosweaver.bench.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The versions of the river monitor an experiment compares (issue 4), as data: each is JVM flags
 * and, for the woven ones, a policy file under {@code examples/policies/versions/} given to the
 * agent, or, for today's tools, the arguments of the peers agent ({@code peers/}) that installs
 * them into the unmodified server. The application is the same unmodified jar for all of them.
 */
public final class Versions {

    /**
     * One version.
     *
     * @param name        what {@code --versions} names it by
     * @param description one line for reports
     * @param jvmFlags    extra JVM flags (besides {@code -javaagent}, which a policy implies)
     * @param policy      the policy file relative to the project root, or null for no agent
     * @param peer        the peers agent's arguments (e.g. {@code peer=jetty-qos}), or null
     * @param policyParams parameters set in the policy's {@code policy:} section ({@link PolicyParams}), in order
     */
    public record Version(String name, String description, List<String> jvmFlags, String policy, String peer,
            Map<String, String> policyParams) {
        public Version {
            jvmFlags = List.copyOf(jvmFlags);
            policyParams = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(policyParams));
            if (policy != null && peer != null) {
                throw new IllegalArgumentException(name + ": a version is either woven by QoSWeaver or a peer");
            }
            if (policy == null && !policyParams.isEmpty()) {
                throw new IllegalArgumentException(name + ": only a version with a policy file takes policy parameters");
            }
        }

        public Version(String name, String description, List<String> jvmFlags, String policy, String peer) {
            this(name, description, jvmFlags, policy, peer, Map.of());
        }

        /** What identifies the policy this version runs: its file, and the parameters set in it. */
        public String policyKey() {
            return policyParams.isEmpty() ? policy : policy + ":" + PolicyParams.spec(policyParams);
        }

        public boolean usesAgent() {
            return policy != null;
        }

        public boolean usesPeer() {
            return peer != null;
        }
    }

    public static final String ORIGINAL = "original";
    public static final String QOSWEAVER = "qosweaver";
    public static final String QOSWEAVER_HANDWRITTEN = "qosweaver-handwritten";
    /** The importance policy capped at the cores at all times (issue 14's candidate to lead every peer). */
    public static final String QOSWEAVER_CAPPED = "qosweaver-capped";
    public static final String QOSWEAVER_CAPPED_ENTRY = "qosweaver-capped-entry";
    /** qosweaver-capped-entry with chart threads at nice 19 and no chart parked for a collection; run when named. */
    public static final String QOSWEAVER_CAPPED_NICE = "qosweaver-capped-nice";
    /**
     * qosweaver-capped-entry with the coverage-aware control points (6 pointcuts, about 9 per chart) instead of
     * the dense generated set: what the density costs the charts. Run when named.
     */
    public static final String QOSWEAVER_COVER_ENTRY = "qosweaver-cover-entry";
    /**
     * The paper's admission control with the always-on cap at the cores: no chart parked halfway, at most the
     * cores running, one started while a collection runs. Run when named.
     */
    public static final String QOSWEAVER_CAPPED_ADMISSION = "qosweaver-capped-admission";

    private static final Map<String, Version> ALL = new LinkedHashMap<>();
    private static final int CPUS = Runtime.getRuntime().availableProcessors();

    static {
        add(new Version(ORIGINAL, "no agent, no control", List.of(), null, null));
        add(new Version("admission", "admission control: at most 1 running chart request while a collection runs, "
                + "enforced when a request starts", List.of(), "examples/policies/versions/admission.yaml", null));
        add(new Version("java-priority", "Thread.setPriority MAX for the collector, MIN for chart threads "
                + "(-XX:ThreadPriorityPolicy=1, as the policy recommends)", List.of("-XX:ThreadPriorityPolicy=1"),
                "examples/policies/versions/java-priority.yaml", null));
        add(new Version("linux-priority", "setpriority on the native thread: nice -20 for the collector, 19 for "
                + "chart threads", List.of(), "examples/policies/versions/linux-priority.yaml", null));
        add(new Version(QOSWEAVER, "the importance policy (lowLimit 1), control points generated from a profile "
                + "(paper 3.3)", List.of(), "examples/policies/river-monitor.yaml", null));
        add(new Version(QOSWEAVER_HANDWRITTEN, "the importance policy (lowLimit 1), control points chosen by hand",
                List.of(), "examples/policies/handwritten/river-monitor.yaml", null));
        add(new Version(QOSWEAVER_CAPPED, "the importance policy (lowLimit 1) with an always-on cap at the cores "
                + "(lowCap 1x), enforced at the generated control points", List.of(),
                "examples/policies/versions/capped.yaml", null));
        add(new Version(QOSWEAVER_CAPPED_ENTRY, "qosweaver-capped, requests over the cap waiting at their entry "
                + "(suspendAtEntry)", List.of(), "examples/policies/versions/capped-at-entry.yaml", null));
        add(new Version(QOSWEAVER_CAPPED_NICE, "qosweaver-capped-entry with chart threads at nice 19 while in their "
                + "request and no chart parked for a collection (lowLimit 1x, lowNice 19)", List.of(),
                "examples/policies/versions/capped-nice.yaml", null));
        add(new Version(QOSWEAVER_COVER_ENTRY, "qosweaver-capped-entry with the coverage-aware control points "
                + "(t 25 ms, m 1, every slot covered: 6 pointcuts, about 9 control points per chart)", List.of(),
                "examples/policies/cover/capped-at-entry.yaml", null));
        add(new Version(QOSWEAVER_CAPPED_ADMISSION, "admission control with an always-on cap at the cores (lowCap "
                + "1x): a chart request waits at its entry, none is stopped halfway", List.of(),
                "examples/policies/cover/capped-admission.yaml", null));
        add(new Version("concurrency-limits", "Netflix concurrency-limits (adaptive limit, core library) as a "
                + "servlet filter, chart requests in their own partition", List.of(), null,
                "peer=concurrency-limits,lowPath=/chart"));
        // Jetty's own default cap (half the pool, 100) never binds under 40 clients, which would make this
        // the original under another name; a CPU-bound request gains nothing from more concurrent requests
        // than cores, so the cap is what a user would set for such requests: the number of CPUs.
        add(new Version("jetty-qos", "Jetty 12 QoSHandler, at most " + CPUS + " requests at once (the CPUs), "
                + "chart requests at the lowest priority", List.of(), null,
                "peer=jetty-qos,lowPath=/chart,maxRequests=" + CPUS));
    }

    /** The paper's five versions. */
    public static final List<String> PAPER = List.of(ORIGINAL, "admission", "java-priority", "linux-priority",
            QOSWEAVER);

    /** The paper's five and today's tools: the default of {@code bench deadline} and {@code lowcost}. */
    public static final List<String> ALL_VERSIONS = List.of(ORIGINAL, "admission", "java-priority",
            "linux-priority", QOSWEAVER, QOSWEAVER_CAPPED, QOSWEAVER_CAPPED_ENTRY, "concurrency-limits", "jetty-qos");

    /** Versions whose policy files weave exactly the generated policy's task classes and control points. */
    public static final List<String> SAME_WEAVING = List.of("admission", "java-priority", "linux-priority",
            QOSWEAVER, QOSWEAVER_CAPPED, QOSWEAVER_CAPPED_ENTRY, QOSWEAVER_CAPPED_NICE);

    private Versions() {
    }

    private static void add(Version v) {
        ALL.put(v.name(), v);
    }

    /** Every known name. */
    public static List<String> known() {
        return new ArrayList<>(ALL.keySet());
    }

    /**
     * The versions named, in order; an unknown name is an {@link IllegalArgumentException}
     * whose message lists the known ones. A name may set policy parameters of a known version:
     * {@code BASE:KEY=VALUE[:KEY=VALUE...]} ({@link PolicyParams}).
     */
    public static List<Version> resolve(List<String> names) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no version given; known versions: " + String.join(", ", known()));
        }
        List<Version> out = new ArrayList<>();
        for (String raw : names) {
            String n = raw.strip();
            Version v = lookup(ALL, n);
            if (v == null) {
                throw new IllegalArgumentException("unknown version '" + n + "'; known versions: "
                        + String.join(", ", known()));
            }
            if (out.contains(v)) {
                throw new IllegalArgumentException("version '" + n + "' is named twice");
            }
            out.add(v);
        }
        return out;
    }

    /**
     * The version {@code name} names among {@code known}: a known name, or {@code BASE:KEY=VALUE[:...]} for a
     * known woven version with those policy parameters ({@link #withParams}); null when the name or its base is
     * unknown. Shared by every experiment's {@code --versions}.
     */
    public static Version lookup(Map<String, Version> known, String name) {
        int colon = name.indexOf(':');
        Version v = known.get(colon < 0 ? name : name.substring(0, colon));
        return v == null || colon < 0 ? v : withParams(v, name, PolicyParams.parse(name.substring(colon + 1)));
    }

    /**
     * {@code base} with {@code params} set in its policy file's {@code policy:} section, named {@code name}
     * ({@code BASE:KEY=VALUE...}); also how {@code bench mixed} names its versions with parameters.
     */
    public static Version withParams(Version base, String name, Map<String, String> params) {
        if (!base.usesAgent()) {
            throw new IllegalArgumentException("version '" + name + "': " + base.name() + " is not woven by QoSWeaver,"
                    + " so it has no policy parameters to set");
        }
        return new Version(name, base.description() + "; policy " + PolicyParams.spec(params).replace(":", ", "),
                base.jvmFlags(), base.policy(), null, params);
    }

    /**
     * {@code name} as part of a file name: a version with policy parameters has a ':' between them,
     * which some file systems refuse (Windows); it becomes '+'.
     */
    public static String fileName(String name) {
        return name.replace(':', '+');
    }

    public static Version get(String name) {
        return resolve(List.of(name)).get(0);
    }

    /**
     * The order in which versions run in round {@code i}: rotated by {@code i}, so that no version
     * always runs first on a machine that warms up or heats up over an experiment.
     */
    public static List<String> rotated(List<String> versions, int i) {
        List<String> out = new ArrayList<>();
        for (int j = 0; j < versions.size(); j++) {
            out.add(versions.get((j + i) % versions.size()));
        }
        return out;
    }
}
