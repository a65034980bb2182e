package io.qosweaver.bench.app;

import java.util.Map;

/**
 * One app process: its idle window (or null) and its loaded window (or null).
 *
 * @param priority what the agent's {@code qosweaver_priority_effective} gauge said at the end
 *     of the run ({@code mechanism}, {@code effective}, {@code reason}, {@code changes},
 *     {@code failures}); null when the agent exports no such gauge (no agent, or a policy that
 *     does not use thread priorities)
 */
public record RunResult(String version, ScenarioResult idle, ScenarioResult overloaded, String appLog,
                        Map<String, Object> priority) {

    public RunResult(String version, ScenarioResult idle, ScenarioResult overloaded, String appLog) {
        this(version, idle, overloaded, appLog, null);
    }
}
