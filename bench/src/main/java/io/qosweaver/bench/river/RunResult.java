package io.qosweaver.bench.river;

/** One app process: its idle window (or null) and its loaded window (or null). */
public record RunResult(String version, ScenarioResult idle, ScenarioResult overloaded, String appLog) {
}
