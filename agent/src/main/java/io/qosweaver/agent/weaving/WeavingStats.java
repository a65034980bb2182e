package io.qosweaver.agent.weaving;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the weaving did, for the metrics endpoint and the unmatched-pointcut check. Written at
 * class-load time only, never on a woven path.
 */
public final class WeavingStats {
    /** One per pointcut of the policy file, keyed by its location {@code file:line}. */
    public static final class PointcutStats {
        final String kind;
        final String location;
        final String text;
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

        /** Counts join points woven (units call it at weave time). */
        public void woven(long n) {
            joinPoints.addAndGet(n);
        }
    }

    final AtomicLong classesWoven = new AtomicLong();
    /** Of {@link #classesWoven}: those already loaded when the transformer was installed. */
    final AtomicLong retransformed = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    private final Map<String, PointcutStats> pointcuts = new LinkedHashMap<>();

    public PointcutStats add(String kind, String location, String text) {
        PointcutStats s = new PointcutStats(kind, location, text);
        pointcuts.put(kind + "@" + location, s);
        return s;
    }

    public long classesWoven() {
        return classesWoven.get();
    }

    public long retransformed() {
        return retransformed.get();
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
