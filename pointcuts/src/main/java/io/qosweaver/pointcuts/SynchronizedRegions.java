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
}
