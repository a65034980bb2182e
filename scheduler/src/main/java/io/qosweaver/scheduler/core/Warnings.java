package io.qosweaver.scheduler.core;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Loud, once-per-message warnings on System.err for conditions that change what a run measures
 * (a priority policy whose priorities are ignored): said once per distinct message so that a
 * policy re-installed by every bench run does not flood the log, but never silently.
 */
public final class Warnings {
    private static final Set<String> SAID = ConcurrentHashMap.newKeySet();

    private Warnings() {}

    /** Prints {@code message} the first time it is seen; returns whether it printed. */
    public static boolean once(String message) {
        if (SAID.size() > 256 || !SAID.add(message)) {
            return false;
        }
        System.err.println("[qosweaver] WARNING " + message);
        return true;
    }
}
