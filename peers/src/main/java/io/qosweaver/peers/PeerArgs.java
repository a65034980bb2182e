package io.qosweaver.peers;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The agent's arguments: {@code peer=jetty-qos[,lowPath=/chart][,maxRequests=N][,maxSuspendMs=N][,anyContext=true]} or
 * {@code peer=concurrency-limits[,lowPath=/chart][,lowShare=0.1][,limit=vegas|gradient2|fixed:N][,anyContext=true]}.
 * No Jetty type here: premain parses these before any Jetty class is loaded.
 */
public final class PeerArgs {

    public static final String USAGE = "usage: -javaagent:qosweaver-peers-agent.jar="
            + "peer=jetty-qos[,lowPath=/chart][,maxRequests=N][,maxSuspendMs=N][,anyContext=true]"
            + " or =peer=concurrency-limits[,lowPath=/chart][,lowShare=0.1][,limit=vegas|gradient2|fixed:N]"
            + "[,anyContext=true]; either may add [,switchFile=/abs/path] (on/off at run time)";

    public static final String JETTY_QOS = "jetty-qos";
    public static final String CONCURRENCY_LIMITS = "concurrency-limits";

    private static final Set<String> KEYS = Set.of("peer", "lowPath", "maxRequests", "maxSuspendMs", "lowShare",
            "limit", "anyContext", "switchFile");
    private static final Set<String> JETTY_QOS_KEYS = Set.of("peer", "lowPath", "maxRequests", "maxSuspendMs",
            "anyContext", "switchFile");
    private static final Set<String> CONCURRENCY_LIMITS_KEYS = Set.of("peer", "lowPath", "lowShare", "limit",
            "anyContext", "switchFile");

    /** A bad argument string; the message names the problem (without the usage). */
    public static final class Invalid extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Invalid(String message) {
            super(message);
        }
    }

    private String peer;
    private String lowPath = "/chart";
    /** 0 = not given: Jetty's QoSHandler default (half the server thread pool's maxThreads, at start). */
    private int maxRequests;
    /** -1 = not given: Jetty's QoSHandler default (0 = a request may stay suspended forever). */
    private long maxSuspendMs = -1;
    private double lowShare = 0.1;
    /** "vegas" (the library's default), "gradient2" or "fixed". */
    private String limit = "vegas";
    private int fixedLimit;
    /**
     * Install on the first servlet context even when no servlet is mapped at lowPath: for applications that
     * route every request through a filter of their own (Apache Jena Fuseki's FusekiFilter at /*).
     */
    private boolean anyContext;
    /** A file that turns the peer off and on while the server runs ({@link PeerSwitch}); null: always on. */
    private Path switchFile;

    private PeerArgs() {}

    public static PeerArgs parse(String args) {
        if (args == null || args.isBlank()) {
            throw new Invalid("no arguments: peer= is required");
        }
        PeerArgs a = new PeerArgs();
        Set<String> seen = new HashSet<>();
        for (String token : args.split(",")) {
            token = token.strip();
            if (token.isEmpty()) {
                continue;
            }
            int eq = token.indexOf('=');
            if (eq <= 0) {
                throw new Invalid("expected key=value, got '" + token + "'");
            }
            String key = token.substring(0, eq).strip();
            String value = token.substring(eq + 1).strip();
            if (!KEYS.contains(key)) {
                throw new Invalid("unknown key '" + key + "' (keys: peer, lowPath, maxRequests, maxSuspendMs,"
                        + " lowShare, limit, anyContext, switchFile)");
            }
            if (!seen.add(key)) {
                throw new Invalid("key '" + key + "' given twice");
            }
            a.set(key, value);
        }
        if (a.peer == null) {
            throw new Invalid("peer= is required (jetty-qos or concurrency-limits)");
        }
        Set<String> allowed = a.peer.equals(JETTY_QOS) ? JETTY_QOS_KEYS : CONCURRENCY_LIMITS_KEYS;
        for (String key : seen) {
            if (!allowed.contains(key)) {
                throw new Invalid("key '" + key + "' does not apply to peer=" + a.peer);
            }
        }
        return a;
    }

    private void set(String key, String value) {
        switch (key) {
            case "peer" -> {
                if (!value.equals(JETTY_QOS) && !value.equals(CONCURRENCY_LIMITS)) {
                    throw new Invalid("unknown peer '" + value + "' (expected jetty-qos or concurrency-limits)");
                }
                peer = value;
            }
            case "lowPath" -> {
                if (!value.startsWith("/") || value.length() < 2 || value.endsWith("/") || value.contains("*")) {
                    throw new Invalid("lowPath must be a servlet path like /chart, got '" + value + "'");
                }
                lowPath = value;
            }
            case "maxRequests" -> maxRequests = (int) whole(key, value, 1, Integer.MAX_VALUE);
            case "maxSuspendMs" -> maxSuspendMs = whole(key, value, 0, Long.MAX_VALUE / 1_000_000);
            case "lowShare" -> {
                double d;
                try {
                    d = Double.parseDouble(value);
                } catch (NumberFormatException e) {
                    throw new Invalid("lowShare: not a number: '" + value + "'");
                }
                if (!(d >= 0 && d <= 1)) {
                    throw new Invalid("lowShare must be between 0 and 1, got '" + value + "'");
                }
                lowShare = d;
            }
            case "limit" -> {
                String v = value.toLowerCase(Locale.ROOT);
                if (v.equals("vegas") || v.equals("gradient2")) {
                    limit = v;
                } else if (v.startsWith("fixed:")) {
                    limit = "fixed";
                    fixedLimit = (int) whole("limit=fixed:N", value.substring("fixed:".length()), 1, 1_000_000);
                } else {
                    throw new Invalid("limit: expected vegas, gradient2 or fixed:N, got '" + value + "'");
                }
            }
            case "anyContext" -> {
                if (!value.equals("true") && !value.equals("false")) {
                    throw new Invalid("anyContext: expected true or false, got '" + value + "'");
                }
                anyContext = value.equals("true");
            }
            case "switchFile" -> {
                Path f;
                try {
                    f = Path.of(value);
                } catch (InvalidPathException e) {
                    throw new Invalid("switchFile: not a path: '" + value + "'");
                }
                if (!f.isAbsolute() || f.getFileName() == null) {
                    throw new Invalid("switchFile must be an absolute file path, got '" + value + "'");
                }
                switchFile = f;
            }
            default -> throw new Invalid("unknown key '" + key + "'");
        }
    }

    private static long whole(String key, String value, long min, long max) {
        long n;
        try {
            n = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new Invalid(key + ": not a whole number: '" + value + "'");
        }
        if (n < min || n > max) {
            throw new Invalid(key + " must be between " + min + " and " + max + ", got " + n);
        }
        return n;
    }

    /** True when {@code path} is {@code prefix} or below it ({@code /chart}, {@code /chart/x}; not {@code /charts}). */
    static boolean isUnder(String path, String prefix) {
        return path != null && path.startsWith(prefix)
                && (path.length() == prefix.length() || path.charAt(prefix.length()) == '/');
    }

    public String peer() {
        return peer;
    }

    public String lowPath() {
        return lowPath;
    }

    /** 0 when not given (Jetty's default applies). */
    public int maxRequests() {
        return maxRequests;
    }

    /** -1 when not given (Jetty's default applies). */
    public long maxSuspendMs() {
        return maxSuspendMs;
    }

    public double lowShare() {
        return lowShare;
    }

    /** vegas, gradient2 or fixed. */
    public String limit() {
        return limit;
    }

    /** Whether the peer goes on the first servlet context even without a servlet mapped at lowPath. */
    public boolean anyContext() {
        return anyContext;
    }

    /** N of limit=fixed:N. */
    public int fixedLimit() {
        return fixedLimit;
    }

    /** The limit as written in the arguments: vegas, gradient2 or fixed:N. */
    /** The file that turns the peer off and on, or null. */
    public Path switchFile() {
        return switchFile;
    }

    public String limitText() {
        return limit.equals("fixed") ? "fixed:" + fixedLimit : limit;
    }
}
