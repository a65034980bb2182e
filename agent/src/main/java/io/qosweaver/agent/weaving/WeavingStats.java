package io.qosweaver.agent.weaving;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the weaving did, for the metrics endpoint, {@code qosweaver ctl status} and the
 * unmatched-pointcut check. Written at class-load time only, never on a woven path. Counted per
 * class (its name and loader), so that a class woven again (a retransformation for another
 * transformer: a watch, a swap) is not counted twice.
 */
public final class WeavingStats {
    /**
     * The kind of the pointcuts the agent weaves of itself to see the servers' thread pools (not
     * written in the policy file; a server the application does not run is no mistake).
     */
    public static final String POOL_WATCH = "poolWatch";

    /** Where a pointcut is in the policy file and what it says, as status and metrics show it. */
    public record Label(String kind, String location, String text) {}

    /** One per pointcut of the policy file, keyed by its location {@code file:line}. */
    public static final class PointcutStats {
        final String kind;
        /** Relabelled when a swap keeps the weaving of a file that says the same at other lines. */
        volatile String location;
        volatile String text;
        private final Map<String, Long> perClass = new ConcurrentHashMap<>();
        private final AtomicLong joinPoints = new AtomicLong();

        PointcutStats(String kind, String location, String text) {
            this.kind = kind;
            this.location = location;
            this.text = text;
        }

        public String kind() {
            return kind;
        }

        public String location() {
            return location;
        }

        public String text() {
            return text;
        }

        /** Methods advised (entries, servlets) or call sites given a control point (control points). */
        public long joinPoints() {
            return joinPoints.get();
        }

        /**
         * The join points woven in one class (units call it at weave time), replacing what an
         * earlier weaving of the same class counted.
         *
         * @param classKey the class, from {@link WeavingStats#classKey}
         */
        public void woven(String classKey, long n) {
            Long before = n == 0 ? perClass.remove(classKey) : perClass.put(classKey, n);
            joinPoints.addAndGet(n - (before == null ? 0 : before));
        }
    }

    /** Classes transformed, and of them those already loaded when they were first (retransformed). */
    private final Set<String> classes = ConcurrentHashMap.newKeySet();
    private final Set<String> loaded = ConcurrentHashMap.newKeySet();
    final AtomicLong errors = new AtomicLong();

    /** A class as the stats count it: its name and its loader's identity. */
    public static String classKey(String typeName, ClassLoader loader) {
        return typeName + "@" + (loader == null ? "bootstrap" : Integer.toHexString(System.identityHashCode(loader)));
    }

    void transformed(String classKey, boolean alreadyLoaded) {
        if (classes.add(classKey) && alreadyLoaded) {
            loaded.add(classKey);
        }
    }
    private final Map<String, PointcutStats> pointcuts = new LinkedHashMap<>();

    public synchronized PointcutStats add(String kind, String location, String text) {
        PointcutStats s = new PointcutStats(kind, location, text);
        pointcuts.put(key(kind, location, text), s);
        return s;
    }

    /**
     * One entry per pointcut woven: one line of the file may weave two ({@code threadPools} with
     * {@code server: any} weaves Jetty's and Tomcat's), which differ in their text.
     */
    private static String key(String kind, String location, String text) {
        return kind + "@" + location + "@" + text;
    }

    public PointcutStats add(Label label) {
        return add(label.kind(), label.location(), label.text());
    }

    /**
     * Gives every pointcut the location and text of another policy file that weaves the same
     * (a swap that keeps the weaving); their join-point counts stay.
     *
     * @param labels one per pointcut, in the order they were added, of the same kinds
     * @throws IllegalArgumentException the labels do not line up with the pointcuts
     */
    public synchronized void relabel(List<Label> labels) {
        List<PointcutStats> now = new ArrayList<>(pointcuts.values());
        if (now.size() != labels.size()) {
            throw new IllegalArgumentException(labels.size() + " labels for " + now.size() + " pointcuts");
        }
        for (int i = 0; i < now.size(); i++) {
            if (!now.get(i).kind.equals(labels.get(i).kind())) {
                throw new IllegalArgumentException("label " + i + " is a " + labels.get(i).kind() + ", the pointcut a "
                        + now.get(i).kind);
            }
        }
        pointcuts.clear();
        for (int i = 0; i < now.size(); i++) {
            PointcutStats s = now.get(i);
            s.location = labels.get(i).location();
            s.text = labels.get(i).text();
            pointcuts.put(key(s.kind, s.location, s.text), s);
        }
    }

    /** The classes woven, as {@link #classKey} gives them. */
    Set<String> classKeys() {
        return classes;
    }

    public long classesWoven() {
        return classes.size();
    }

    public long retransformed() {
        return loaded.size();
    }

    public long errors() {
        return errors.get();
    }

    /** A snapshot, in the order the pointcuts were added. */
    public synchronized List<PointcutStats> pointcuts() {
        return List.copyOf(pointcuts.values());
    }

    /** The policy file's pointcuts that have selected no join point yet (the agent's own watches left out). */
    public long unmatched() {
        return pointcuts().stream().filter(p -> p.joinPoints() == 0 && !p.kind().equals(POOL_WATCH)).count();
    }
}
