package io.qosweaver.scheduler.stats;

/**
 * One entity of a proportional-share policy (MTR-LS): what it asked for and what it got over the
 * policy's last measurement window. Shares are of the capacity managed work may use (the policy's
 * {@code cores} times the window).
 *
 * @param entity the entity's name: its task class, or the thread's name when entities are threads
 *     ({@code os} for the reserved share)
 * @param taskClass the task class the entity belongs to ({@code os} for the reserved share)
 * @param kind {@code fraction}, {@code urgent}, {@code idle} or {@code reserved}
 * @param fraction the service fraction asked (0 for urgent and idle entities, which are not charged)
 * @param share the share received over the last window, a fraction of the capacity
 * @param lagSeconds CPU seconds the entity fell behind its fraction over the last window
 *     ({@code fraction * capacity - received}; negative: ahead, as an entity that uses others'
 *     unused time is; an entity with nothing to run falls behind)
 * @param cpuNanos CPU time charged to the entity since install (wall time for the reserved share)
 * @param rounds times the entity was moved to the rear of the service list since install
 */
public record EntityShare(String entity, String taskClass, String kind, double fraction, double share,
        double lagSeconds, long cpuNanos, long rounds) {}
