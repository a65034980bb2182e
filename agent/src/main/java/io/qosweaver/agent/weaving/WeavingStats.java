package io.qosweaver.agent.weaving;

import java.util.LinkedHashMap;
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
    /** One per pointcut of the policy file, keyed by its location {@code file:line}. */
    public static final class PointcutStats {
        final String kind;
        final String location;
        final String text;
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

    public PointcutStats add(String kind, String location, String text) {
        PointcutStats s = new PointcutStats(kind, location, text);
        pointcuts.put(kind + "@" + location, s);
        return s;
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

    public Iterable<PointcutStats> pointcuts() {
        return pointcuts.values();
    }

    public long unmatched() {
        return pointcuts.values().stream().filter(p -> p.joinPoints() == 0).count();
    }
}
