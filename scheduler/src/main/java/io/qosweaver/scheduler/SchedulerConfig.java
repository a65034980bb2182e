package io.qosweaver.scheduler;

import java.util.List;
import java.util.Map;

/**
 * What the agent hands to the scheduler: the task classes and the policy, already parsed from the
 * policy file. CONTRACT shared with the agent.
 *
 * @param taskClasses the task classes, by unique name, with their attributes (for example
 *     {@code importance: high})
 * @param policy the policy name (registered by name, for example {@code importance}) and its
 *     parameters (for example {@code lowLimit: 1})
 */
public record SchedulerConfig(List<TaskClassSpec> taskClasses, PolicySpec policy) {

    public record TaskClassSpec(String name, Map<String, String> attributes) {}

    public record PolicySpec(String name, Map<String, String> parameters) {}
}
