package io.qosweaver.scheduler;

import io.qosweaver.scheduler.spi.TaskClassSpec;
import java.util.List;
import java.util.Map;

/**
 * What the agent hands to the scheduler: the task classes and the policy, already parsed from the
 * policy file.
 *
 * @param taskClasses the task classes, by unique name, with their attributes (for example
 *     {@code importance: high})
 * @param policy the policy name (registered by name, for example {@code importance}) and its
 *     parameters (for example {@code lowLimit: 1})
 */
public record SchedulerConfig(List<TaskClassSpec> taskClasses, PolicySpec policy) {

    public record PolicySpec(String name, Map<String, String> parameters) {}
}
