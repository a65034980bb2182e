package io.qosweaver.agent.runtime;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code policy=FILE[,metricsPort=N][,failOpen=true][,matchCheckSeconds=N][,intervals=true][,control=false][,debug=true]}:
 * comma-separated key=value, as the JVM hands them to premain.
 *
 * @param metricsPort -1: no endpoint; 0: pick a free port and print it
 * @param failOpen null when not given, so the file's own {@code failOpen} applies
 * @param matchCheckSeconds null when not given, so the file's value (default 30) applies
 * @param intervals measure control-point intervals from the start (costs every control point a
 *     clock read; also switchable at run time over HTTP)
 * @param control open the local control socket ({@code qosweaver ctl}); on by default
 */
public record AgentArgs(Path policy, int metricsPort, Boolean failOpen, Integer matchCheckSeconds, boolean intervals,
                        boolean control, boolean debug) {

    public AgentArgs(Path policy, int metricsPort, Boolean failOpen, Integer matchCheckSeconds, boolean debug) {
        this(policy, metricsPort, failOpen, matchCheckSeconds, false, true, debug);
    }

    public static AgentArgs parse(String args) {
        return parse(args, true);
    }

    /**
     * @param policyRequired false in the hooks mode ({@link HooksArgs}), whose keys the caller has
     *     taken out: then {@link #policy()} is null when no file is given
     */
    public static AgentArgs parse(String args, boolean policyRequired) {
        Map<String, String> kv = new LinkedHashMap<>();
        if (args != null && !args.isBlank()) {
            for (String part : args.split(",")) {
                int eq = part.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("agent argument '" + part + "' is not key=value"
                            + " (usage: -javaagent:qosweaver-agent.jar=policy=FILE[,metricsPort=N][,failOpen=true])");
                }
                kv.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
            }
        }
        List<String> unknown = new ArrayList<>();
        for (String k : kv.keySet()) {
            if (!KNOWN.contains(k)) {
                unknown.add(k);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(describeUnknown(unknown));
        }
        String policy = kv.remove("policy");
        if (!policyRequired && policy == null) {
            policy = "";
        } else if (policy == null || policy.isEmpty()) {
            throw new IllegalArgumentException("missing agent argument policy=FILE"
                    + " (usage: -javaagent:qosweaver-agent.jar=policy=FILE[,metricsPort=N][,failOpen=true])");
        }
        int port = -1;
        String p = kv.remove("metricsPort");
        if (p != null) {
            port = parseInt("metricsPort", p, 0, 65535);
        }
        Boolean failOpen = null;
        String f = kv.remove("failOpen");
        if (f != null) {
            failOpen = parseBool("failOpen", f);
        }
        Integer check = null;
        String c = kv.remove("matchCheckSeconds");
        if (c != null) {
            check = parseInt("matchCheckSeconds", c, 1, Integer.MAX_VALUE);
        }
        String i = kv.remove("intervals");
        boolean intervals = i != null && parseBool("intervals", i);
        String ctl = kv.remove("control");
        boolean control = ctl == null || parseBool("control", ctl);
        String d = kv.remove("debug");
        boolean debug = d != null && parseBool("debug", d);
        return new AgentArgs(policy.isEmpty() ? null : Path.of(policy), port, failOpen, check, intervals, control, debug);
    }

    /** The keys, in the order the usage line gives them. */
    static final List<String> KNOWN = List.of("policy", "metricsPort", "failOpen", "matchCheckSeconds", "intervals", "control",
            "debug", "hooks", "hooksInclude", "recordClassBytes");

    /**
     * Names every unknown key (checked before anything is missing, so that a misspelt
     * {@code polcy=FILE} is reported as what it is), with the known key it most likely meant.
     */
    static String describeUnknown(List<String> unknown) {
        StringBuilder b = new StringBuilder();
        for (String k : unknown) {
            b.append(b.length() == 0 ? "" : "; ").append("unknown agent argument '").append(k).append('\'');
            String near = nearest(k);
            if (near != null) {
                b.append(" (did you mean ").append(near).append("?)");
            }
        }
        return b.append("; known: ").append(String.join(", ", KNOWN)).toString();
    }

    /** The known key within edit distance 2 (case ignored) of {@code k}, or null. */
    static String nearest(String k) {
        String best = null;
        int bestDistance = 3;
        for (String known : KNOWN) {
            int d = editDistance(k.toLowerCase(Locale.ROOT), known.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                best = known;
                bestDistance = d;
            }
        }
        return best;
    }

    private static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1], cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static int parseInt(String key, String v, int min, int max) {
        try {
            int i = Integer.parseInt(v);
            if (i >= min && i <= max) {
                return i;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("agent argument " + key + "=" + v + " must be a number from " + min
                + " to " + max);
    }

    private static boolean parseBool(String key, String v) {
        if (v.equals("true") || v.equals("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException("agent argument " + key + "=" + v + " must be true or false");
    }
}
