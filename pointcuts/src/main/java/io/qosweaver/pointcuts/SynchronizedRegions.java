package io.qosweaver.pointcuts;

import java.util.List;

/**
 * Which calls happen while the caller holds a monitor it took itself. The generator never
 * proposes such a call as a control point: a thread suspended there would keep the monitor and
 * could block the very thread that should run (QoSWeaver 3.4, "Synchronization").
 */
public interface SynchronizedRegions {

    /** Excludes nothing: the paper's behaviour. */
    SynchronizedRegions NONE = (caller, callee) -> false;

    /**
     * True if {@code caller} is a synchronized method, or if some call to {@code callee} in
     * {@code caller}'s body lies inside a {@code synchronized} block. Both are canonical
     * signatures ({@link Signatures}). When in doubt an implementation answers false and lists
     * the doubt in {@link #missingClasses()}.
     */
    boolean holdsMonitor(String caller, String callee);

    /** Declaring types of callers asked about whose class files could not be read. */
    default List<String> missingClasses() {
        return List.of();
    }

    /** Held if either says so; the classes {@code second} could not read are the missing ones. */
    static SynchronizedRegions either(SynchronizedRegions first, SynchronizedRegions second) {
        return new SynchronizedRegions() {
            @Override
            public boolean holdsMonitor(String caller, String callee) {
                return first.holdsMonitor(caller, callee) || second.holdsMonitor(caller, callee);
            }

            @Override
            public List<String> missingClasses() {
                return second.missingClasses();
            }
        };
    }

    /**
     * The calls a profile says were made with a monitor held (the profiler finds them when it
     * weaves its probe, from the class files it weaves); {@code pairs} holds {@code caller + "\t" +
     * callee} in canonical form.
     */
    static SynchronizedRegions recorded(java.util.Set<String> pairs) {
        java.util.Set<String> copy = java.util.Set.copyOf(pairs);
        return (caller, callee) -> copy.contains(caller + '\t' + callee);
    }
}
