package io.qosweaver.scheduler.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

/**
 * The MTR-LS stress tests' starvation check: since when each entity has had no running thread, and
 * that no entity goes without one beyond a number of rounds of L.
 */
final class StarvationWatch {
    private final Map<Object, Long> waitingSince = new HashMap<>();
    private long longestWait;

    /** An entity that left: it no longer waits. */
    void forget(Object entity) {
        waitingSince.remove(entity);
    }

    /**
     * @param served per entity present, whether one of its threads ran in this step
     * @param rounds how many rounds of L a wait may last (the debt an entity can carry)
     * @param roundNanos one round of L at this step's number of entities
     */
    void observe(Map<Object, Boolean> served, long now, int entities, long rounds, long roundNanos, long step) {
        waitingSince.keySet().retainAll(served.keySet());
        for (Map.Entry<Object, Boolean> e : served.entrySet()) {
            if (e.getValue()) {
                waitingSince.remove(e.getKey());
            } else {
                waitingSince.putIfAbsent(e.getKey(), now);
            }
        }
        for (Map.Entry<Object, Long> w : waitingSince.entrySet()) {
            long waited = now - w.getValue();
            longestWait = Math.max(longestWait, waited);
            assertThat(waited).as("%s waited beyond %d rounds of L (%d entities) at %d ms", w.getKey(), rounds, entities,
                    step).isLessThanOrEqualTo(rounds * roundNanos);
        }
    }

    long longestWait() {
        return longestWait;
    }
}
