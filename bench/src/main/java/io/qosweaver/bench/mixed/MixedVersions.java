package io.qosweaver.bench.mixed;

import io.qosweaver.bench.run.Versions;
import io.qosweaver.bench.run.Versions.Version;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The versions of a third-party app the experiment compares: the same unmodified jar unscheduled, woven
 * by QoSWeaver with the hand-written and the generated policy, and with today's tools installed by the
 * peers agent (peers/README.md).
 */
public final class MixedVersions {
    public static final String UNSCHEDULED = "unscheduled";
    public static final String QOSWEAVER = "qosweaver";
    public static final String QOSWEAVER_GENERATED = "qosweaver-generated";
    public static final String JETTY_QOS = "jetty-qos";
    public static final String CONCURRENCY_LIMITS = "concurrency-limits";
    /**
     * The unscheduled app once more, last: a shared machine drifts over a 25-minute run (the first full run
     * measured the unscheduled app's heavy throughput falling by a third within its own window), so the
     * baseline is the mean of the first and the last run, and their difference is the run's noise floor.
     */
    public static final String UNSCHEDULED_END = "unscheduled-end";
    /** The hand-written policy with {@code suspendAtEntry: true}; run when named. */
    public static final String QOSWEAVER_AT_ENTRY = "qosweaver-at-entry";
    /**
     * The hand-written policy parking at entry, without control points: the cap is enforced only at a request's
     * entry, so a running heavy request is never parked; what the control points cost. Run when named.
     */
    public static final String QOSWEAVER_ENTRY_ONLY = "qosweaver-entry-only";
    /**
     * The cap at entry alone: {@code suspendAtEntry} with {@code lowLimit} = {@code lowCap} = the cores, so a
     * light request parks no heavy one; run when named.
     */
    public static final String QOSWEAVER_ENTRY_CAP = "qosweaver-entry-cap";
    /**
     * The cap at entry with room in the server's thread pool ({@code aspects.threadPools}: a request waiting at
     * its entry holds a server thread); run when named.
     */
    public static final String QOSWEAVER_ENTRY_CAP_POOL = "qosweaver-entry-cap-pool";
    /**
     * The cap at entry with a grace: {@code suspendAtEntry}, {@code lowLimit: 1} once a light request has run
     * 15 ms ({@code lowLimitAfter}), the cores before; run when named.
     */
    public static final String QOSWEAVER_ENTRY_GRACE = "qosweaver-entry-grace";
    /** The hand-written policy with {@code lowLimit} at the cores: a light request parks no heavy one; run when named. */
    public static final String QOSWEAVER_NO_PARKING = "qosweaver-no-parking";
    /**
     * The hand-written policy with a grace ({@code lowLimitAfter: 15ms}): a light request parks a heavy
     * one only once it has run 15 ms; run when named.
     */
    public static final String QOSWEAVER_GRACE = "qosweaver-grace";
    /**
     * The hand-written policy with OS priorities beside the limits ({@code lowNice: 19}: a heavy request's
     * thread at nice 19 while in it); run when named.
     */
    public static final String QOSWEAVER_NICE = "qosweaver-nice";
    /**
     * The paper's Linux priority baseline (5.1) on the same task classes: light at nice -20, heavy at 19,
     * nothing suspended; what setpriority alone does. Run when named.
     */
    public static final String LINUX_PRIORITY = "linux-priority";

    public static final List<String> ALL = List.of(UNSCHEDULED, QOSWEAVER, QOSWEAVER_GENERATED, JETTY_QOS,
            CONCURRENCY_LIMITS, UNSCHEDULED_END);

    static boolean isBaseline(String name) {
        return name.equals(UNSCHEDULED) || name.equals(UNSCHEDULED_END);
    }

    private MixedVersions() {
    }

    /** Every version of {@code app}, by name. */
    public static Map<String, Version> of(MixedApp app) {
        int cpus = MixedParams.CORES;
        Map<String, Version> m = new LinkedHashMap<>();
        m.put(UNSCHEDULED, new Version(UNSCHEDULED, "the unmodified app, no agent", List.of(), null, null));
        m.put(QOSWEAVER, new Version(QOSWEAVER, "importance policy, lowLimit 1, lowCap 1x; control points chosen "
                + "by hand from a profile", List.of(), app.policy(false), null));
        m.put(QOSWEAVER_GENERATED, new Version(QOSWEAVER_GENERATED, "the task classes of qosweaver and the policy "
                + "section of the app's generated.yaml; control points generated from a profile (qosweaver pointcuts)", List.of(), app.policy(true), null));
        // The cap is the cores, as in the river-monitor experiments: Jetty's default (half the thread pool)
        // never binds under 8 x cores clients and would measure the unscheduled app under another name.
        if (app.jettyQoSUnavailable() == null) {
                m.put(JETTY_QOS, new Version(JETTY_QOS, "Jetty's QoSHandler around the app's handler, at most " + cpus
                    + " requests at once (the cores), heavy path at the lowest priority", List.of(), null,
                    "peer=jetty-qos,lowPath=" + app.heavyPath() + ",maxRequests=" + cpus + ",anyContext=true"));
        }
        m.put(CONCURRENCY_LIMITS, new Version(CONCURRENCY_LIMITS, "Netflix concurrency-limits (Vegas, the "
                + "library's default), heavy path in a partition of 10 %, 429 when refused", List.of(), null,
                "peer=concurrency-limits,lowPath=" + app.heavyPath() + ",anyContext=true"));
        m.put(QOSWEAVER_AT_ENTRY, new Version(QOSWEAVER_AT_ENTRY, "the hand-written policy with suspendAtEntry: "
                + "an aggregate over the cap waits before it starts", List.of(),
                "examples/third-party/" + app.name() + "/policies/handwritten-at-entry.yaml", null));
        m.put(QOSWEAVER_ENTRY_ONLY, new Version(QOSWEAVER_ENTRY_ONLY, "the hand-written task classes and cap, an "
                + "arrival over the cap parked at its entry, no control point inside a request: a running heavy request "
                + "is never parked", List.of(), "examples/third-party/" + app.name()
                + "/policies/handwritten-entry-only.yaml", null));
        m.put(QOSWEAVER_ENTRY_CAP, new Version(QOSWEAVER_ENTRY_CAP, "the cap at entry alone: at most as many "
                + "heavy requests running as cores, an arrival over it waiting at its entry; a light request parks none",
                List.of(), "examples/third-party/" + app.name() + "/policies/handwritten-entry-cap.yaml", null));
        m.put(QOSWEAVER_ENTRY_CAP_POOL, new Version(QOSWEAVER_ENTRY_CAP_POOL, "the cap at entry with the server's thread "
                + "pool raised to 64, so that heavy requests waiting at entry leave threads for the light ones", List.of(),
                "examples/third-party/" + app.name() + "/policies/handwritten-entry-cap-pool.yaml", null));
        m.put(QOSWEAVER_ENTRY_GRACE, new Version(QOSWEAVER_ENTRY_GRACE, "the cap at entry with a grace: a light "
                + "request parks one running heavy request only once it has run 15 ms", List.of(),
                "examples/third-party/" + app.name() + "/policies/handwritten-entry-grace.yaml", null));
        m.put(QOSWEAVER_NO_PARKING, new Version(QOSWEAVER_NO_PARKING, "the hand-written policy with lowLimit 1x: "
                + "a light request runs beside the capped heavy ones instead of parking one", List.of(),
                "examples/third-party/" + app.name() + "/policies/handwritten-no-parking.yaml", null));
        m.put(QOSWEAVER_GRACE, new Version(QOSWEAVER_GRACE, "the hand-written policy with lowLimitAfter 15ms: "
                + "a light request runs beside the capped heavy ones for 15 ms, then parks one if still running",
                List.of(), "examples/third-party/" + app.name() + "/policies/handwritten-grace.yaml", null));
        m.put(QOSWEAVER_NICE, new Version(QOSWEAVER_NICE, "the hand-written policy with lowNice 19: a heavy "
                + "request's thread at the lowest OS priority while in it, beside the limits", List.of(),
                "examples/third-party/" + app.name() + "/policies/handwritten-nice.yaml", null));
        m.put(LINUX_PRIORITY, new Version(LINUX_PRIORITY, "the paper's Linux priority baseline: light requests at "
                + "nice -20, heavy ones at 19, nothing suspended, no control points", List.of(),
                "examples/third-party/" + app.name() + "/policies/linux-priority.yaml", null));
        m.put(UNSCHEDULED_END, new Version(UNSCHEDULED_END, "the unmodified app, no agent, run again last (the "
                + "baseline is the mean of both unscheduled runs)", List.of(), null, null));
        return m;
    }

    /** What runs when no version is named: {@link #ALL} less those the app's server does not allow. */
    public static List<String> defaults(MixedApp app) {
        Map<String, Version> all = of(app);
        return ALL.stream().filter(all::containsKey).toList();
    }

    /**
     * The named versions in the order given; an unknown name is an error listing the known ones. A name may set
     * policy parameters of a woven version, as in {@code bench run}: {@code qosweaver-entry-cap:lowNice=19}
     * ({@link Versions#lookup}).
     */
    public static List<Version> resolve(MixedApp app, List<String> names) {
        Map<String, Version> all = of(app);
        List<Version> out = new ArrayList<>();
        for (String raw : names) {
            String n = raw.strip();
            Version v = Versions.lookup(all, n);
            if (v == null && n.equals(JETTY_QOS) && app.jettyQoSUnavailable() != null) {
                throw new IllegalArgumentException("version 'jetty-qos' does not apply to app " + app.name() + ": "
                        + app.jettyQoSUnavailable());
            }
            if (v == null) {
                throw new IllegalArgumentException("unknown version '" + n + "'; known: " + String.join(", ",
                        all.keySet()));
            }
            if (!out.contains(v)) {
                out.add(v);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no version to run; known: " + String.join(", ", all.keySet()));
        }
        return out;
    }
}
